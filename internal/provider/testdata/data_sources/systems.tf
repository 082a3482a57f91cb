data "apm_systems" "all" {}
