# The URI patterns of every server: the list of servers gives their ids.
# Run with: terraform query (Terraform 1.14 and later), or terraform query -generate-config-out=adopted.tf
list "apm_web_server" "all" {
  provider = apm
}

list "apm_web_uri_patterns" "all" {
  provider = apm
  for_each = toset([for s in list.apm_web_server.all.data : "${s.identity.node_id}/${s.identity.server_id}"])
  config {
    web_server_id = each.key
  }
}
