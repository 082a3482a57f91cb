# The identity is the server's node_id ("<system_id>/<node>", the system's id, not its name)
# and its server_id. As with an import ID, the first apply records mode and force_stop.
# Terraform and OpenTofu 1.12 and later.
import {
  to = apm_was_server.example
  identity = {
    node_id   = "SYS-0001/app-01"
    server_id = "was-1"
  }
}
