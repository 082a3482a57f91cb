# Provider functions need the provider among the module's required_providers.
terraform {
  required_providers {
    apm = {
      source = "apmplatform/apm"
    }
  }
}

# An import block for an existing node, its ID built from its parts (<system>/<name>).
import {
  to = apm_node.example
  id = provider::apm::build_node_id("shop", "web-01")
}
