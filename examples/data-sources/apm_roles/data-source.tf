# Every role, with its action types.
data "apm_roles" "all" {}

output "writers" {
  value = [for r in data.apm_roles.all.roles : r.role_id if contains(r.action_types, "WRITE")]
}
