# Every user, with the roles granted to each. Passwords are never reported.
data "apm_users" "all" {}

output "user_ids" {
  value = data.apm_users.all.users[*].user_id
}
