# include: _base/shop_app.tf

variable "https_port" { type = number }
variable "certificate_pem" { type = string }
variable "private_key_pem" { type = string }
variable "ca_chain_pem" { type = string }

resource "apm_web_server" "w" {
  node_id    = apm_node.app.id
  server_id  = "web-1"
  mode       = "install"
  http_port  = 80
  https_port = var.https_port
}

resource "apm_web_ssl" "s" {
  web_server_id   = apm_web_server.w.id
  https_port      = apm_web_server.w.https_port
  certificate_pem = var.certificate_pem
  private_key_pem = var.private_key_pem
  ca_chain_pem    = var.ca_chain_pem
}
