variable "name" { type = string }
variable "delete_timeout" { type = string }

resource "apm_system" "test" {
  name     = var.name
  timeouts = { delete = var.delete_timeout }
}
