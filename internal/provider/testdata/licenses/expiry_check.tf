# Reads data.apm_licenses.all, declared with it.
output "expired" {
  value = length([for l in data.apm_licenses.all.licenses : l if l.days_until_expiry < 0])
}

check "licenses" {
  assert {
    condition     = alltrue([for l in data.apm_licenses.all.licenses : l.days_until_expiry >= -3650])
    error_message = "a license expired long ago"
  }
}
