# Every web server of the manager, sorted by system, node and server id.
data "apm_web_servers" "all" {}

# Only the web servers of one system.
data "apm_web_servers" "shop" {
  system_name = "shop-prod"
}

output "stopped_web_servers" {
  value = [for s in data.apm_web_servers.shop.servers : s.id if s.status == "stopped"]
}
