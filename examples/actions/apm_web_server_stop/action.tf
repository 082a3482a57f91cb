# Stops the web server and waits until it is stopped; a stopped one is left alone.
# Run it with: terraform apply -invoke=action.apm_web_server_stop.example
action "apm_web_server_stop" "example" {
  config {
    server_id = apm_web_server.example.id
    timeout   = "5m"
  }
}
