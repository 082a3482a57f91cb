# Provider functions need the provider among the module's required_providers.
terraform {
  required_providers {
    apm = {
      source = "apmplatform/apm"
    }
  }
}

# The parts of a user role ID, such as one that a resource's id attribute gives.
output "role_id" {
  value = provider::apm::parse_user_role_id("alice/operators").role_id
}
