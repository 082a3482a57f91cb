# All systems known to the APM manager.
data "apm_systems" "all" {}

output "system_names" {
  value = [for s in data.apm_systems.all.systems : s.name]
}
