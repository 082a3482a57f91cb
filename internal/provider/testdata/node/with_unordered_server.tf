# A node and a running WAS server on it that names the node by a literal id rather than
# apm_node.app.id: Terraform does not order their deletes, so a destroy sends both at once
# and the node's delete is refused until the server's (which stops it first) is done.
variable "system_id" { type = string }
variable "with_server" { type = bool }

resource "apm_node" "app" {
  system_id  = var.system_id
  name       = "app-01"
  host_ip    = "10.0.0.21"
  agent_port = 7730
}

resource "apm_was_server" "a" {
  count     = var.with_server ? 1 : 0
  node_id   = "${var.system_id}/app-01"
  server_id = "was-1"
  mode      = "install"
  http_port = 8080
  state     = "running"
}
