# A datasource is imported by its resource_name; its database and pool sizes are read
# from the manager.
import {
  to = apm_datasource.orders
  id = "orders-ds"
}
