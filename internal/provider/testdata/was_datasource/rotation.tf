# include: _base/shop_app.tf

variable "database_name" { type = string }
variable "datasource_name" { type = string }
variable "password" { type = string }
variable "password_wo" { type = string }
variable "password_wo_version" { type = number }
variable "database_id" { type = string }
variable "attached_name" { type = string }

# A database password rotation with a datasource attached to a WAS server: the datasource
# names its database by database_id, and the attachment names the datasource by
# attached_name, each either as a literal or as a reference. The optional variables may
# be null, which leaves their argument out.

resource "apm_was_server" "a" {
  node_id   = apm_node.app.id
  server_id = "was-1"
  mode      = "install"
  http_port = 8080
}

resource "apm_database" "db" {
  resource_name       = var.database_name
  database_type       = "PostgreSQL"
  host                = "10.0.2.15"
  port                = 5432
  database_name       = "orders"
  user_name           = "orders_app"
  password            = var.password
  password_wo         = var.password_wo
  password_wo_version = var.password_wo_version
  # Short, so that a delete that waits for what still holds the object fails the test
  # quickly rather than after the default 5 minutes.
  timeouts = { delete = "20s" }
}

resource "apm_datasource" "ds" {
  resource_name = var.datasource_name
  database_id   = var.database_id
  min_pool_size = 2
  max_pool_size = 20
  timeouts      = { delete = "20s" }
  # Orders the first create when database_id is a literal; it does not make Terraform
  # replace the datasource with the database.
  depends_on = [apm_database.db]
}

resource "apm_was_datasource" "d" {
  was_server_id   = apm_was_server.a.id
  datasource_name = var.attached_name
  depends_on      = [apm_datasource.ds]
}
