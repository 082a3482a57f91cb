# A database is imported by its resource_name. The manager never reports the password:
# the first apply after the import records the password_wo_version or password of the
# configuration without replacing the database (a later change of either replaces it).
import {
  to = apm_database.orders
  id = "orders-db"
}
