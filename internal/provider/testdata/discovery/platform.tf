variable "system_name" { type = string }
variable "database_name" { type = string }
variable "orders_ds" { type = string }
variable "billing_ds" { type = string }
variable "alice" { type = string }
variable "bob" { type = string }
variable "viewers" { type = string }
variable "operators" { type = string }
variable "certificate_pem" { type = string }
variable "private_key_pem" { type = string }

# A platform with one object of every managed type (two where a list sorts them), a WAS
# server and a web server without parts, and a user without roles: what
# discovery/lists.tf lists.

resource "apm_system" "shop" {
  name = var.system_name
}

resource "apm_node" "app" {
  system_id  = apm_system.shop.id
  name       = "app-01"
  host_ip    = "10.0.0.21"
  agent_port = 7730
}

resource "apm_was_server" "a" {
  node_id   = apm_node.app.id
  server_id = "was-1"
  mode      = "install"
  http_port = 8080
  ajp_port  = 8009
  state     = "stopped"
}

resource "apm_was_server" "bare" {
  node_id   = apm_node.app.id
  server_id = "was-2"
  mode      = "install"
  http_port = 8081
  ajp_port  = 8010
}

resource "apm_web_server" "w" {
  node_id    = apm_node.app.id
  server_id  = "web-1"
  mode       = "install"
  http_port  = 80
  https_port = 8443
  state      = "stopped"
}

resource "apm_web_server" "bare" {
  node_id   = apm_node.app.id
  server_id = "web-2"
  mode      = "install"
  http_port = 81
}

resource "apm_session_server" "s" {
  node_id     = apm_node.app.id
  server_id   = "session-1"
  mode        = "install"
  server_port = 15201
  state       = "stopped"
}

resource "apm_database" "db" {
  resource_name = var.database_name
  database_type = "PostgreSQL"
  host          = "10.0.0.41"
  port          = 5432
  database_name = "orders"
  user_name     = "orders_app"
  password      = "db-Passw0rd!"
}

resource "apm_datasource" "orders" {
  resource_name = var.orders_ds
  database_id   = apm_database.db.id
}

resource "apm_datasource" "billing" {
  resource_name = var.billing_ds
  database_id   = apm_database.db.id
}

resource "apm_was_datasource" "orders" {
  was_server_id   = apm_was_server.a.id
  datasource_name = apm_datasource.orders.id
}

resource "apm_was_datasource" "billing" {
  was_server_id   = apm_was_server.a.id
  datasource_name = apm_datasource.billing.id
}

resource "apm_was_session_cluster" "c" {
  was_server_id = apm_was_server.a.id
  primary_host  = "10.0.0.31"
  primary_port  = 15201
}

resource "apm_was_application" "shop" {
  was_server_id = apm_was_server.a.id
  context_path  = "/shop"
  source_path   = "/opt/releases/shop-1.0.war"
}

resource "apm_was_application" "api" {
  was_server_id = apm_was_server.a.id
  context_path  = "/api"
  source_path   = "/opt/releases/api-1.0.war"
}

resource "apm_web_workers" "w" {
  web_server_id = apm_web_server.w.id
  workers = {
    (apm_was_server.a.id) = { lb_factor = 2 }
  }
}

resource "apm_web_uri_patterns" "u" {
  web_server_id = apm_web_server.w.id
  patterns      = ["/shop/*", "/api/*"]
}

resource "apm_web_ssl" "s" {
  web_server_id   = apm_web_server.w.id
  https_port      = apm_web_server.w.https_port
  certificate_pem = var.certificate_pem
  private_key_pem = var.private_key_pem
}

resource "apm_role" "viewers" {
  role_id      = var.viewers
  name         = "Viewers"
  action_types = ["READ"]
  description  = "Read the platform"
}

resource "apm_role" "operators" {
  role_id      = var.operators
  name         = "Operators"
  action_types = ["READ", "EXECUTE"]
  description  = "Start and stop servers"
}

resource "apm_user" "alice" {
  user_id   = var.alice
  user_name = "Alice"
  password  = "alice-Passw0rd!"
}

resource "apm_user" "bob" {
  user_id   = var.bob
  user_name = "Bob"
  password  = "bob-Passw0rd!"
}

resource "apm_user_role" "alice_viewers" {
  user_id = apm_user.alice.id
  role_id = apm_role.viewers.id
}

resource "apm_user_role" "alice_operators" {
  user_id = apm_user.alice.id
  role_id = apm_role.operators.id
}
