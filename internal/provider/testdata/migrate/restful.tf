# The outlet as a team manages it with magodo/restful: one restful_resource of each
# type that the provider's apm resources can take over with a moved block.
variable "endpoint" { type = string }
variable "api_key" { type = string }
variable "password" { type = string }

terraform {
  required_providers {
    restful = { source = "registry.terraform.io/magodo/restful" }
  }
}

provider "restful" {
  base_url = var.endpoint
  security = { apikey = [{ in = "query", name = "key", value = var.api_key }] }
}

resource "restful_resource" "system" {
  path      = "/rest/systems"
  read_path = "/rest/systems/outlet"
  body      = { systemName = "outlet" }
}

resource "restful_resource" "node" {
  path       = "/rest/nodes"
  read_path  = "/rest/nodes/web-02/systems/outlet"
  body       = { nodeName = "web-02", systemName = "outlet", hostIp = "10.0.0.2", agentPort = 7730 }
  depends_on = [restful_resource.system]
}

resource "restful_resource" "was_server" {
  path       = "/rest/was/servers"
  read_path  = "/rest/was/servers/was-2/nodes/web-02/systems/outlet"
  body       = { type = "install", serverId = "was-2", nodeName = "web-02", systemName = "outlet", httpPort = 8080 }
  depends_on = [restful_resource.node]
}

resource "restful_resource" "web_server" {
  path       = "/rest/web/servers"
  read_path  = "/rest/web/servers/web-2/nodes/web-02/systems/outlet"
  body       = { type = "install", serverId = "web-2", nodeName = "web-02", systemName = "outlet", httpPort = 80 }
  depends_on = [restful_resource.node]
}

resource "restful_resource" "session_server" {
  path       = "/rest/session/servers"
  read_path  = "/rest/session/servers/session-2/nodes/web-02/systems/outlet"
  body       = { type = "install", serverId = "session-2", nodeName = "web-02", systemName = "outlet", serverPort = 5701 }
  depends_on = [restful_resource.node]
}

resource "restful_resource" "database" {
  path      = "/rest/resource/databases"
  read_path = "/rest/resource/databases/outlet-db"
  body = {
    resourceName = "outlet-db", databaseType = "MySQL", host = "db.example.com", port = 3306,
    databaseName = "outlet", userName = "app", password = var.password
  }
}

resource "restful_resource" "datasource" {
  path       = "/rest/resource/datasources"
  read_path  = "/rest/resource/datasources/outlet-ds"
  body       = { resourceName = "outlet-ds", databaseResourceName = "outlet-db", maxPoolSize = 5 }
  depends_on = [restful_resource.database]
}

resource "restful_resource" "user" {
  path      = "/rest/admin/user"
  read_path = "/rest/admin/user/bob"
  body      = { usrId = "bob", usrNm = "Bob", usrPw = var.password }
}

resource "restful_resource" "role" {
  path      = "/rest/admin/auth"
  read_path = "/rest/admin/auth/outlet-ops"
  body      = { authId = "outlet-ops", authNm = "Outlet operators", actionTypes = ["READ"], description = "Runs the outlet" }
}
