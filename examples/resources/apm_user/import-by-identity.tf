# The identity is the user's user_id. As with an import ID, the first apply records the
# password attributes.
# Terraform and OpenTofu 1.12 and later.
import {
  to = apm_user.alice
  identity = {
    user_id = "alice"
  }
}
