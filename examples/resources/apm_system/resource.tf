# A system groups the nodes of one application landscape.
resource "apm_system" "example" {
  name = "shop-prod"
}

output "system_id" {
  value = apm_system.example.id
}
