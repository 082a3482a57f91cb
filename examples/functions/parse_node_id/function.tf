# Provider functions need the provider among the module's required_providers.
terraform {
  required_providers {
    apm = {
      source = "apmplatform/apm"
    }
  }
}

# The parts of a node ID, such as one that a resource's id attribute gives.
output "name" {
  value = provider::apm::parse_node_id("shop/web-01").name
}
