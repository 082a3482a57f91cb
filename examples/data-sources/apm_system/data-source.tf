# One system, looked up by name, with its id, node count and nodes.
data "apm_system" "shop" {
  name = "shop-prod"
}

output "shop_system_id" {
  value = data.apm_system.shop.id
}

output "shop_node_count" {
  value = data.apm_system.shop.node_count
}
