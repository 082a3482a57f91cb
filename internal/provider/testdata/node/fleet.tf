variable "system_id" { type = string }
variable "nodes" { type = number }

# node-01, node-02, ... at 10.1.0.1, 10.1.0.2, ...
resource "apm_node" "fleet" {
  count = var.nodes

  system_id  = var.system_id
  name       = format("node-%02d", count.index + 1)
  host_ip    = "10.1.0.${count.index + 1}"
  agent_port = 7730
}
