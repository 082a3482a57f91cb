resource "apm_system" "example" {
  name = "shop-prod"
}

# A node is a host running the APM agent. Changing system_name or name replaces the node;
# host_ip and agent_port are updated in place.
resource "apm_node" "example" {
  system_name = apm_system.example.name
  name        = "web-01"
  host_ip     = "10.0.0.11"
  agent_port  = 7730
}

output "node_status" {
  value = apm_node.example.status
}
