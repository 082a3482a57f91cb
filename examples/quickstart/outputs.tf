output "system_id" {
  description = "The manager's id of the system."
  value       = apm_system.shop.id
}

output "system_name" {
  description = "Name of the system, as the nodes reference it."
  value       = apm_system.shop.name
}

output "node_ids" {
  description = "The manager's node id of each node."
  value       = { for name, node in apm_node.web : name => node.node_id }
}

output "node_status" {
  description = "The status the manager reports for each node."
  value       = { for name, node in apm_node.web : name => node.status }
}

output "node_count" {
  description = "Number of nodes in the system, as counted by the manager."
  value       = data.apm_system.shop.node_count
}
