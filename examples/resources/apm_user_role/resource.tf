variable "bob_password" {
  type      = string
  sensitive = true
}

resource "apm_user" "bob" {
  user_id             = "bob"
  user_name           = "Bob Example"
  password_wo         = var.bob_password
  password_wo_version = 1
}

resource "apm_role" "readers" {
  role_id      = "readers"
  name         = "Readers"
  action_types = ["READ"]
}

# One grant: creating it grants the role, destroying it revokes it. Other roles of the
# user are left alone. Destroying the role and its grants in one run revokes the grants
# first.
resource "apm_user_role" "bob_readers" {
  user_id = apm_user.bob.id
  role_id = apm_role.readers.id
}
