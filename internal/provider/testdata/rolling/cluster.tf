# The cluster of the rolling tests (rolling_test.go): four WAS servers on node app-01 of
# system shop, each running the application /shop, and two web servers that balance to
# all four, web-1 with lb_factor 1 to 4 and web-2 with 1 throughout. The roll under test
# is appended by the test.

resource "apm_system" "shop" {
  name = "shop"
}

resource "apm_node" "app" {
  system_id  = apm_system.shop.id
  name       = "app-01"
  host_ip    = "10.0.0.21"
  agent_port = 7730
}

locals {
  was = ["was-1", "was-2", "was-3", "was-4"]
}

# count, not for_each: plugin-testing's state checks take no string instance keys.
resource "apm_was_server" "cluster" {
  count     = length(local.was)
  node_id   = apm_node.app.id
  server_id = local.was[count.index]
  mode      = "install"
  http_port = 8080 + count.index
  ajp_port  = 8009 + count.index
  state     = "running"
}

resource "apm_was_application" "shop" {
  count         = length(local.was)
  was_server_id = apm_was_server.cluster[count.index].id
  context_path  = "/shop"
  source_path   = "/opt/apps/shop-1.war"
}

resource "apm_web_server" "front" {
  count     = 2
  node_id   = apm_node.app.id
  server_id = "web-${count.index + 1}"
  mode      = "install"
  http_port = 80 + count.index
  state     = "running"
}

resource "apm_web_workers" "front" {
  count         = 2
  web_server_id = apm_web_server.front[count.index].id
  workers = {
    for i, s in apm_was_server.cluster : s.id => {
      lb_factor = count.index == 0 ? i + 1 : 1
    }
  }
}

locals {
  # The roll's servers in order, once every server serves its application.
  roll_servers = apm_was_application.shop[*].was_server_id
}
