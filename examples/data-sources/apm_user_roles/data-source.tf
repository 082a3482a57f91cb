# The roles granted to one user, sorted by role_id, each with the ID to import its grant as
# apm_user_role. A user without roles lists none.
data "apm_user_roles" "alice" {
  user_id = "alice"
}

output "alice_roles" {
  value = data.apm_user_roles.alice.grants[*].role_name
}

# Adopting the grants (import blocks with for_each: Terraform 1.7 or later, OpenTofu 1.7
# or later).
import {
  for_each = { for g in data.apm_user_roles.alice.grants : g.role_id => g }
  to       = apm_user_role.alice[each.key]
  id       = each.value.import_id
}

resource "apm_user_role" "alice" {
  for_each = { for g in data.apm_user_roles.alice.grants : g.role_id => g }
  user_id  = each.value.user_id
  role_id  = each.value.role_id
}
