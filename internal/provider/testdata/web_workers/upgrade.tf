# The workers of TestAccWebWorkers_stateOfTheListBuild: written as a list of objects for the
# build before workers became a map, then as the map.

variable "workers" { type = any }

resource "apm_system" "shop" {
  name = "shop"
}

resource "apm_node" "app" {
  system_id  = apm_system.shop.id
  name       = "app-01"
  host_ip    = "10.0.0.21"
  agent_port = 7730
}

resource "apm_web_server" "front" {
  node_id   = apm_node.app.id
  server_id = "web-1"
  mode      = "install"
  http_port = 80
}

resource "apm_was_server" "a" {
  node_id   = apm_node.app.id
  server_id = "was-1"
  mode      = "install"
  http_port = 8080
  ajp_port  = 8009
}

resource "apm_was_server" "b" {
  node_id   = apm_node.app.id
  server_id = "was-2"
  mode      = "install"
  http_port = 8081
  ajp_port  = 8010
}

resource "apm_web_workers" "front" {
  web_server_id = apm_web_server.front.id
  workers       = var.workers
}
