# Imports the JMS resource "jms/orders", registered in the manager, into the WAS server.
# Run it with: terraform apply -invoke=action.apm_was_server_import_resource.orders_queue
action "apm_was_server_import_resource" "orders_queue" {
  config {
    server_id     = apm_was_server.example.id
    resource_type = "jms"
    resource_name = "jms/orders"
  }
}

# What the action acts on, declared as in the resources' examples.
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
  state     = "running"
}
