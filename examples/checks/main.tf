# Health checks in the plan review: each check block reads the manager at plan time and
# warns (without failing the plan) when its condition does not hold, so that a pull
# request's plan shows an expiring license, a stopped server or a full disk next to the
# changes it reviews.
#
# Connection settings come from the environment (APM_ENDPOINT, APM_API_KEY,
# APM_CA_CERT_PEM), as in examples/quickstart.

terraform {
  required_version = ">= 1.5.0"

  required_providers {
    apm = {
      source = "apmplatform/apm"
    }
  }
}

provider "apm" {}

variable "license_warning_days" {
  description = "Warn about licenses that expire within this many days."
  type        = number
  default     = 30
}

variable "disk_limit_percent" {
  description = "Warn about nodes whose disk usage is above this percentage."
  type        = number
  default     = 90
}

check "licenses_valid_for_30_days" {
  data "apm_licenses" "all" {}

  assert {
    # days_until_expiry is negative once a license has expired.
    condition = alltrue([for l in data.apm_licenses.all.licenses : l.days_until_expiry >= var.license_warning_days])
    error_message = format("Licenses expiring within %d days: %s.", var.license_warning_days, join(", ", [
      for l in data.apm_licenses.all.licenses : "${l.node_name} (${l.license_type}, ${l.days_until_expiry} days)"
      if l.days_until_expiry < var.license_warning_days
    ]))
  }
}

check "was_servers_running" {
  data "apm_was_servers" "all" {}

  assert {
    condition = alltrue([for s in data.apm_was_servers.all.servers : s.status == "running"])
    error_message = format("WAS servers not running: %s.", join(", ", [
      for s in data.apm_was_servers.all.servers : "${s.system_name}/${s.node_name}/${s.server_id} (${s.status})" if s.status != "running"
    ]))
  }
}

check "node_disk_below_limit" {
  data "apm_nodes_metrics" "all" {}

  assert {
    condition = alltrue([for n in data.apm_nodes_metrics.all.nodes : n.disk_usage <= var.disk_limit_percent])
    error_message = format("Nodes above %d%% disk: %s.", var.disk_limit_percent, join(", ", [
      for n in data.apm_nodes_metrics.all.nodes : "${n.node_name} (${n.disk_usage}%)" if n.disk_usage > var.disk_limit_percent
    ]))
  }
}
