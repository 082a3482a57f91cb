# Restarts the WAS server: stops it, then starts it, waiting for each.
# Run it with: terraform apply -invoke=action.apm_was_server_restart.example
action "apm_was_server_restart" "example" {
  config {
    server_id = apm_was_server.example.id
    timeout   = "15m"
  }
}
