variable "system_id" { type = string }

resource "apm_node" "web" {
  system_id  = var.system_id
  name       = "web-01"
  host_ip    = "10.0.0.11"
  agent_port = 7730
}

resource "apm_node" "app" {
  system_id  = var.system_id
  name       = "app-01"
  host_ip    = "fd00::12"
  agent_port = 7730
}
