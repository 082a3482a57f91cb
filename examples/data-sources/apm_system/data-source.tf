# One system, looked up by name, with its counts and nodes.
data "apm_system" "shop" {
  name = "shop-prod"
}

output "shop_node_count" {
  value = data.apm_system.shop.node_count
}
