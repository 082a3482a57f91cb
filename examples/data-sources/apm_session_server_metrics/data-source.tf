# The current metrics of a session server.
data "apm_session_server_metrics" "session01" {
  system_name = "shop"
  node_name   = "web-01"
  server_id   = "session-01"
}

output "session01_active_sessions" {
  value = data.apm_session_server_metrics.session01.active_sessions
}

output "session01_memory_used_mb" {
  value = data.apm_session_server_metrics.session01.memory_used
}
