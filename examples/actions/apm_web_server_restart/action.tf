# Restarts the web server: stops it, then starts it, waiting for each.
# Run it with: terraform apply -invoke=action.apm_web_server_restart.example
action "apm_web_server_restart" "example" {
  config {
    server_id = apm_web_server.example.id
    timeout   = "15m"
  }
}

# What the action acts on, declared as in the resources' examples.
resource "apm_system" "example" {
  name = "shop-prod"
}

resource "apm_node" "app" {
  system_id  = apm_system.example.id
  name       = "app-01"
  host_ip    = "10.0.0.21"
  agent_port = 7730
}

resource "apm_web_server" "example" {
  node_id   = apm_node.app.id
  server_id = "web-1"
  mode      = "install"
  http_port = 80
  state     = "running"
}
