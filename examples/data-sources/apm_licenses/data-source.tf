# The licenses of all nodes, with the days left until each expires (counted from today in
# the provider's time_zone; negative once expired).
data "apm_licenses" "all" {}

check "licenses_not_expiring" {
  assert {
    condition = alltrue([for l in data.apm_licenses.all.licenses : l.days_until_expiry >= 30])
    error_message = join(", ", [
      for l in data.apm_licenses.all.licenses : "${l.node_name} (${l.license_type}, ${l.days_until_expiry} days)"
      if l.days_until_expiry < 30
    ])
  }
}
