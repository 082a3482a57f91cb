# The current metrics of every node, sorted by node name.
data "apm_nodes_metrics" "all" {}

# Nodes whose CPU usage (percent) is above 80.
output "busy_nodes" {
  value = [for n in data.apm_nodes_metrics.all.nodes : n.node_name if n.cpu > 80]
}

# Free memory of each node, in MB.
output "free_memory_mb" {
  value = { for n in data.apm_nodes_metrics.all.nodes : n.node_name => n.memory_total - n.memory_used }
}
