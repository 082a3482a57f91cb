# A datasource is imported by its resource_name; its database and pool sizes are read
# from the manager.
terraform import apm_datasource.orders orders-ds
