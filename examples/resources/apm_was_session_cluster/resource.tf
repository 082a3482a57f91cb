resource "apm_system" "example" {
  name = "shop-prod"
}

resource "apm_node" "app" {
  system_id  = apm_system.example.id
  name       = "app-01"
  host_ip    = "10.0.0.21"
  agent_port = 7730
}

resource "apm_was_server" "example" {
  node_id   = apm_node.app.id
  server_id = "was-1"
  mode      = "install"
  http_port = 8080
}

# The session clustering is a resource of its own, so that it can live in another
# configuration than the server. A server has at most one: every change is applied in
# place, as the manager replaces the whole set-up on each write.
resource "apm_was_session_cluster" "example" {
  was_server_id = apm_was_server.example.id
  primary_host  = "10.0.0.31"
  primary_port  = 15200

  # Optional, and only together. Left out, the clustering has no secondary server.
  secondary_host = "10.0.0.32"
  secondary_port = 15200
}
