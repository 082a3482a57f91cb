variable "system_id" { type = string }
variable "name" { type = string }
variable "host_ip" { type = string }
variable "agent_port" { type = number }

resource "apm_node" "test" {
  system_id  = var.system_id
  name       = var.name
  host_ip    = var.host_ip
  agent_port = var.agent_port
}
