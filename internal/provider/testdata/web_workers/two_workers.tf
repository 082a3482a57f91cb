variable "system_name" { type = string }
variable "first" { type = string }
variable "second" { type = string }
variable "second_host" { type = string }
variable "second_lb_factor" { type = number }

resource "apm_system" "shop" {
  name = var.system_name
}

resource "apm_node" "app" {
  system_id  = apm_system.shop.id
  name       = "app-01"
  host_ip    = "10.0.0.21"
  agent_port = 7730
}

resource "apm_web_server" "w" {
  node_id   = apm_node.app.id
  server_id = "web-1"
  mode      = "install"
  http_port = 80
}

# was-1 to was-3 (was[0] to was[2]) for the workers: HTTP 8080+n, AJP 8008+n.
resource "apm_was_server" "was" {
  count     = 3
  node_id   = apm_node.app.id
  server_id = "was-${count.index + 1}"
  mode      = "install"
  http_port = 8081 + count.index
  ajp_port  = 8009 + count.index
}

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
