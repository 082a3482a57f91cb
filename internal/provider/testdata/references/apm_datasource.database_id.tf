# A datasource on a database that the manager does not have.
resource "apm_datasource" "d" {
  resource_name = "orders-ds"
  database_id   = "nosuch-db"
}
