# A small module of the kind a team writes and tests (docs/guides/testing-modules.md): a system,
# its nodes, a WAS server on each application node and a web server balancing over them.
# tests/ holds its `terraform test` files: apmsim.tftest.hcl applies it against a manager (apmsim
# in CI), mock.tftest.hcl against a mock of the provider, with no manager at all.
#
# Like any module it configures no provider: its caller (or the test) does, and the connection
# settings come from the environment (APM_ENDPOINT, APM_API_KEY, APM_CA_CERT_PEM).

terraform {
  required_providers {
    apm = {
      source = "apmplatform/apm"
    }
  }
}

resource "apm_system" "this" {
  name = var.system_name
}

resource "apm_node" "this" {
  for_each = var.nodes

  system_id  = apm_system.this.id
  name       = each.key
  host_ip    = each.value
  agent_port = 7730
}

# One WAS server per entry of var.was_servers (server id => node name).
resource "apm_was_server" "this" {
  for_each = var.was_servers

  node_id   = apm_node.this[each.value].id
  server_id = each.key
  mode      = "install"
  http_port = 8080
  ajp_port  = 8009
}

resource "apm_web_server" "front" {
  node_id   = apm_node.this[var.web_node].id
  server_id = "web-1"
  mode      = "install"
  http_port = 80
}

# Every WAS server is a worker of the web server, keyed by the WAS server's id.
resource "apm_web_workers" "front" {
  web_server_id = apm_web_server.front.id

  workers = { for s in apm_was_server.this : s.id => { lb_factor = var.lb_factor } }
}
