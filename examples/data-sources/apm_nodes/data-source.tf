# All nodes of every system.
data "apm_nodes" "all" {}

# Only the nodes of one system.
data "apm_nodes" "shop" {
  system_name = "shop-prod"
}

output "shop_node_names" {
  value = [for n in data.apm_nodes.shop.nodes : n.name]
}
