# All systems known to the APM manager, with their node and server counts.
data "apm_systems" "all" {}

output "system_node_counts" {
  value = { for s in data.apm_systems.all.systems : s.name => s.node_count }
}
