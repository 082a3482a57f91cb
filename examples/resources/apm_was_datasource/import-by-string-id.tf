# An attachment is imported by "<system>/<node>/<server_id>/<datasource_name>", where
# <system> is the system's name or its id.
import {
  to = apm_was_datasource.orders
  id = "shop-prod/app-01/was-1/orders-ds"
}
