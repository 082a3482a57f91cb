data "apm_licenses" "all" {}
