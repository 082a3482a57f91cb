# The public node list, served without an API key: every node with its connection status.
# The manager documents it as test data; use apm_nodes for real data.
data "apm_public_nodes" "all" {}

output "connected_nodes" {
  value = [for n in data.apm_public_nodes.all.nodes : "${n.system_name}/${n.name}" if n.connection_status == "connected"]
}
