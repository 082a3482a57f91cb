data "apm_was_server" "was1" {
  system_name = "shop-prod"
  node_name   = "app-01"
  server_id   = "was-1"
}

# The session clustering of one WAS server, with the ID to import it as
# apm_was_session_cluster: one item when the server has session clustering, none when it
# has not.
data "apm_was_session_clusters" "was1" {
  was_server_id = data.apm_was_server.was1.id
}

output "session_servers" {
  value = [for c in data.apm_was_session_clusters.was1.session_clusters : "${c.primary_host}:${c.primary_port}"]
}

# Adopting it where there is one (for_each in import blocks: Terraform 1.7 or later,
# OpenTofu 1.7 or later).
import {
  for_each = { for c in data.apm_was_session_clusters.was1.session_clusters : c.import_id => c }
  to       = apm_was_session_cluster.adopted[each.key]
  id       = each.key
}

resource "apm_was_session_cluster" "adopted" {
  for_each       = { for c in data.apm_was_session_clusters.was1.session_clusters : c.import_id => c }
  was_server_id  = each.value.was_server_id
  primary_host   = each.value.primary_host
  primary_port   = each.value.primary_port
  secondary_host = each.value.secondary_host
  secondary_port = each.value.secondary_port
}
