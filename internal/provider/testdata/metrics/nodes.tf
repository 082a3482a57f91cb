data "apm_nodes_metrics" "all" {}
