# include: _base/shop_app.tf

# A WAS server replaced with create_before_destroy when var.generation changes, as by any
# change that forces a replacement: the manager cannot hold the old and the new one at
# once, since both are was-2 on app-01.
variable "generation" { type = string }

resource "terraform_data" "generation" {
  input = var.generation
}

resource "apm_was_server" "a" {
  node_id   = apm_node.app.id
  server_id = "was-2"
  mode      = "install"
  http_port = 8080

  lifecycle {
    create_before_destroy = true
    replace_triggered_by  = [terraform_data.generation]
  }
}
