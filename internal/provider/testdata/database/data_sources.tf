# Reads apm_database.db, declared with it.
data "apm_database" "db" {
  resource_name = apm_database.db.resource_name
}

data "apm_databases" "all" {
  depends_on = [apm_database.db]
}
