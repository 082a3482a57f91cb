variable "alice_password" {
  description = "Alice's password: 8 to 128 characters with a letter, a digit and a special character."
  type        = string
  sensitive   = true
}

# Changing user_name is done in place; changing user_id replaces the user.
resource "apm_user" "alice" {
  user_id   = "alice"
  user_name = "Alice Example"

  # Recommended (Terraform 1.11 or later, OpenTofu): a write-only password is sent to the
  # manager and never stored in the plan or the state. Terraform cannot see it change:
  # bump the version to set it again, such as for a rotation.
  password_wo         = var.alice_password
  password_wo_version = 1

  # With Terraform before 1.11, use the sensitive attribute instead (exactly one of the
  # two). It is hidden in the CLI's output but stored in the state, so protect the state.
  # password = var.alice_password
}
