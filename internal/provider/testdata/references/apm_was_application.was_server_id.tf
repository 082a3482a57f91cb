# An application on a WAS server that the manager does not have.
variable "system_id" { type = string }

resource "apm_was_application" "a" {
  was_server_id = "${var.system_id}/app-01/was-9"
  context_path  = "/shop"
  source_path   = "/opt/releases/shop.war"
}
