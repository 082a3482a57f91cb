# include: _base/shop_app.tf

resource "apm_web_server" "w" {
  node_id   = apm_node.app.id
  server_id = "web-1"
  mode      = "install"
  http_port = 80
}

resource "apm_was_server" "was1" {
  node_id   = apm_node.app.id
  server_id = "was-1"
  mode      = "install"
  http_port = 8081
  ajp_port  = 8009
}

resource "apm_web_workers" "w" {
  web_server_id = apm_web_server.w.id
  workers       = { (apm_was_server.was1.id) = { lb_factor = 3 } }
}

resource "apm_web_uri_patterns" "u" {
  web_server_id = apm_web_server.w.id
  patterns      = ["/api/*"]
}
