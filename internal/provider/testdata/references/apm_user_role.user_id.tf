# A grant to a user that the manager does not have.
resource "apm_role" "r" {
  role_id      = "readers"
  name         = "Readers"
  action_types = ["READ"]
}

resource "apm_user_role" "g" {
  user_id = "nobody"
  role_id = apm_role.r.id
}
