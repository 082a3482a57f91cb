# Topology: a web server balancing over three WAS servers that share their HTTP sessions
# through two session servers, each WAS server with the shop application and the datasource
# orders-ds, a connection pool on the database orders-db, both managed here.
#
#   web-01:  apm_web_server "web-1" --workers--> was-1, was-2, was-3
#   app-01:  apm_was_server "was-1", apm_session_server "session-1" (primary)
#   app-02:  apm_was_server "was-2", apm_session_server "session-2" (secondary)
#   app-03:  apm_was_server "was-3"
#   apm_database "orders-db" <- apm_datasource "orders-ds" <- attached to each WAS server
#   apm_web_ssl: HTTPS on web-1 with the certificate and key in var.tls_dir
#   apm_role "shop-operators" granted (apm_user_role) to apm_user "shop-operator"
#
# Day two (day-two.tfvars, one apply): was-2 goes (scale-in: the server and its worker),
# was-3 is replaced by an Enterprise edition, and the database password is rotated.
#
# The passwords and the TLS key are write-only (Terraform 1.11 or later, or OpenTofu): give
# the passwords as TF_VAR_database_password and TF_VAR_operator_password, and put web-1.crt
# and web-1.key (PEM) in var.tls_dir; for a test set-up, a self-signed pair is made by
#   mkdir tls && openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
#     -subj /CN=web-1 -days 365 -keyout tls/web-1.key -out tls/web-1.crt
# Connection settings come from the environment (APM_ENDPOINT, APM_API_KEY,
# APM_CA_CERT_PEM), as in examples/quickstart. `make demo` applies this
# configuration, stops was-1 behind Terraform's back, shows the drift in a plan and repairs
# it, then applies day-two.tfvars.

terraform {
  required_version = ">= 1.11.0"

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
  # Which node each session server runs on.
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

# One per entry of var.was_servers: removing an entry removes the server and its worker
# in one apply (the delete takes the server out of the web server's workers first);
# changing its node or edition replaces it, and its parts with it.
resource "apm_was_server" "this" {
  for_each = var.was_servers

  # The node's id (<system_id>/<node>): renaming the system leaves the servers alone.
  node_id     = apm_node.this[each.value.node].id
  server_id   = each.key
  mode        = "install"
  server_type = each.value.server_type
  http_port   = 8080
  ajp_port    = 8009
  java_home   = "/usr/lib/jvm/java-17"

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

# The manager cannot change a database: a new database_password_version replaces it, and
# with it the datasource and the attachments below, in one apply (guide "Rotating passwords").
resource "apm_database" "orders" {
  resource_name       = var.database_resource_name
  database_type       = "PostgreSQL"
  host                = "10.0.1.30"
  port                = 5432
  database_name       = "orders"
  user_name           = "shop"
  password_wo         = var.database_password
  password_wo_version = var.database_password_version
}

# By the database's id: Terraform replaces the datasource with the database.
resource "apm_datasource" "orders" {
  resource_name = var.datasource_name
  database_id   = apm_database.orders.id
  min_pool_size = 2
  max_pool_size = 20
}

# Attached to each WAS server by the datasource's name, its id: Terraform replaces the
# attachments with the datasource, so the plan of a rotation shows every change.
resource "apm_was_datasource" "orders" {
  for_each = apm_was_server.this

  was_server_id   = each.value.id
  datasource_name = apm_datasource.orders.id
}

resource "apm_was_application" "shop" {
  for_each = apm_was_server.this

  was_server_id = each.value.id
  context_path  = "/shop"
  source_path   = "/opt/apps/shop.war"
}

resource "apm_web_server" "front" {
  node_id    = apm_node.this["web-01"].id
  server_id  = "web-1"
  mode       = "install"
  http_port  = 80
  https_port = 443
  state      = "running"
}

# HTTPS on the web server. The key is write-only: it is sent to the manager and stored in
# neither the plan nor the state; raise tls_key_version with a new key to send it again.
resource "apm_web_ssl" "front" {
  web_server_id = apm_web_server.front.id
  # The web server's port, by reference, so that the two resources never undo each other.
  https_port                 = apm_web_server.front.https_port
  certificate_pem            = file("${var.tls_dir}/web-1.crt")
  private_key_pem_wo         = file("${var.tls_dir}/web-1.key")
  private_key_pem_wo_version = var.tls_key_version
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

# Who may operate the shop: a role that reads and starts or stops servers, granted to one
# user. Other roles of the user, granted elsewhere, are left alone.
resource "apm_role" "operators" {
  role_id      = var.operator_role_id
  name         = "Shop operators"
  action_types = ["READ", "EXECUTE"]
  description  = "Read everything, start and stop the shop's servers."
}

resource "apm_user" "operator" {
  user_id             = var.operator_user_id
  user_name           = "Shop operator"
  password_wo         = var.operator_password
  password_wo_version = var.operator_password_version
}

resource "apm_user_role" "operator" {
  user_id = apm_user.operator.id
  role_id = apm_role.operators.id
}
