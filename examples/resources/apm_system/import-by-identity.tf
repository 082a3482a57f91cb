# The identity is the system's id (its systemId, the id attribute), which a rename keeps;
# the import ID takes the name as well.
# Terraform and OpenTofu 1.12 and later.
import {
  to = apm_system.example
  identity = {
    id = "SYS-0001"
  }
}
