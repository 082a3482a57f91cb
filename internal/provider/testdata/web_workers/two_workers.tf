# include: _base/web_and_three_was.tf

variable "first" { type = string }
variable "second" { type = string }
variable "second_host" { type = string }
variable "second_lb_factor" { type = number }

locals {
  was_ids = { for s in apm_was_server.was : s.server_id => s.id }
}

# Keyed by WAS server id. The first worker takes the manager's defaults; the second may set
# its own.
resource "apm_web_workers" "w" {
  web_server_id = apm_web_server.w.id
  workers = {
    (local.was_ids[var.first])  = {}
    (local.was_ids[var.second]) = { host = var.second_host, lb_factor = var.second_lb_factor }
  }
}
