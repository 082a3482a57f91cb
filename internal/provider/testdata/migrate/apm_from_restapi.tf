# The shop of restapi.tf managed by apm: a resource per object, and a moved block from each restapi_object.
variable "password" { type = string }

terraform {
  required_providers {
    apm = { source = var.apm_source }
    # Kept until the moves are applied: the CLI reads the moved objects' state with it.
    restapi = { source = "registry.terraform.io/mastercard/restapi" }
  }
}

resource "apm_system" "shop" {
  name = "shop"
}

resource "apm_node" "shop" {
  system_id  = apm_system.shop.id
  name       = "web-01"
  host_ip    = "10.0.0.1"
  agent_port = 7730
}

resource "apm_was_server" "shop" {
  node_id     = apm_node.shop.id
  server_id   = "was-1"
  mode        = "install"
  http_port   = 8080
  ajp_port    = 8009
  server_type = "Standard" # the restapi_object sent the manager's "S"
  state       = var.server_state
}

resource "apm_web_server" "shop" {
  node_id   = apm_node.shop.id
  server_id = "web-1"
  mode      = "install"
  http_port = 80
  state     = var.server_state
}

resource "apm_session_server" "shop" {
  node_id     = apm_node.shop.id
  server_id   = "session-1"
  mode        = "install"
  server_port = 5701
  state       = var.server_state
}

resource "apm_database" "shop" {
  resource_name = "shop-db"
  database_type = "PostgreSQL"
  host          = "db.example.com"
  port          = 5432
  database_name = "shop"
  user_name     = "app"
  password      = var.password
}

resource "apm_datasource" "shop" {
  resource_name = "shop-ds"
  database_id   = apm_database.shop.id
  min_pool_size = 2
  max_pool_size = 20
}

resource "apm_user" "alice" {
  user_id   = "alice"
  user_name = "Alice"
  password  = var.password
}

resource "apm_role" "shop" {
  role_id      = "shop-ops"
  name         = "Shop operators"
  action_types = ["READ", "EXECUTE"]
}

moved {
  from = restapi_object.system
  to   = apm_system.shop
}
moved {
  from = restapi_object.node
  to   = apm_node.shop
}
moved {
  from = restapi_object.was_server
  to   = apm_was_server.shop
}
moved {
  from = restapi_object.web_server
  to   = apm_web_server.shop
}
moved {
  from = restapi_object.session_server
  to   = apm_session_server.shop
}
moved {
  from = restapi_object.database
  to   = apm_database.shop
}
moved {
  from = restapi_object.datasource
  to   = apm_datasource.shop
}
moved {
  from = restapi_object.user
  to   = apm_user.alice
}
moved {
  from = restapi_object.role
  to   = apm_role.shop
}
