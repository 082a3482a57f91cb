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

# Deploys the archive, which must already be on the server's node, under /shop.
# The deployment is managed: an application undeployed outside Terraform is deployed
# again by the next apply. Its status and session count are not: read them with the
# apm_was_applications data source.
resource "apm_was_application" "shop" {
  was_server_id = apm_was_server.example.id
  context_path  = "/shop"
  source_path   = "/opt/releases/shop-2.4.1.war"

  # Optional; the manager picks one when it is left out.
  application_name = "shop"
}

# A new release is a new source_path: apply undeploys the old archive and deploys the new one.
