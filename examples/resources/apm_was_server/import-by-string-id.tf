# A WAS server is imported by "<system>/<node>/<server_id>", where <system> is the system's name or id.
# The manager does not report mode or force_stop: set them in the configuration; the first apply
# after the import records them without replacing the server.
import {
  to = apm_was_server.example
  id = "shop-prod/app-01/was-1"
}
