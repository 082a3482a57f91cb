data "apm_nodes" "all" {}
