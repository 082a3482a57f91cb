variable "orders_db_password" {
  description = "Password of the database user orders_app."
  type        = string
  sensitive   = true
  ephemeral   = true # Terraform 1.10 or later, OpenTofu 1.11 or later: never stored
}

# The manager cannot change a database: changing any attribute replaces it.
resource "apm_database" "orders" {
  resource_name = "orders-db"
  database_type = "PostgreSQL" # MySQL, Oracle, PostgreSQL, MariaDB, MSSQL or DB2
  host          = "db.internal.example"
  port          = 5432
  database_name = "orders"
  user_name     = "orders_app"

  # Recommended (Terraform 1.11 or later, OpenTofu): a write-only password is sent to the
  # manager and never stored in the plan or the state. Terraform cannot see it change:
  # bump the version to send it again, which replaces the database.
  password_wo         = var.orders_db_password
  password_wo_version = 1

  # With Terraform before 1.11, use the sensitive attribute instead (exactly one of the
  # two, and without `ephemeral` on the variable). It is hidden in the CLI's output but
  # stored in the state, so protect the state.
  # password = var.orders_db_password
}
