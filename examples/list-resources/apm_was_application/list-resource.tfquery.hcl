# The applications of every server: the list of servers gives their ids.
# Run with: terraform query (Terraform 1.14 and later), or terraform query -generate-config-out=adopted.tf
list "apm_was_server" "all" {
  provider = apm
}

list "apm_was_application" "all" {
  provider = apm
  for_each = toset([for s in list.apm_was_server.all.data : "${s.identity.node_id}/${s.identity.server_id}"])
  config {
    was_server_id = each.key
  }
}
