variable "name" { type = string }
variable "host" { type = string }
variable "password" { type = string }
variable "password_wo" { type = string }
variable "password_wo_version" { type = number }
variable "timeouts" { type = object({ delete = string }) }

# The optional variables may be null, which leaves their argument out.
resource "apm_database" "db" {
  resource_name       = var.name
  database_type       = "PostgreSQL"
  port                = 5432
  database_name       = "orders"
  user_name           = "orders_app"
  host                = var.host
  password            = var.password
  password_wo         = var.password_wo
  password_wo_version = var.password_wo_version
  timeouts            = var.timeouts
}
