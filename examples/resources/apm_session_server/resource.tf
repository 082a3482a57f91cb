resource "apm_system" "example" {
  name = "shop-prod"
}

resource "apm_node" "app" {
  system_id  = apm_system.example.id
  name       = "app-01"
  host_ip    = "10.0.0.21"
  agent_port = 7730
}

# Installs a session server, which WAS servers share their HTTP sessions through
# (apm_was_session_cluster). Without state, the provider leaves its running state alone.
resource "apm_session_server" "example" {
  node_id     = apm_node.app.id
  server_id   = "session-1"
  mode        = "install"
  server_port = 15200
}
