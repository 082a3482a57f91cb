data "apm_web_server" "web1" {
  system_name = "shop-prod"
  node_name   = "web-01"
  server_id   = "web-1"
}

# The URI patterns of one web server, as the one set apm_web_uri_patterns manages, with
# the ID to import it: one item when the web server has URI patterns, none when it has
# not.
data "apm_web_uri_patterns" "web1" {
  web_server_id = data.apm_web_server.web1.id
}

output "patterns" {
  value = flatten(data.apm_web_uri_patterns.web1.pattern_sets[*].patterns)
}

# Adopting the set where there is one (for_each in import blocks: Terraform 1.7 or later,
# OpenTofu 1.7 or later).
import {
  for_each = { for s in data.apm_web_uri_patterns.web1.pattern_sets : s.import_id => s }
  to       = apm_web_uri_patterns.adopted[each.key]
  id       = each.key
}

resource "apm_web_uri_patterns" "adopted" {
  for_each      = { for s in data.apm_web_uri_patterns.web1.pattern_sets : s.import_id => s }
  web_server_id = each.value.web_server_id
  patterns      = each.value.patterns
}
