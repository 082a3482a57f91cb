# The web server web-1 and the WAS servers was-1 to was-3 on the base's node, for the
# tests of a web server's workers.
# include: _base/shop_app.tf

resource "apm_web_server" "w" {
  node_id   = apm_node.app.id
  server_id = "web-1"
  mode      = "install"
  http_port = 80
}

# was-1 to was-3 (was[0] to was[2]) for the workers: HTTP 8080+n, AJP 8008+n.
resource "apm_was_server" "was" {
  count     = 3
  node_id   = apm_node.app.id
  server_id = "was-${count.index + 1}"
  mode      = "install"
  http_port = 8081 + count.index
  ajp_port  = 8009 + count.index
}
