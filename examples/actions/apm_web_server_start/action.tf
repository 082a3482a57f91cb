# Starts the web server and waits until it is running; a running one is left alone.
# Run it with: terraform apply -invoke=action.apm_web_server_start.example
action "apm_web_server_start" "example" {
  config {
    server_id = apm_web_server.example.id
  }
}
