# A datasource attached to a WAS server that the manager does not have.
variable "system_id" { type = string }

resource "apm_was_datasource" "d" {
  was_server_id   = "${var.system_id}/app-01/was-9"
  datasource_name = "orders-ds"
}
