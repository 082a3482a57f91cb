# The identity is the web server's id, "<system_id>/<node>/<server_id>" (the system's id, not
# its name). As with an import ID, the first apply records the certificate and key.
# Terraform and OpenTofu 1.12 and later.
import {
  to = apm_web_ssl.example
  identity = {
    web_server_id = "SYS-0001/web-01/web-1"
  }
}
