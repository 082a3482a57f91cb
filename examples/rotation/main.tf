# Password rotation (see the guide "Rotating passwords"): a database whose password is
# rotated by raising a version, the datasource on it, attached to a WAS server, and a user
# rotated the same way. Write-only passwords need Terraform 1.11 or later, or OpenTofu.
#
# Connection settings come from the environment (APM_ENDPOINT, APM_API_KEY,
# APM_CA_CERT_PEM), as in examples/quickstart.

terraform {
  required_version = ">= 1.11.0"

  required_providers {
    apm = {
      source = "apmplatform/apm"
    }
  }
}

provider "apm" {}

# The manager cannot change a database: a new password_wo_version replaces it.
resource "apm_database" "orders" {
  resource_name       = "orders-db"
  database_type       = "PostgreSQL"
  host                = "db.internal.example"
  port                = 5432
  database_name       = "orders"
  user_name           = "orders_app"
  password_wo         = var.orders_db_password
  password_wo_version = var.orders_db_password_version
}

# By the database's id: Terraform replaces the datasource with the database.
resource "apm_datasource" "orders" {
  resource_name = "orders-ds"
  database_id   = apm_database.orders.id
  min_pool_size = 2
  max_pool_size = 20
}

# By the datasource's id: Terraform replaces the attachment with the datasource, so the
# plan shows the server losing the datasource and getting it back.
resource "apm_was_datasource" "orders" {
  was_server_id   = var.was_server_id
  datasource_name = apm_datasource.orders.id
}

# A user's password is changed in place: a new password_wo_version sends it with one
# update, and the user keeps its roles.
resource "apm_user" "deployer" {
  user_id             = "deployer"
  user_name           = "Deployment pipeline"
  password_wo         = var.deployer_password
  password_wo_version = var.deployer_password_version
}
