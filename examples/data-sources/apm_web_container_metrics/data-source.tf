# The current traffic of one web container, found by its host name (the server_name
# of its server in apm_container_servers).
data "apm_web_container_metrics" "web0" {
  host_name = "shop-web-0"
}

output "web0_bytes_out_per_sec" {
  value = data.apm_web_container_metrics.web0.bytes_out
}
