variable "system_id" { type = string }
variable "create_timeout" { type = string }

resource "apm_node" "test" {
  system_id  = var.system_id
  name       = "web-01"
  host_ip    = "10.0.0.1"
  agent_port = 7730
  timeouts   = { create = var.create_timeout }
}
