variable "tls_dir" {
  description = "Directory holding web-1.crt and its key web-1.key, PEM-encoded."
  type        = string
}

data "apm_web_server" "web1" {
  system_name = "shop-prod"
  node_name   = "web-01"
  server_id   = "web-1"
}

# The SSL set-up of one web server, with the ID to import it as apm_web_ssl: one item when
# SSL is on, none when it is off. The manager never reports the certificate or the key.
data "apm_web_ssls" "web1" {
  web_server_id = data.apm_web_server.web1.id
}

output "https_port" {
  value = one(data.apm_web_ssls.web1.ssl_setups[*].https_port)
}

# Adopting it where SSL is on (for_each in import blocks: Terraform 1.7 or later, OpenTofu
# 1.7 or later). The certificate and the key cannot be read back: give them, and the
# first apply records them without sending anything.
import {
  for_each = { for s in data.apm_web_ssls.web1.ssl_setups : s.import_id => s }
  to       = apm_web_ssl.adopted[each.key]
  id       = each.key
}

resource "apm_web_ssl" "adopted" {
  for_each                   = { for s in data.apm_web_ssls.web1.ssl_setups : s.import_id => s }
  web_server_id              = each.value.web_server_id
  https_port                 = each.value.https_port
  certificate_pem            = file("${var.tls_dir}/web-1.crt")
  private_key_pem_wo         = file("${var.tls_dir}/web-1.key")
  private_key_pem_wo_version = 1
}
