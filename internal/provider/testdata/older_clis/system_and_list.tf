variable "name" { type = string }

# A managed object and the list data source that discovers it: what a CLI without list
# resources and actions uses instead of them.
resource "apm_system" "test" {
  name = var.name
}

data "apm_systems" "all" {
  depends_on = [apm_system.test]
}

output "discovered" {
  value = contains([for s in data.apm_systems.all.systems : s.name], apm_system.test.name)
}
