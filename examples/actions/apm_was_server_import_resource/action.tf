# Imports the JMS resource "jms/orders", registered in the manager, into the WAS server.
# Run it with: terraform apply -invoke=action.apm_was_server_import_resource.orders_queue
action "apm_was_server_import_resource" "orders_queue" {
  config {
    server_id     = apm_was_server.example.id
    resource_type = "jms"
    resource_name = "jms/orders"
  }
}
