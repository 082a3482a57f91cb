# Provider functions need the provider among the module's required_providers.
terraform {
  required_providers {
    apm = {
      source = "apmplatform/apm"
    }
  }
}

# An import block for an existing was datasource, its ID built from its parts (<system>/<node>/<server_id>/<datasource_name>).
import {
  to = apm_was_datasource.example
  id = provider::apm::build_was_datasource_id("shop", "app-01", "was-1", "orders-ds")
}
