# The current metrics of one node, with those of its WAS and web servers.
data "apm_node_metrics" "web01" {
  system_name     = "shop"
  node_name       = "web-01"
  include_servers = true # fills was_servers and web_servers (one request)
}

output "web01_cpu_percent" {
  value = data.apm_node_metrics.web01.cpu
}

output "web01_network_in_bytes_per_sec" {
  value = data.apm_node_metrics.web01.network_in
}

# Heap use of each WAS server, in percent of its maximum.
output "web01_heap_percent" {
  value = {
    for s in data.apm_node_metrics.web01.was_servers :
    s.server_id => s.heap_max > 0 ? 100 * s.heap_used / s.heap_max : 0
  }
}
