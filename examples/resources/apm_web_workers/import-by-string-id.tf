# A worker map is imported by its web server, "<system>/<node>/<server_id>", where
# <system> is the system's name or its id.
import {
  to = apm_web_workers.example
  id = "shop-prod/web-01/web-1"
}
