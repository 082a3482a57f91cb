# The local module of root.tf (modules/shop/main.tf in the test's workspace): a system with one
# node, on whichever manager the caller's provider points at.
terraform {
  required_providers {
    apm = {
      source = "apmplatform/apm"
    }
  }
}

variable "system" {
  type = string
}

resource "apm_system" "this" {
  name = var.system
}

resource "apm_node" "web" {
  system_id  = apm_system.this.id
  name       = "web-01"
  host_ip    = "10.0.0.11"
  agent_port = 7730
}

output "node_id" {
  value = apm_node.web.id
}
