# The identity is the WAS server's id, "<system_id>/<node>/<server_id>" (the system's id, not
# its name), and the datasource's name.
# Terraform and OpenTofu 1.12 and later.
import {
  to = apm_was_datasource.orders
  identity = {
    was_server_id   = "SYS-0001/app-01/was-1"
    datasource_name = "orders-ds"
  }
}
