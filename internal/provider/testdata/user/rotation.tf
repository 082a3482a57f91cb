variable "user_id" { type = string }
variable "password" { type = string }
variable "ops_role_id" { type = string }
variable "audit_role_id" { type = string }

# A user with two roles: one grant names the user and its role by reference, the other
# by literal ids.
resource "apm_user" "a" {
  user_id   = var.user_id
  user_name = "Alice"
  password  = var.password
}

resource "apm_role" "ops" {
  role_id      = var.ops_role_id
  name         = "Operators"
  action_types = ["READ", "EXECUTE"]
}

resource "apm_role" "audit" {
  role_id      = var.audit_role_id
  name         = "Auditors"
  action_types = ["READ"]
}

resource "apm_user_role" "ops" {
  user_id = apm_user.a.id
  role_id = apm_role.ops.id
}

resource "apm_user_role" "audit" {
  user_id    = var.user_id
  role_id    = var.audit_role_id
  depends_on = [apm_user.a, apm_role.audit]
}
