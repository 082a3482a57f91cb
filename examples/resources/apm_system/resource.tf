# A system groups the nodes of one application landscape. Changing name renames it in place;
# its id stays the same, and nodes refer to it by that id.
resource "apm_system" "example" {
  name = "shop-prod"

  # Optional: destroying a system waits while nodes remain in it (they are usually being
  # destroyed by the same apply). Default 10m.
  timeouts = {
    delete = "10m"
  }
}

output "system_id" {
  value = apm_system.example.id
}
