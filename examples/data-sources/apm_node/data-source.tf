# One node, with the servers running on it.
data "apm_node" "web" {
  system_name = "shop-prod"
  name        = "web-01"
}

output "web_status" {
  value = data.apm_node.web.status
}
