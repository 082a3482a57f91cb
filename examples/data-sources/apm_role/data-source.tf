# One role by role_id.
data "apm_role" "operators" {
  role_id = "operators"
}

output "operators_action_types" {
  value = data.apm_role.operators.action_types
}
