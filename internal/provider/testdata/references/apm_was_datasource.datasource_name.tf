# A datasource that the manager does not have, attached to a WAS server of this
# configuration.
variable "system_id" { type = string }

resource "apm_was_server" "a" {
  node_id   = "${var.system_id}/app-01"
  server_id = "was-1"
  mode      = "install"
  http_port = 8080
}

resource "apm_was_datasource" "d" {
  was_server_id   = apm_was_server.a.id
  datasource_name = "nosuch-ds"
}
