# The current traffic of a web server.
data "apm_web_server_metrics" "web01" {
  system_name = "shop"
  node_name   = "web-01"
  server_id   = "web-01"
}

output "web01_requests_per_sec" {
  value = data.apm_web_server_metrics.web01.requests_per_sec
}

output "web01_connections" {
  value = data.apm_web_server_metrics.web01.connections
}
