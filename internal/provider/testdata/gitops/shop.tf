# The configuration of the GitOps drift test, next to examples/checks (its check blocks and
# variables): a WAS server whose running state is managed, and a data source that is read in
# every plan. Connection settings come from the environment.
resource "apm_system" "shop" {
  name = "shop"
}

resource "apm_node" "app" {
  system_id  = apm_system.shop.id
  name       = "app-01"
  host_ip    = "10.0.0.21"
  agent_port = 7730
}

resource "apm_was_server" "app" {
  node_id   = apm_node.app.id
  server_id = "was-1"
  mode      = "install"
  http_port = 8080
  state     = "running"
}

data "apm_nodes" "shop" {
  system_name = apm_system.shop.name

  # Read after the node exists, so that the output is right from the first apply on.
  depends_on = [apm_node.app]
}

output "node_status" {
  value = { for n in data.apm_nodes.shop.nodes : n.name => n.status }
}
