# Provider functions need the provider among the module's required_providers.
terraform {
  required_providers {
    apm = {
      source = "apmplatform/apm"
    }
  }
}

# The parts of a was datasource ID, such as one that a resource's id attribute gives.
output "datasource_name" {
  value = provider::apm::parse_was_datasource_id("shop/app-01/was-1/orders-ds").datasource_name
}
