resource "apm_system" "example" {
  name = "shop-prod"
}

# A node is a host running the APM agent. It refers to its system by the system's id, which
# stays the same when the system is renamed, so a rename leaves the node alone.
# Changing system_id or name replaces the node; host_ip and agent_port are updated in place.
resource "apm_node" "example" {
  system_id  = apm_system.example.id
  name       = "web-01"
  host_ip    = "10.0.0.11"
  agent_port = 7730
}

output "node_id" {
  value = apm_node.example.node_id # the manager's nodeId
}

# The node's status is not an attribute of the resource: read it with the apm_node or apm_nodes data source.
