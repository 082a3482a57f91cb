# The identity is the node's system_id (the system's id, not its name) and its name.
# Terraform and OpenTofu 1.12 and later.
import {
  to = apm_node.example
  identity = {
    system_id = "SYS-0001"
    name      = "web-01"
  }
}
