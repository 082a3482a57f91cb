# include: _base/shop_app.tf

variable "second" { type = bool }
variable "second_type" { type = string }

resource "apm_web_server" "w" {
  node_id   = apm_node.app.id
  server_id = "web-1"
  mode      = "install"
  http_port = 80
}

resource "apm_was_server" "one" {
  node_id   = apm_node.app.id
  server_id = "was-1"
  mode      = "install"
  http_port = 8081
  ajp_port  = 8009
  state     = "running"
}

# was-2, while var.second: a short delete timeout, so that a delete the manager keeps
# refusing fails the test quickly instead of waiting out the default.
resource "apm_was_server" "two" {
  count       = var.second ? 1 : 0
  node_id     = apm_node.app.id
  server_id   = "was-2"
  mode        = "install"
  http_port   = 8082
  ajp_port    = 8010
  server_type = var.second_type
  state       = "running"
  timeouts    = { delete = "5s" }
}

# The web server balances to was-1, and to was-2 while it exists.
resource "apm_web_workers" "w" {
  web_server_id = apm_web_server.w.id
  workers = merge(
    { (apm_was_server.one.id) = {} },
    { for s in apm_was_server.two : s.id => {} },
  )
}
