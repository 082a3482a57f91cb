# The roles granted to every user: the list of users gives their ids.
# Run with: terraform query (Terraform 1.14 and later), or terraform query -generate-config-out=adopted.tf
list "apm_user" "all" {
  provider = apm
}

list "apm_user_role" "all" {
  provider = apm
  for_each = toset([for u in list.apm_user.all.data : u.identity.user_id])
  config {
    user_id = each.key
  }
}
