# include: _base/shop_app.tf

variable "was_ajp_port" { type = number }

resource "apm_web_server" "w" {
  node_id   = apm_node.app.id
  server_id = "web-1"
  mode      = "install"
  http_port = 80
}

# was-1, with no AJP port while was_ajp_port is null.
resource "apm_was_server" "a" {
  node_id   = apm_node.app.id
  server_id = "was-1"
  mode      = "install"
  http_port = 8081
  ajp_port  = var.was_ajp_port
}
