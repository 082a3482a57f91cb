variable "name" { type = string }

# The system named name, imported into apm_system.test, which system/one.tf declares.
import {
  to = apm_system.test
  id = var.name
}
