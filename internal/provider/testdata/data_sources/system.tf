variable "name" { type = string }

data "apm_system" "test" {
  name = var.name
}
