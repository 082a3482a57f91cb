variable "node_id" { type = string }
variable "server_id" { type = string }
variable "mode" { type = string }
variable "http_port" { type = number }
variable "ajp_port" { type = number }
variable "java_home" { type = string }
variable "server_type" { type = string }
variable "state" { type = string }
variable "force_stop" { type = bool }
variable "timeouts" { type = object({ create = optional(string), delete = optional(string) }) }

# A WAS server on the node node_id. A variable given as null is as if the argument were
# not written.
resource "apm_was_server" "a" {
  node_id     = var.node_id
  server_id   = var.server_id
  mode        = var.mode
  http_port   = var.http_port
  ajp_port    = var.ajp_port
  java_home   = var.java_home
  server_type = var.server_type
  state       = var.state
  force_stop  = var.force_stop
  timeouts    = var.timeouts
}
