resource "apm_system" "example" {
  name = "shop-prod"
}

resource "apm_node" "app" {
  system_id  = apm_system.example.id
  name       = "app-01"
  host_ip    = "10.0.0.21"
  agent_port = 7730
}

resource "apm_was_server" "example" {
  node_id   = apm_node.app.id
  server_id = "was-1"
  mode      = "install"
  http_port = 8080
}

# Attaches the manager's datasource "orders-ds" (which must exist) to the server, so that
# the server's applications can use its connection pool. Destroying it only detaches the
# datasource. Each attachment is a resource of its own: the team that owns an application
# can attach what it needs without owning the server. When the datasource is managed in
# the same configuration, name it by apm_datasource.<name>.id instead, so that the plan of
# a database password rotation shows the attachment replaced with it (guide "Rotating
# passwords").
resource "apm_was_datasource" "orders" {
  was_server_id   = apm_was_server.example.id
  datasource_name = "orders-ds"
}
