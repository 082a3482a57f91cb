# Starts the WAS server and waits until it is running; a running one is left alone.
# Run it with: terraform apply -invoke=action.apm_was_server_start.example
action "apm_was_server_start" "example" {
  config {
    server_id = apm_was_server.example.id
  }
}
