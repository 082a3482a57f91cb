resource "apm_system" "example" {
  name = "shop-prod"
}

resource "apm_node" "web" {
  system_id  = apm_system.example.id
  name       = "web-01"
  host_ip    = "10.0.0.11"
  agent_port = 7730
}

resource "apm_web_server" "example" {
  node_id   = apm_node.web.id
  server_id = "web-1"
  mode      = "install"
  http_port = 80
}

# The URI patterns the web server forwards to its workers (apm_web_workers), all of them:
# creating the set removes the patterns the web server has beyond it, and a pattern
# added or removed outside Terraform is put right by the next apply. Apply sends only
# the patterns added and removed. Each pattern starts with "/".
resource "apm_web_uri_patterns" "example" {
  web_server_id = apm_web_server.example.id
  patterns      = ["/shop/*", "/api/*"]
}
