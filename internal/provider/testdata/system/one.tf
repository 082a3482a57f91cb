variable "name" { type = string }

resource "apm_system" "test" {
  name = var.name
}
