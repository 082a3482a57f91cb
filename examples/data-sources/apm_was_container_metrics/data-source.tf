# The current metrics of every WAS container: a container's host name is the
# server_name of its server in apm_container_servers.
data "apm_container_servers" "was" {
  kind = "was"
}

data "apm_was_container_metrics" "each" {
  for_each  = toset([for s in data.apm_container_servers.was.servers : s.server_name])
  host_name = each.key
}

output "was_container_cpu_percent" {
  value = { for host, m in data.apm_was_container_metrics.each : host => m.cpu }
}
