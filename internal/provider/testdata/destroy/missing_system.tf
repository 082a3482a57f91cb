variable "other_name" { type = string }
variable "with_node" { type = bool }

# A system looked up by a name no system has, and, when with_node is set, a node to create
# in it.
data "apm_system" "other" {
  name = var.other_name
}

resource "apm_node" "batch" {
  count      = var.with_node ? 1 : 0
  system_id  = data.apm_system.other.id
  name       = "batch-01"
  host_ip    = "10.0.0.12"
  agent_port = 7730
}

output "other_id" {
  value = data.apm_system.other.id
}

# The nodes of that system: none.
data "apm_nodes" "other" {
  system_name = var.other_name
}

output "other_node_count" {
  value = length(data.apm_nodes.other.nodes)
}
