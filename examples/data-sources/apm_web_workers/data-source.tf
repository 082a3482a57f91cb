data "apm_web_server" "web1" {
  system_name = "shop-prod"
  node_name   = "web-01"
  server_id   = "web-1"
}

# The load-balancer workers of one web server, as the one worker map apm_web_workers
# manages, with the ID to import it: one item when the web server has workers, none when
# it has not.
data "apm_web_workers" "web1" {
  web_server_id = data.apm_web_server.web1.id
}

# The WAS servers (their ids) the web server forwards to, with their weights.
output "lb_factors" {
  value = { for m in data.apm_web_workers.web1.worker_maps : m.web_server_id => { for was, w in m.workers : was => w.lb_factor } }
}

# Adopting the map where there is one (for_each in import blocks: Terraform 1.7 or later,
# OpenTofu 1.7 or later).
import {
  for_each = { for m in data.apm_web_workers.web1.worker_maps : m.import_id => m }
  to       = apm_web_workers.adopted[each.key]
  id       = each.key
}

resource "apm_web_workers" "adopted" {
  for_each      = { for m in data.apm_web_workers.web1.worker_maps : m.import_id => m }
  web_server_id = each.value.web_server_id
  workers       = each.value.workers
}
