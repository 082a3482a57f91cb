# Provider functions need the provider among the module's required_providers.
terraform {
  required_providers {
    apm = {
      source = "apmplatform/apm"
    }
  }
}

# An import block for an existing user role, its ID built from its parts (<user_id>/<role_id>).
import {
  to = apm_user_role.example
  id = provider::apm::build_user_role_id("alice", "operators")
}
