# include: _base/shop_app.tf

# A WAS server that the apply installs and starts.
resource "apm_was_server" "a" {
  node_id   = apm_node.app.id
  server_id = "was-1"
  mode      = "install"
  http_port = 8080
  state     = "running"
}
