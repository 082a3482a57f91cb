# include: _base/web_and_three_was.tf

variable "lb_factor_2" { type = number }

# was-1 with the manager's defaults, was-2 weighed, was-3 through another address.
resource "apm_web_workers" "w" {
  web_server_id = apm_web_server.w.id
  workers = {
    (apm_was_server.was[0].id) = {}
    (apm_was_server.was[1].id) = { lb_factor = var.lb_factor_2 }
    (apm_was_server.was[2].id) = { host = "10.0.0.99" }
  }
}
