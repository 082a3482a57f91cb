# Keep credentials out of the configuration: set them in the environment instead.
#   export APM_ENDPOINT="https://apm-manager.example.com:8443"
#   export APM_API_KEY="..."                         # never commit an API key
#   export APM_CA_CERT_PEM="$(cat /path/to/ca.pem)"  # only for a private CA
provider "apm" {
  # All settings are optional when the environment variables are set.
  request_timeout = "30s"
  max_retries     = 4

  # The manager's times carry no zone: they are its local clock. Name its zone, and data
  # sources give each time also in RFC 3339 (created_at_rfc3339) and count license days
  # from today in that zone. Defaults to "UTC".
  time_zone = "Europe/Berlin"

  # When it starts, the provider makes one request to check the endpoint, the certificate
  # and the API key, so that a mistake fails `plan` rather than `apply`. Set this to plan
  # without network access to the manager.
  # skip_connection_check = true

  # Only to recover from a killed run (its state lost what it had created): adopt objects
  # that already exist and match this configuration exactly, for one apply. Also
  # APM_ADOPT_EXISTING=true. Leave it off otherwise.
  # adopt_existing = true
}

# Every setting can also be given explicitly. Pass the key through an ephemeral variable
# (Terraform >= 1.10, OpenTofu >= 1.11), never a merely sensitive one, whose value a saved
# plan file would keep:
# variable "apm_api_key" {
#   type      = string
#   ephemeral = true
# }
# provider "apm" {
#   endpoint    = "https://apm-manager.example.com:8443"
#   api_key     = var.apm_api_key # from TF_VAR_apm_api_key
#   ca_cert_pem = file("${path.module}/ca.pem")
# }
