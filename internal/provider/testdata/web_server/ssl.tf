variable "web_server_id" { type = string }
variable "certificate_pem" { type = string }
variable "private_key_pem" { type = string }

# SSL on port 9443 for the web server web_server_id.
resource "apm_web_ssl" "s" {
  web_server_id   = var.web_server_id
  https_port      = 9443
  certificate_pem = var.certificate_pem
  private_key_pem = var.private_key_pem
}
