# The SSL set-up of a web server that the manager does not have.
variable "system_id" { type = string }
variable "certificate_pem" { type = string }
variable "private_key_pem" { type = string }

resource "apm_web_ssl" "s" {
  web_server_id   = "${var.system_id}/app-01/web-9"
  https_port      = 8443
  certificate_pem = var.certificate_pem
  private_key_pem = var.private_key_pem
}
