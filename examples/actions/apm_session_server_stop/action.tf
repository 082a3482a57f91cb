# Stops the session server and waits until it is stopped; a stopped one is left alone.
# Run it with: terraform apply -invoke=action.apm_session_server_stop.example
action "apm_session_server_stop" "example" {
  config {
    server_id = apm_session_server.example.id
    timeout   = "5m"
  }
}
