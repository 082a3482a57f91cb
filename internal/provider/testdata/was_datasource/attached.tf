# include: _base/shop_app.tf

variable "datasource_name" { type = string }

resource "apm_was_server" "a" {
  node_id   = apm_node.app.id
  server_id = "was-1"
  mode      = "install"
  http_port = 8080
}

resource "apm_was_datasource" "d" {
  was_server_id   = apm_was_server.a.id
  datasource_name = var.datasource_name
}
