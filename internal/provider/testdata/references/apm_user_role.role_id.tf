# A grant of a role that the manager does not have.
resource "apm_user" "u" {
  user_id   = "bob"
  user_name = "Bob"
  password  = "Secret-pass-1"
}

resource "apm_user_role" "g" {
  user_id = apm_user.u.id
  role_id = "no-such-role"
}
