# Taking over objects that restapi_object and restful_resource manage (see the guide
# "Migrating from the generic REST providers"): a resource of this provider per object,
# with the values the REST resource sent, and a moved block from the REST resource to it.
# The plan shows each object moved; the apply changes nothing in the manager. Moved blocks
# across types need Terraform 1.8 or later, or OpenTofu 1.10 or later.
#
# Connection settings come from the environment (APM_ENDPOINT, APM_API_KEY,
# APM_CA_CERT_PEM), as in examples/quickstart.

terraform {
  required_version = ">= 1.8.0"

  required_providers {
    apm = {
      source = "apmplatform/apm"
    }
    # Kept until the moves are applied: the CLI reads the moved objects' state with them.
    restapi = {
      source = "Mastercard/restapi"
    }
    restful = {
      source = "magodo/restful"
    }
  }
}

provider "apm" {}

# Was restapi_object.shop: path "/rest/systems", data {"systemName": "shop"}.
resource "apm_system" "shop" {
  name = "shop"
}

moved {
  from = restapi_object.shop
  to   = apm_system.shop
}

# Was restapi_object.web_01: path "/rest/nodes", read_path "/rest/nodes/{id}/systems/shop".
resource "apm_node" "web_01" {
  system_id  = apm_system.shop.id
  name       = "web-01"
  host_ip    = "10.0.0.11"
  agent_port = 7730
}

moved {
  from = restapi_object.web_01
  to   = apm_node.web_01
}

# Was restful_resource.was_1: read_path "/rest/was/servers/was-1/nodes/web-01/systems/shop".
# A moved server is taken over as an imported one: declare its running state as it is.
resource "apm_was_server" "was_1" {
  node_id   = apm_node.web_01.id
  server_id = "was-1"
  mode      = "install"
  http_port = 8080
  state     = "running"
}

moved {
  from = restful_resource.was_1
  to   = apm_was_server.was_1
}

# Was restapi_object.orders_db: path "/rest/resource/databases". The source sent the
# password in its body; the first apply records it here and sends nothing.
resource "apm_database" "orders" {
  resource_name = "orders-db"
  database_type = "PostgreSQL"
  host          = "db.internal.example"
  port          = 5432
  database_name = "orders"
  user_name     = "orders_app"
  password      = var.orders_db_password
}

moved {
  from = restapi_object.orders_db
  to   = apm_database.orders
}

variable "orders_db_password" {
  description = "Password of the database user orders_app, the one the restapi_object sent (TF_VAR_orders_db_password)."
  type        = string
  sensitive   = true
}
