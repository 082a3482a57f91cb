# One node, with its status and the servers running on it.
data "apm_node" "web" {
  system_name = "shop-prod"
  name        = "web-01"
}

output "web_status" {
  value = data.apm_node.web.status
}

output "web_servers" {
  value = [for s in data.apm_node.web.servers : "${s.server_id} (${s.server_type}): ${s.status}"]
}
