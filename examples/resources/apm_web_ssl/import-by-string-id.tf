# An SSL set-up is imported by its web server, "<system>/<node>/<server_id>", where
# <system> is the system's name or its id. The manager reports only the HTTPS port: the
# first apply after the import records the certificate and key of the configuration,
# sending them only if https_port differs; change private_key_pem_wo_version in a later
# apply to send them.
import {
  to = apm_web_ssl.example
  id = "shop-prod/web-01/web-1"
}
