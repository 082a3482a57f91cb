# All nodes of every system.
data "apm_nodes" "all" {}

# Only the nodes of one system (an error if no system has that name).
data "apm_nodes" "shop" {
  system_name = "shop-prod"
}

output "shop_node_status" {
  value = { for n in data.apm_nodes.shop.nodes : n.name => n.status }
}
