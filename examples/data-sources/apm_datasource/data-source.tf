# One datasource, looked up by name, with its pool settings.
data "apm_datasource" "orders" {
  resource_name = "orders-ds"
}

output "orders_pool" {
  value = {
    min     = data.apm_datasource.orders.min_pool_size
    max     = data.apm_datasource.orders.max_pool_size
    initial = data.apm_datasource.orders.initial_pool_size
    wait_ms = data.apm_datasource.orders.max_wait
  }
}
