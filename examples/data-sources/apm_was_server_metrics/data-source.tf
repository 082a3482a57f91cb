# The current JVM metrics of a WAS server.
data "apm_was_server_metrics" "was01" {
  system_name = "shop"
  node_name   = "web-01"
  server_id   = "was-01"
}

output "was01_heap_used_mb" {
  value = data.apm_was_server_metrics.was01.heap_used
}

output "was01_gc_time_ms_last_minute" {
  value = data.apm_was_server_metrics.was01.gc_time
}
