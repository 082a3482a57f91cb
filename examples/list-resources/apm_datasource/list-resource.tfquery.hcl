# Every datasources of the manager, with their identities.
# Run with: terraform query (Terraform 1.14 and later), or terraform query -generate-config-out=adopted.tf
list "apm_datasource" "all" {
  provider = apm
}
