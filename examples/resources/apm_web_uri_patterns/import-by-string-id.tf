# URI patterns are imported by their web server, "<system>/<node>/<server_id>", where
# <system> is the system's name or its id.
import {
  to = apm_web_uri_patterns.example
  id = "shop-prod/web-01/web-1"
}
