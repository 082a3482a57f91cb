variable "host_name" { type = string }

data "apm_web_container_metrics" "x" {
  host_name = var.host_name
}
