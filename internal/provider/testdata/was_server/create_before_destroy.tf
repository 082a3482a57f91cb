# include: _base/shop_app.tf

# A WAS server replaced with create_before_destroy: the manager cannot hold the old and the
# new one at once, since both are was-2 on app-01.
resource "apm_was_server" "a" {
  node_id   = apm_node.app.id
  server_id = "was-2"
  mode      = "install"
  http_port = 8080

  lifecycle {
    create_before_destroy = true
  }
}
