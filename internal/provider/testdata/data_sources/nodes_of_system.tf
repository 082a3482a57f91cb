variable "system_name" { type = string }

data "apm_nodes" "test" {
  system_name = var.system_name
}
