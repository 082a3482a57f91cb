variable "system" { type = string }

# The system shop and its node app-01, without servers.

resource "apm_system" "shop" {
  name = var.system
}

resource "apm_node" "app" {
  system_id  = apm_system.shop.id
  name       = "app-01"
  host_ip    = "10.0.0.21"
  agent_port = 7730
}
