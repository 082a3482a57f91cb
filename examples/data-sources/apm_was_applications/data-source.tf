data "apm_was_server" "was1" {
  system_name = "shop-prod"
  node_name   = "app-01"
  server_id   = "was-1"
}

# The applications deployed on one WAS server, sorted by context path, each with the ID to
# import it as apm_was_application.
data "apm_was_applications" "was1" {
  was_server_id = data.apm_was_server.was1.id
}

# Status and session count change all the time, so they are read here rather than managed
# by apm_was_application.
output "sessions_by_context_path" {
  value = { for a in data.apm_was_applications.was1.applications : a.context_path => a.sessions }
}

# Adopting them (import blocks with for_each: Terraform 1.7 or later, OpenTofu 1.7 or
# later). The manager does not report the archive an application came from: give
# source_path, which the first apply records without redeploying.
import {
  for_each = { for a in data.apm_was_applications.was1.applications : a.context_path => a }
  to       = apm_was_application.adopted[each.key]
  id       = each.value.import_id
}

resource "apm_was_application" "adopted" {
  for_each      = { for a in data.apm_was_applications.was1.applications : a.context_path => a }
  was_server_id = each.value.was_server_id
  context_path  = each.value.context_path
  source_path   = "/opt/releases/${trimprefix(each.key, "/")}.war"
}
