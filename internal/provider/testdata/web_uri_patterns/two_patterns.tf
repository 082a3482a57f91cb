# include: _base/shop_app.tf

variable "first" { type = string }
variable "second" { type = string }

resource "apm_web_server" "w" {
  node_id   = apm_node.app.id
  server_id = "web-1"
  mode      = "install"
  http_port = 80
}

resource "apm_web_uri_patterns" "u" {
  web_server_id = apm_web_server.w.id
  patterns      = [var.first, var.second]
}
