# The identity is the WAS server's id, "<system_id>/<node>/<server_id>" (the system's id, not
# its name).
# Terraform and OpenTofu 1.12 and later.
import {
  to = apm_was_session_cluster.example
  identity = {
    was_server_id = "SYS-0001/app-01/was-1"
  }
}
