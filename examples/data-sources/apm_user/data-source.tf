# One user by user_id, with its roles and the day it was created.
data "apm_user" "alice" {
  user_id = "alice"
}

output "alice_roles" {
  value = data.apm_user.alice.roles[*].role_id
}
