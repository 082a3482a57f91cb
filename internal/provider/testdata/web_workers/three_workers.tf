variable "system_name" { type = string }
variable "lb_factor_2" { type = number }

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

# was-1 with the manager's defaults, was-2 weighed, was-3 through another address.
resource "apm_web_workers" "w" {
  web_server_id = apm_web_server.w.id
  workers = {
    (apm_was_server.was[0].id) = {}
    (apm_was_server.was[1].id) = { lb_factor = var.lb_factor_2 }
    (apm_was_server.was[2].id) = { host = "10.0.0.99" }
  }
}
