resource "apm_system" "example" {
  name = "shop-prod"
}

resource "apm_node" "web" {
  system_id  = apm_system.example.id
  name       = "web-01"
  host_ip    = "10.0.0.11"
  agent_port = 7730
}

# Installs a web server on the node and starts it. Changing node_id, server_id or mode
# replaces it; the ports and state are changed in place. apm_web_workers,
# apm_web_uri_patterns and apm_web_ssl configure it further.
resource "apm_web_server" "example" {
  node_id    = apm_node.web.id
  server_id  = "web-1"
  mode       = "install"
  http_port  = 80
  https_port = 443
  state      = "running"
}
