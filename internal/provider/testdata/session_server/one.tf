variable "node_id" { type = string }
variable "server_id" { type = string }
variable "mode" { type = string }
variable "server_port" { type = number }
variable "state" { type = string }

# A session server on the node node_id. A variable given as null is as if the argument
# were not written.
resource "apm_session_server" "s" {
  node_id     = var.node_id
  server_id   = var.server_id
  mode        = var.mode
  server_port = var.server_port
  state       = var.state
}
