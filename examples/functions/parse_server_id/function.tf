# Provider functions need the provider among the module's required_providers.
terraform {
  required_providers {
    apm = {
      source = "apmplatform/apm"
    }
  }
}

# The parts of a server ID, such as one that a resource's id attribute gives.
output "server_id" {
  value = provider::apm::parse_server_id("shop/app-01/was-1").server_id
}
