variable "system_name" { type = string }
variable "was_ajp_port" { type = number }

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

# was-1, with no AJP port while was_ajp_port is null.
resource "apm_was_server" "a" {
  node_id   = apm_node.app.id
  server_id = "was-1"
  mode      = "install"
  http_port = 8081
  ajp_port  = var.was_ajp_port
}
