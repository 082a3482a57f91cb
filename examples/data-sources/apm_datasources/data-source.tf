# All datasources of the manager, with their database and pool sizes.
data "apm_datasources" "all" {}

output "datasources_by_database" {
  value = { for d in data.apm_datasources.all.datasources : d.resource_name => d.database_id }
}
