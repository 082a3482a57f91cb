variable "user_id" { type = string }
variable "role_id" { type = string }

resource "apm_user_role" "g" {
  user_id = var.user_id
  role_id = var.role_id
}
