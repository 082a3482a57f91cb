# Provider functions need the provider among the module's required_providers.
terraform {
  required_providers {
    apm = {
      source = "apmplatform/apm"
    }
  }
}

# The parts of a was application ID, such as one that a resource's id attribute gives.
output "context_path" {
  value = provider::apm::parse_was_application_id("shop/app-01/was-1/shop").context_path
}
