variable "system_name" { type = string }
variable "datasource_name" { type = string }

resource "apm_system" "shop" {
  name = var.system_name
}

resource "apm_node" "app" {
  system_id  = apm_system.shop.id
  name       = "app-01"
  host_ip    = "10.0.0.21"
  agent_port = 7730
}

resource "apm_was_server" "a" {
  node_id   = apm_node.app.id
  server_id = "was-1"
  mode      = "install"
  http_port = 8080
}

resource "apm_was_datasource" "d" {
  was_server_id   = apm_was_server.a.id
  datasource_name = var.datasource_name
}
