# The systems of the manager, for `terraform query` (Terraform 1.14 and later).
list "apm_system" "all" {
  provider = apm
}
