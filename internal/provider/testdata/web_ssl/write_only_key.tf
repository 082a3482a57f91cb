# include: _base/shop_app.tf

variable "https_port" { type = number }
variable "certificate_pem" { type = string }
variable "private_key_file" { type = string }
variable "private_key_version" { type = number }

resource "apm_web_server" "w" {
  node_id    = apm_node.app.id
  server_id  = "web-1"
  mode       = "install"
  http_port  = 80
  https_port = var.https_port
}

# The key is read with file(), as the docs advise: a literal would be part of the
# configuration, which a saved plan carries (and its JSON shows as constant_value).
resource "apm_web_ssl" "s" {
  web_server_id              = apm_web_server.w.id
  https_port                 = apm_web_server.w.https_port
  certificate_pem            = var.certificate_pem
  private_key_pem_wo         = file(var.private_key_file)
  private_key_pem_wo_version = var.private_key_version
}
