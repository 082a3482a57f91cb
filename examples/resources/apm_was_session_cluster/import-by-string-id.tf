# Session clustering is imported by its server, "<system>/<node>/<server_id>", where
# <system> is the system's name or its id.
import {
  to = apm_was_session_cluster.example
  id = "shop-prod/app-01/was-1"
}
