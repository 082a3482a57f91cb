output "system_id" {
  description = "The manager's id of the system; the nodes refer to the system by it."
  value       = apm_system.shop.id
}

output "system_name" {
  description = "Current name of the system (the manager's API addresses the system by it)."
  value       = apm_system.shop.name
}

output "node_ids" {
  description = "The manager's node id of each node."
  value       = { for name, node in apm_node.web : name => node.node_id }
}

output "node_status" {
  description = "The status the manager reports for each node (from the apm_nodes data source)."
  value       = { for node in data.apm_nodes.shop.nodes : node.name => node.status }
}

output "node_count" {
  description = "Number of nodes in the system, as counted by the manager."
  value       = data.apm_system.shop.node_count
}
