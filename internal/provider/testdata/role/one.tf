variable "role_id" { type = string }
variable "name" { type = string }
variable "action_types" { type = set(string) }
variable "description" { type = string }
variable "timeouts" { type = object({ delete = string }) }

# The optional variables may be null, which leaves their argument out.
resource "apm_role" "r" {
  role_id      = var.role_id
  name         = var.name
  action_types = var.action_types
  description  = var.description
  timeouts     = var.timeouts
}
