# The adopting configuration: the provider, and the passwords that the manager never reports.
# Discovery (discover/) writes imports.tf, `plan -generate-config-out=generated.tf` writes the
# resources; see the guide "Adopting an existing platform". Connection settings come from the
# environment (APM_ENDPOINT, APM_API_KEY, APM_CA_CERT_PEM).

terraform {
  required_version = ">= 1.5.0"

  required_providers {
    apm = {
      source = "apmplatform/apm"
    }
  }
}

provider "apm" {}

# The generated blocks of databases and users leave the password null: each is set to
# var.passwords["<name of the block>"]. Give them as TF_VAR_passwords, from a secret store.
variable "passwords" {
  description = "The passwords of the adopted databases and users, by the name of their resource block."
  type        = map(string)
  sensitive   = true
  default     = {}
}
