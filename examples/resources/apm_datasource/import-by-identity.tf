# The identity is the datasource's resource_name.
# Terraform and OpenTofu 1.12 and later.
import {
  to = apm_datasource.orders
  identity = {
    resource_name = "orders-ds"
  }
}
