# The identity is the database's resource_name. As with an import ID, the first apply records
# the password attributes.
# Terraform and OpenTofu 1.12 and later.
import {
  to = apm_database.orders
  identity = {
    resource_name = "orders-db"
  }
}
