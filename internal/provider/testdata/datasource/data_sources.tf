# Reads apm_datasource.ds, declared with it.
data "apm_datasource" "ds" {
  resource_name = apm_datasource.ds.resource_name
}

data "apm_datasources" "all" {
  depends_on = [apm_datasource.ds]
}
