# Topology: a web server balancing over two WAS servers that share their HTTP sessions
# through two session servers, each WAS server with a datasource and the shop application.
#
#   web-01:  apm_web_server "web-1" --workers--> was-1 (app-01), was-2 (app-02)
#   app-01:  apm_was_server "was-1", apm_session_server "session-1" (primary)
#   app-02:  apm_was_server "was-2", apm_session_server "session-2" (secondary)
#
# Connection settings come from the environment (APM_ENDPOINT, APM_API_KEY,
# APM_CA_CERT_PEM), as in examples/quickstart. `make demo` applies this configuration,
# stops was-1 behind Terraform's back, shows the drift in a plan, and repairs it.

terraform {
  required_version = ">= 1.5.0"

  required_providers {
    apm = {
      source = "apmplatform/apm"
    }
  }
}

provider "apm" {}

resource "apm_system" "shop" {
  name = var.system_name
}

resource "apm_node" "this" {
  for_each = var.nodes

  system_id  = apm_system.shop.id
  name       = each.key
  host_ip    = each.value
  agent_port = 7730
}

locals {
  # Which node each WAS server and each session server runs on.
  was_nodes     = { "was-1" = "app-01", "was-2" = "app-02" }
  session_nodes = { "session-1" = "app-01", "session-2" = "app-02" }
}

resource "apm_session_server" "this" {
  for_each = local.session_nodes

  node_id     = apm_node.this[each.value].id
  server_id   = each.key
  mode        = "install"
  server_port = var.session_port
  state       = "running"
}

resource "apm_was_server" "this" {
  for_each = local.was_nodes

  # The node's id (<system_id>/<node>): renaming the system leaves the servers alone.
  node_id   = apm_node.this[each.value].id
  server_id = each.key
  mode      = "install"
  http_port = 8080
  ajp_port  = 8009
  java_home = "/usr/lib/jvm/java-17"

  # Apply starts the server and waits until the manager reports it running; a server
  # stopped outside Terraform shows in the next plan, and apply starts it again.
  state = "running"

  timeouts = {
    create = "10m"
  }
}

# Each part is its own resource, so that the team owning the application can manage the
# deployment without owning the server.
resource "apm_was_session_cluster" "this" {
  for_each = apm_was_server.this

  was_server_id  = each.value.id
  primary_host   = var.nodes["app-01"]
  primary_port   = apm_session_server.this["session-1"].server_port
  secondary_host = var.nodes["app-02"]
  secondary_port = apm_session_server.this["session-2"].server_port
}

resource "apm_was_datasource" "orders" {
  for_each = apm_was_server.this

  was_server_id   = each.value.id
  datasource_name = var.datasource_name
}

resource "apm_was_application" "shop" {
  for_each = apm_was_server.this

  was_server_id = each.value.id
  context_path  = "/shop"
  source_path   = "/opt/apps/shop.war"
}

resource "apm_web_server" "front" {
  node_id   = apm_node.this["web-01"].id
  server_id = "web-1"
  mode      = "install"
  http_port = 80
  state     = "running"
}

# All the workers, keyed by WAS server id: a worker added outside Terraform shows as drift.
resource "apm_web_workers" "front" {
  web_server_id = apm_web_server.front.id

  workers = { for s in apm_was_server.this : s.id => { lb_factor = 1 } }
}

resource "apm_web_uri_patterns" "front" {
  web_server_id = apm_web_server.front.id
  patterns      = ["/shop/*", "/api/*"]
}
