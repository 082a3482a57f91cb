# Every WAS server of the manager, sorted by system, node and server id.
data "apm_was_servers" "all" {}

# Only those of one system (an error if no system has that name), or of one node.
data "apm_was_servers" "app" {
  system_name = "shop-prod"
  node_name   = "app-01"
}

output "app_was_status" {
  value = { for s in data.apm_was_servers.app.servers : s.server_id => "${s.status} on ${s.http_port} (${s.server_type})" }
}
