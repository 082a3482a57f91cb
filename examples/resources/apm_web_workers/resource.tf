resource "apm_system" "example" {
  name = "shop-prod"
}

resource "apm_node" "web" {
  system_id  = apm_system.example.id
  name       = "web-01"
  host_ip    = "10.0.0.11"
  agent_port = 7730
}

resource "apm_node" "app" {
  system_id  = apm_system.example.id
  name       = "app-01"
  host_ip    = "10.0.0.21"
  agent_port = 7730
}

resource "apm_web_server" "example" {
  node_id   = apm_node.web.id
  server_id = "web-1"
  mode      = "install"
  http_port = 80
}

resource "apm_was_server" "a" {
  node_id   = apm_node.app.id
  server_id = "was-1"
  mode      = "install"
  http_port = 8080
  ajp_port  = 8009
}

resource "apm_was_server" "b" {
  node_id   = apm_node.app.id
  server_id = "was-2"
  mode      = "install"
  http_port = 8081
  ajp_port  = 8010
}

# The map is the web server's whole set of workers, keyed by the id of the WAS server each
# forwards to (in parentheses: the key is an expression). Creating it replaces the workers
# the web server has, and a worker added outside Terraform shows in the next plan and is
# removed by apply. The WAS servers' ids stay the same when the system is renamed. Neither
# the order the workers are written in nor the order the manager reports them in makes a
# difference, and a plan names a changed worker by its WAS server's id.
resource "apm_web_workers" "example" {
  web_server_id = apm_web_server.example.id

  workers = {
    # host and ajp_port left out: the manager takes the WAS node's address (10.0.0.21)
    # and the server's AJP port (8009) when the worker is added; lb_factor defaults to 1.
    (apm_was_server.a.id) = {}

    # Set them to route through another address, or to weigh the worker (1 to 100).
    # Referring to the server's ajp_port makes the worker follow a change of it.
    (apm_was_server.b.id) = {
      host      = "10.0.1.21"
      ajp_port  = apm_was_server.b.ajp_port
      lb_factor = 3
    }
  }
}

# A WAS server cannot be deleted while it is a worker: remove it from the map first
# (Terraform does so on destroy, as the map refers to the servers).
