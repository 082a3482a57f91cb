variable "system_name" { type = string }
variable "server_id" { type = string }

# The detail of a WAS server on the node app-01.
data "apm_was_server" "a" {
  system_name = var.system_name
  node_name   = "app-01"
  server_id   = var.server_id
}
