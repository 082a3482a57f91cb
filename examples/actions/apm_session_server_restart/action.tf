# Restarts the session server: stops it, then starts it, waiting for each.
# Run it with: terraform apply -invoke=action.apm_session_server_restart.example
action "apm_session_server_restart" "example" {
  config {
    server_id = apm_session_server.example.id
    timeout   = "15m"
  }
}
