variable "user_id" { type = string }
variable "user_name" { type = string }
variable "password" { type = string }
variable "password_wo" { type = string }
variable "password_wo_version" { type = number }

# The optional variables may be null, which leaves their argument out.
resource "apm_user" "a" {
  user_id             = var.user_id
  user_name           = var.user_name
  password            = var.password
  password_wo         = var.password_wo
  password_wo_version = var.password_wo_version
}
