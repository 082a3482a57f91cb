variable "system_name" { type = string }

data "apm_was_servers" "x" {
  system_name = var.system_name
}
