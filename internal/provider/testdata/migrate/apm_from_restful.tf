# The outlet of restful.tf managed by apm: a resource per object, and a moved block from each restful_resource.
variable "password" { type = string }

terraform {
  required_providers {
    apm = { source = var.apm_source }
    # Kept until the moves are applied: the CLI reads the moved objects' state with it.
    restful = { source = "registry.terraform.io/magodo/restful" }
  }
}

resource "apm_system" "outlet" {
  name = "outlet"
}

resource "apm_node" "outlet" {
  system_id  = apm_system.outlet.id
  name       = "web-02"
  host_ip    = "10.0.0.2"
  agent_port = 7730
}

resource "apm_was_server" "outlet" {
  node_id   = apm_node.outlet.id
  server_id = "was-2"
  mode      = "install"
  http_port = 8080
  state     = var.server_state
}

resource "apm_web_server" "outlet" {
  node_id   = apm_node.outlet.id
  server_id = "web-2"
  mode      = "install"
  http_port = 80
  state     = var.server_state
}

resource "apm_session_server" "outlet" {
  node_id     = apm_node.outlet.id
  server_id   = "session-2"
  mode        = "install"
  server_port = 5701
  state       = var.server_state
}

resource "apm_database" "outlet" {
  resource_name = "outlet-db"
  database_type = "MySQL"
  host          = "db.example.com"
  port          = 3306
  database_name = "outlet"
  user_name     = "app"
  password      = var.password
}

resource "apm_datasource" "outlet" {
  resource_name = "outlet-ds"
  database_id   = apm_database.outlet.id
  max_pool_size = 5
}

resource "apm_user" "bob" {
  user_id   = "bob"
  user_name = "Bob"
  password  = var.password
}

resource "apm_role" "outlet" {
  role_id      = "outlet-ops"
  name         = "Outlet operators"
  action_types = ["READ"]
  description  = "Runs the outlet"
}

moved {
  from = restful_resource.system
  to   = apm_system.outlet
}
moved {
  from = restful_resource.node
  to   = apm_node.outlet
}
moved {
  from = restful_resource.was_server
  to   = apm_was_server.outlet
}
moved {
  from = restful_resource.web_server
  to   = apm_web_server.outlet
}
moved {
  from = restful_resource.session_server
  to   = apm_session_server.outlet
}
moved {
  from = restful_resource.database
  to   = apm_database.outlet
}
moved {
  from = restful_resource.datasource
  to   = apm_datasource.outlet
}
moved {
  from = restful_resource.user
  to   = apm_user.bob
}
moved {
  from = restful_resource.role
  to   = apm_role.outlet
}
