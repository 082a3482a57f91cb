variable "name" { type = string }

# Two blocks that declare one system.
resource "apm_system" "a" {
  name = var.name
}

resource "apm_system" "b" {
  name = var.name
}
