# The WAS servers of the container groups, sorted by server id.
data "apm_container_servers" "was" {
  kind = "was" # or "web"
}

output "was_container_endpoints" {
  value = { for s in data.apm_container_servers.was.servers : s.server_name => "${s.container_ip}:${s.http_port}" }
}
