# Stops the WAS server and waits until it is stopped; a stopped one is left alone.
# Run it with: terraform apply -invoke=action.apm_was_server_stop.example
action "apm_was_server_stop" "example" {
  config {
    server_id = apm_was_server.example.id
    timeout   = "5m"
    force     = true # stop at once, without waiting for requests in progress
  }
}
