variable "system_id" { type = string }
variable "first_host_ip" { type = string }
variable "first_agent_port" { type = number }

resource "apm_node" "n1" {
  system_id  = var.system_id
  name       = "node-01"
  host_ip    = var.first_host_ip
  agent_port = var.first_agent_port
}

resource "apm_node" "n2" {
  system_id  = var.system_id
  name       = "node-02"
  host_ip    = "10.1.0.2"
  agent_port = 7730
}

resource "apm_node" "n3" {
  system_id  = var.system_id
  name       = "node-03"
  host_ip    = "10.1.0.3"
  agent_port = 7730
}
