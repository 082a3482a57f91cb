variable "host_name" { type = string }

data "apm_was_container_metrics" "x" {
  host_name = var.host_name
}
