# The WAS servers that node app-01 has but the manager does not manage yet, sorted by
# server id. kind is "was", "web" or "session"; each kind fills only some attributes
# (WAS: server_ip, server_type, http_port, ajp_port; web: server_ip, http_port,
# https_port; session: server_home, status), the others are empty or 0.
data "apm_registerable_servers" "app" {
  kind        = "was"
  system_name = "shop-prod"
  node_name   = "app-01"
}

# The WAS servers already registered on that node.
data "apm_was_servers" "app" {
  system_name = "shop-prod"
  node_name   = "app-01"
}

# Register every registerable WAS server of the node. node_id of an entry is the node's id,
# as apm_was_server takes it.
#
# Registering takes a server off the registerable list. A for_each over that list alone
# would read an empty list in the next plan and deregister what this apply registered
# (and the apply after would register it again). The servers of the node that are already
# registered are therefore merged in: once registered, a server stays in the map with the
# same node_id and http_port, and the plan after apply is empty. This takes every WAS
# server of the node, so use it on a node whose WAS servers this configuration manages;
# otherwise filter the first map (an `if` on s.server_id).
resource "apm_was_server" "registered" {
  for_each = merge(
    { for s in data.apm_was_servers.app.servers : s.server_id => s },
    { for s in data.apm_registerable_servers.app.servers : s.server_id => s },
  )

  mode      = "register"
  node_id   = each.value.node_id
  server_id = each.key
  http_port = each.value.http_port
}
