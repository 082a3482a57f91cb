# The identity is the grant's user_id and role_id.
# Terraform and OpenTofu 1.12 and later.
import {
  to = apm_user_role.bob_readers
  identity = {
    user_id = "bob"
    role_id = "readers"
  }
}
