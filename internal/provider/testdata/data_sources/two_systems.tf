variable "shop" { type = string }
variable "batch" { type = string }

# The data sources read what the resources (or anyone else) created; depends_on makes
# them read after the writes of the same apply.
resource "apm_system" "shop" {
  name = var.shop
}

resource "apm_system" "batch" {
  name = var.batch
}

resource "apm_node" "web" {
  system_id  = apm_system.shop.id
  name       = "web-01"
  host_ip    = "10.0.0.11"
  agent_port = 7730
}

resource "apm_node" "app" {
  system_id  = apm_system.shop.id
  name       = "app-01"
  host_ip    = "10.0.0.12"
  agent_port = 7731
}

resource "apm_node" "job" {
  system_id  = apm_system.batch.id
  name       = "job-01"
  host_ip    = "10.0.1.1"
  agent_port = 7732
}

data "apm_systems" "all" {
  depends_on = [apm_node.web, apm_node.app, apm_node.job]
}

data "apm_system" "shop" {
  name       = apm_system.shop.name
  depends_on = [apm_node.web, apm_node.app]
}

data "apm_nodes" "shop" {
  system_name = apm_system.shop.name
  depends_on  = [apm_node.web, apm_node.app]
}

data "apm_nodes" "all" {
  depends_on = [apm_node.web, apm_node.app, apm_node.job]
}

data "apm_node" "web" {
  system_name = apm_system.shop.name
  name        = apm_node.web.name
}

data "apm_public_nodes" "all" {}

data "apm_manager_info" "this" {}
