# One database resource, looked up by name. The manager never reports its password.
data "apm_database" "orders" {
  resource_name = "orders-db"
}

output "orders_db" {
  value = "${data.apm_database.orders.database_type} ${data.apm_database.orders.user_name}@${data.apm_database.orders.host}:${data.apm_database.orders.port}/${data.apm_database.orders.database_name}"
}
