# The identity is the role's role_id.
# Terraform and OpenTofu 1.12 and later.
import {
  to = apm_role.operators
  identity = {
    role_id = "operators"
  }
}
