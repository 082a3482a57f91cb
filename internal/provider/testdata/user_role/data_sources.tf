# Reads apm_user_role.g and apm_role.r, declared with it.
data "apm_user" "a" {
  user_id = apm_user_role.g.user_id
}

data "apm_users" "all" {
  depends_on = [apm_user_role.g]
}

data "apm_role" "r" {
  role_id = apm_user_role.g.role_id
}

data "apm_roles" "all" {
  depends_on = [apm_role.r]
}
