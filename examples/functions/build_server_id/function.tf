# Provider functions need the provider among the module's required_providers.
terraform {
  required_providers {
    apm = {
      source = "apmplatform/apm"
    }
  }
}

# An import block for an existing server, its ID built from its parts (<system>/<node>/<server_id>).
import {
  to = apm_was_server.example
  id = provider::apm::build_server_id("shop", "app-01", "was-1")
}
