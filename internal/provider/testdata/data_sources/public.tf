# The data sources that need no API key.
data "apm_manager_info" "this" {}

data "apm_public_nodes" "all" {}
