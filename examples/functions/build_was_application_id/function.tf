# Provider functions need the provider among the module's required_providers.
terraform {
  required_providers {
    apm = {
      source = "apmplatform/apm"
    }
  }
}

# An import block for an existing was application, its ID built from its parts (<system>/<node>/<server_id>/<context_path>).
import {
  to = apm_was_application.example
  id = provider::apm::build_was_application_id("shop", "app-01", "was-1", "shop")
}
