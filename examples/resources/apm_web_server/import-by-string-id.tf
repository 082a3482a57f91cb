# A web server is imported by "<system>/<node>/<server_id>", where <system> is the system's name or id.
# The manager does not report mode: set it in the configuration; the first apply after the import
# records it without replacing the server.
import {
  to = apm_web_server.example
  id = "shop-prod/web-01/web-1"
}
