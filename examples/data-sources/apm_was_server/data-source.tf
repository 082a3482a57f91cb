# One WAS server, by system, node and server id (an error if it does not exist).
data "apm_was_server" "was1" {
  system_name = "shop-prod"
  node_name   = "app-01"
  server_id   = "was-1"
}

output "was1_status" {
  value = data.apm_was_server.was1.status
}

# The id (<system_id>/<node>/<server_id>) is what the parts of a server refer to.
output "was1_id" {
  value = data.apm_was_server.was1.id
}
