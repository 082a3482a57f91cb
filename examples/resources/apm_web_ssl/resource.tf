variable "tls_dir" {
  description = "Directory holding web-1.crt, its key web-1.key and ca-chain.crt, PEM-encoded."
  type        = string
}

resource "apm_system" "example" {
  name = "shop-prod"
}

resource "apm_node" "web" {
  system_id  = apm_system.example.id
  name       = "web-01"
  host_ip    = "10.0.0.11"
  agent_port = 7730
}

resource "apm_web_server" "example" {
  node_id    = apm_node.web.id
  server_id  = "web-1"
  mode       = "install"
  http_port  = 80
  https_port = 8443
}

# Every change is applied in place, by sending the whole set-up again. The manager never
# reports the certificate or the key: state keeps what was applied. The manager cannot
# turn SSL off, so destroying this resource only removes it from the state (with a
# warning); the web server keeps serving HTTPS.
resource "apm_web_ssl" "example" {
  web_server_id = apm_web_server.example.id
  # The web server's https_port is the same port: refer to it, so that the two
  # resources never undo each other's change.
  https_port      = apm_web_server.example.https_port
  certificate_pem = file("${var.tls_dir}/web-1.crt")
  ca_chain_pem    = file("${var.tls_dir}/ca-chain.crt") # optional

  # Recommended (Terraform 1.11 or later, OpenTofu): a write-only key is sent to the
  # manager and never stored in the plan or the state. Terraform cannot see it change:
  # bump the version to send it again, such as when the key is rotated. Read it with
  # file() or from an ephemeral value rather than writing it into the configuration.
  private_key_pem_wo         = file("${var.tls_dir}/web-1.key")
  private_key_pem_wo_version = 1

  # With Terraform before 1.11, use the sensitive attribute instead (exactly one of the
  # two). It is hidden in the CLI's output but stored in the state, so protect the state.
  # private_key_pem = file("${var.tls_dir}/web-1.key")
}
