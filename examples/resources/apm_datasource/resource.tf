variable "orders_db_password" {
  description = "Password of the database user orders_app."
  type        = string
  sensitive   = true
}

resource "apm_database" "orders" {
  resource_name       = "orders-db"
  database_type       = "MySQL"
  host                = "10.0.2.15"
  port                = 3306
  database_name       = "orders"
  user_name           = "orders_app"
  password_wo         = var.orders_db_password
  password_wo_version = 1
}

# A connection pool on the database. The pool sizes are changed in place; a size left out
# takes the manager's default (min 1, max 10, initial = min, max_wait 30000 ms), which is
# recorded. The manager requires min_pool_size <= initial_pool_size <= max_pool_size.
resource "apm_datasource" "orders" {
  resource_name     = "orders-ds"
  database_id       = apm_database.orders.id
  min_pool_size     = 2
  max_pool_size     = 20
  initial_pool_size = 5
  max_wait          = 10000 # milliseconds
}
