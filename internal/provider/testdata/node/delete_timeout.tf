variable "system_id" { type = string }
variable "delete_timeout" { type = string }

resource "apm_node" "test" {
  system_id  = var.system_id
  name       = "web-01"
  host_ip    = "10.0.0.11"
  agent_port = 7730
  timeouts   = { delete = var.delete_timeout }
}
