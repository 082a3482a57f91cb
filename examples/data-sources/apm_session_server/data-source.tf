# One session server, by system, node and server id (an error if it does not exist).
data "apm_session_server" "session1" {
  system_name = "shop-prod"
  node_name   = "app-01"
  server_id   = "session-1"
}

output "session1_port" {
  value = data.apm_session_server.session1.server_port
}
