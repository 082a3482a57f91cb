# include: _base/shop_app.tf

variable "context_path" { type = string }
variable "source_path" { type = string }

resource "apm_was_server" "a" {
  node_id   = apm_node.app.id
  server_id = "was-1"
  mode      = "install"
  http_port = 8080
  state     = "running"
}

resource "apm_was_application" "shop" {
  was_server_id    = apm_was_server.a.id
  context_path     = var.context_path
  source_path      = var.source_path
  application_name = "shop"
}

data "apm_was_applications" "was1" {
  was_server_id = apm_was_server.a.id
  depends_on    = [apm_was_application.shop]
}
