variable "system_name" { type = string }
variable "node_name" { type = string }
variable "registerable" { type = list(object({ server_id = string, node_id = string, http_port = number })) }

# Every registerable WAS server of the node node_name of the system system_name (the list
# registerable, as apm_registerable_servers reads it) registered with for_each.
#
# Registering takes a server off the registerable list, so a for_each over that list
# alone would, in the plan right after the apply, read an empty list and deregister what
# the apply registered (and register it again in the apply after: a perpetual diff). The
# map therefore also takes the node's registered WAS servers (apm_was_servers, filtered to
# the node): a server registered here stays in it, with the same node_id and http_port,
# and the plan after apply is empty. The node has no other WAS server; on a node with
# servers that other configurations manage, filter that second map (an if on server_id).
# The example of apm_registerable_servers shows the same.
data "apm_was_servers" "app" {
  system_name = var.system_name
  node_name   = var.node_name
}

resource "apm_was_server" "registered" {
  for_each = merge(
    { for s in data.apm_was_servers.app.servers : s.server_id => s },
    { for s in var.registerable : s.server_id => s },
  )

  mode      = "register"
  node_id   = each.value.node_id
  server_id = each.key
  http_port = each.value.http_port
}
