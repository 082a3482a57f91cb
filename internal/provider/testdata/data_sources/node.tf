variable "system_name" { type = string }
variable "name" { type = string }

data "apm_node" "test" {
  system_name = var.system_name
  name        = var.name
}
