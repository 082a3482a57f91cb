# Every session server of the manager, sorted by system, node and server id.
data "apm_session_servers" "all" {}

# Only the session servers of the nodes named app-01, in one system.
data "apm_session_servers" "app" {
  system_name = "shop-prod"
  node_name   = "app-01"
}

output "session_endpoints" {
  value = [for s in data.apm_session_servers.app.servers : "${s.node_name}:${s.server_port} (${s.status})"]
}
