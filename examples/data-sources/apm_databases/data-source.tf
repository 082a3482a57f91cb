# All database resources of the manager, without their passwords or user names.
data "apm_databases" "all" {}

output "database_hosts" {
  value = { for d in data.apm_databases.all.databases : d.resource_name => "${d.host}:${d.port}" }
}
