# Redeploys the shop application across the cluster one server at a time: each server is
# drained from both web servers, the application undeployed and deployed again from
# source_path, waited for until it runs, and the server put back before the next goes.
# Run it with: terraform apply -invoke=action.apm_was_application_rolling_redeploy.shop
action "apm_was_application_rolling_redeploy" "shop" {
  config {
    was_server_ids   = [for s in apm_was_server.cluster : s.id]
    context_path     = "/shop"
    source_path      = "/opt/releases/shop-1.1.war"
    application_name = "shop"
  }
}

# What the roll acts on: four WAS servers behind two web servers, declared as in the
# resources' examples.
resource "apm_system" "example" {
  name = "shop-prod"
}

resource "apm_node" "app" {
  system_id  = apm_system.example.id
  name       = "app-01"
  host_ip    = "10.0.0.21"
  agent_port = 7730
}

resource "apm_was_server" "cluster" {
  for_each  = toset(["was-1", "was-2", "was-3", "was-4"])
  node_id   = apm_node.app.id
  server_id = each.key
  mode      = "install"
  http_port = 8080 + index(["was-1", "was-2", "was-3", "was-4"], each.key)
  ajp_port  = 8009 + index(["was-1", "was-2", "was-3", "was-4"], each.key)
  state     = "running"
}

resource "apm_was_application" "shop" {
  for_each         = apm_was_server.cluster
  was_server_id    = each.value.id
  context_path     = "/shop"
  source_path      = "/opt/releases/shop-1.0.war"
  application_name = "shop"
}

resource "apm_web_server" "front" {
  for_each  = toset(["web-1", "web-2"])
  node_id   = apm_node.app.id
  server_id = each.key
  mode      = "install"
  http_port = each.key == "web-1" ? 80 : 81
  state     = "running"
}

resource "apm_web_workers" "front" {
  for_each      = apm_web_server.front
  web_server_id = each.value.id
  workers       = { for s in apm_was_server.cluster : s.id => {} }
}
