# The identity is the WAS server's id, "<system_id>/<node>/<server_id>" (the system's id, not
# its name), and the context path with its leading slash. As with an import ID, the first
# apply records source_path and application_name.
# Terraform and OpenTofu 1.12 and later.
import {
  to = apm_was_application.shop
  identity = {
    was_server_id = "SYS-0001/app-01/was-1"
    context_path  = "/shop"
  }
}
