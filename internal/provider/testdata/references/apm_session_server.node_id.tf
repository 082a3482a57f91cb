# A server on a node that the manager does not have, named by a literal.
variable "system_id" { type = string }

resource "apm_session_server" "s" {
  node_id     = "${var.system_id}/app-09"
  server_id   = "session-1"
  mode        = "install"
  server_port = 15200
}
