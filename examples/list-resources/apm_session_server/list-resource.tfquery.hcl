# The session servers of one system, with their identities.
# Run with: terraform query (Terraform 1.14 and later), or terraform query -generate-config-out=adopted.tf
list "apm_session_server" "shop" {
  provider = apm
  config {
    system_name = "shop"
  }
}
