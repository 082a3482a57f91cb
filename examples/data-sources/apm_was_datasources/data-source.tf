data "apm_was_server" "was1" {
  system_name = "shop-prod"
  node_name   = "app-01"
  server_id   = "was-1"
}

# The datasources attached to one WAS server, sorted by name, each with the ID to import
# its attachment as apm_was_datasource. A server without attachments lists none.
data "apm_was_datasources" "was1" {
  was_server_id = data.apm_was_server.was1.id
}

output "attached" {
  value = data.apm_was_datasources.was1.attachments[*].datasource_name
}

# Adopting them (import blocks with for_each: Terraform 1.7 or later, OpenTofu 1.7 or
# later).
import {
  for_each = { for a in data.apm_was_datasources.was1.attachments : a.datasource_name => a }
  to       = apm_was_datasource.adopted[each.key]
  id       = each.value.import_id
}

resource "apm_was_datasource" "adopted" {
  for_each        = { for a in data.apm_was_datasources.was1.attachments : a.datasource_name => a }
  was_server_id   = each.value.was_server_id
  datasource_name = each.value.datasource_name
}
