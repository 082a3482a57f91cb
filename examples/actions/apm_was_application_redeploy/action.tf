# Undeploys the application and deploys its archive again, without replacing the
# apm_was_application resource, then waits until it runs. The manager does not report
# the archive, so the action takes it from the resource's arguments.
# Run it with: terraform apply -invoke=action.apm_was_application_redeploy.shop
action "apm_was_application_redeploy" "shop" {
  config {
    application_id   = apm_was_application.shop.id
    source_path      = apm_was_application.shop.source_path
    application_name = apm_was_application.shop.application_name
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

resource "apm_was_application" "shop" {
  was_server_id    = apm_was_server.example.id
  context_path     = "/shop"
  source_path      = "/opt/releases/shop-1.0.war"
  application_name = "shop"
}
