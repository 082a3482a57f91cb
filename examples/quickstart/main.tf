# Quickstart: one APM system with two nodes.
#
# The provider reads its connection settings from the environment, so this file holds no secrets:
#   APM_ENDPOINT     URL of the APM manager (or of apmsim, the emulator)
#   APM_API_KEY      API key with write access
#   APM_CA_CERT_PEM  PEM of the CA that signed the manager's certificate (if not publicly trusted)
# `make demo` runs this configuration against a local apmsim.

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

resource "apm_node" "web" {
  for_each = var.nodes

  # The system's id, not its name: renaming the system (var.system_name) leaves the nodes alone.
  system_id  = apm_system.shop.id
  name       = each.key
  host_ip    = each.value
  agent_port = var.agent_port
}

# Read back through data sources once the nodes exist, for what the manager observes:
# the node count and each node's status. The data sources find a system by its name.
data "apm_system" "shop" {
  name = apm_system.shop.name

  depends_on = [apm_node.web]
}

data "apm_nodes" "shop" {
  system_name = apm_system.shop.name

  depends_on = [apm_node.web]
}
