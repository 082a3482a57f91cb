# An application is imported by "<system>/<node>/<server_id>/<context_path>", where
# <system> is the system's name or its id; the context path's leading slash may be left
# out ("shop-prod/app-01/was-1//shop" is the same application), and the root context "/"
# is a lone slash ("shop-prod/app-01/was-1//").
import {
  to = apm_was_application.shop
  id = "shop-prod/app-01/was-1/shop"
}
