# A node of a system that the manager does not have.
resource "apm_node" "n" {
  system_id  = "SYS-9999"
  name       = "app-02"
  host_ip    = "10.0.0.22"
  agent_port = 7730
}
