variable "system_name" { type = string }
variable "other_name" { type = string }
variable "database_name" { type = string }

# A system this configuration manages, with a node; another system it only reads (by name)
# to place a second node there; and a datasource on a database made outside Terraform.
resource "apm_system" "shop" {
  name = var.system_name
}

resource "apm_node" "web" {
  system_id  = apm_system.shop.id
  name       = "web-01"
  host_ip    = "10.0.0.11"
  agent_port = 7730
}

data "apm_system" "other" {
  name = var.other_name
}

resource "apm_node" "batch" {
  system_id  = data.apm_system.other.id
  name       = "batch-01"
  host_ip    = "10.0.0.12"
  agent_port = 7730
}

resource "apm_datasource" "orders" {
  resource_name = "${var.system_name}-ds"
  database_id   = var.database_name
}
