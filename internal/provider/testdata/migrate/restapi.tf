# The shop as a team manages it with Mastercard/restapi: one restapi_object of each
# type that the provider's apm resources can take over with a moved block.
variable "endpoint" { type = string }
variable "api_key" { type = string }
variable "password" { type = string }

terraform {
  required_providers {
    restapi = { source = "registry.terraform.io/mastercard/restapi" }
  }
}

provider "restapi" {
  uri                  = var.endpoint
  write_returns_object = false
}

locals {
  key = "key=${var.api_key}"
}

resource "restapi_object" "system" {
  path         = "/rest/systems"
  query_string = local.key
  id_attribute = "systemName"
  data         = jsonencode({ systemName = "shop" })
}

resource "restapi_object" "node" {
  path         = "/rest/nodes"
  read_path    = "/rest/nodes/{id}/systems/shop"
  query_string = local.key
  id_attribute = "nodeName"
  data         = jsonencode({ nodeName = "web-01", systemName = "shop", hostIp = "10.0.0.1", agentPort = 7730 })
  depends_on   = [restapi_object.system]
}

resource "restapi_object" "was_server" {
  path         = "/rest/was/servers"
  read_path    = "/rest/was/servers/{id}/nodes/web-01/systems/shop"
  query_string = local.key
  id_attribute = "serverId"
  data         = jsonencode({ type = "install", serverId = "was-1", nodeName = "web-01", systemName = "shop", httpPort = 8080, ajpPort = 8009, serverType = "S" })
  depends_on   = [restapi_object.node]
}

resource "restapi_object" "web_server" {
  path         = "/rest/web/servers"
  read_path    = "/rest/web/servers/{id}/nodes/web-01/systems/shop"
  query_string = local.key
  id_attribute = "serverId"
  data         = jsonencode({ type = "install", serverId = "web-1", nodeName = "web-01", systemName = "shop", httpPort = 80 })
  depends_on   = [restapi_object.node]
}

resource "restapi_object" "session_server" {
  path         = "/rest/session/servers"
  read_path    = "/rest/session/servers/{id}/nodes/web-01/systems/shop"
  query_string = local.key
  id_attribute = "serverId"
  data         = jsonencode({ type = "install", serverId = "session-1", nodeName = "web-01", systemName = "shop", serverPort = 5701 })
  depends_on   = [restapi_object.node]
}

resource "restapi_object" "database" {
  path         = "/rest/resource/databases"
  query_string = local.key
  id_attribute = "resourceName"
  data = jsonencode({
    resourceName = "shop-db", databaseType = "PostgreSQL", host = "db.example.com", port = 5432,
    databaseName = "shop", userName = "app", password = var.password
  })
}

resource "restapi_object" "datasource" {
  path         = "/rest/resource/datasources"
  update_path  = "/rest/resource/datasource/{id}"
  query_string = local.key
  id_attribute = "resourceName"
  data         = jsonencode({ resourceName = "shop-ds", databaseResourceName = "shop-db", minPoolSize = 2, maxPoolSize = 20 })
  depends_on   = [restapi_object.database]
}

resource "restapi_object" "user" {
  path         = "/rest/admin/user"
  query_string = local.key
  id_attribute = "usrId"
  data         = jsonencode({ usrId = "alice", usrNm = "Alice", usrPw = var.password })
}

resource "restapi_object" "role" {
  path         = "/rest/admin/auth"
  query_string = local.key
  id_attribute = "authId"
  data         = jsonencode({ authId = "shop-ops", authNm = "Shop operators", actionTypes = ["READ", "EXECUTE"] })
}
