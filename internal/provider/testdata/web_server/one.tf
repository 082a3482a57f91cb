variable "node_id" { type = string }
variable "server_id" { type = string }
variable "mode" { type = string }
variable "http_port" { type = number }
variable "https_port" { type = number }
variable "state" { type = string }
variable "timeouts" { type = object({ create = optional(string), delete = optional(string) }) }

# A web server on the node node_id. A variable given as null is as if the argument were
# not written.
resource "apm_web_server" "w" {
  node_id    = var.node_id
  server_id  = var.server_id
  mode       = var.mode
  http_port  = var.http_port
  https_port = var.https_port
  state      = var.state
  timeouts   = var.timeouts
}
