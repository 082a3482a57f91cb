variable "was_state" { type = string }
variable "web_state" { type = string }
variable "session_state" { type = string }
variable "round" { type = number }
variable "action" { type = string }

# The platform of the actions on the CLI (actions_cli_test.go): one server of each kind
# on node app-01 of system shop, and an application at /shop on the WAS server. The
# server that the action under test acts on starts in the state the action starts from.
# The test appends the action under test, `action "<type>" "under_test"`, and var.action
# is its address.

resource "apm_system" "shop" {
  name = "shop"
}

resource "apm_node" "app" {
  system_id  = apm_system.shop.id
  name       = "app-01"
  host_ip    = "10.0.0.21"
  agent_port = 7730
}

resource "apm_was_server" "this" {
  node_id   = apm_node.app.id
  server_id = "was-1"
  mode      = "install"
  http_port = 8080
  state     = var.was_state
}

resource "apm_web_server" "this" {
  node_id   = apm_node.app.id
  server_id = "web-1"
  mode      = "install"
  http_port = 80
  state     = var.web_state
}

resource "apm_session_server" "this" {
  node_id     = apm_node.app.id
  server_id   = "session-1"
  mode        = "install"
  server_port = 5555
  state       = var.session_state
}

resource "apm_was_application" "shop" {
  was_server_id = apm_was_server.this.id
  context_path  = "/shop"
  source_path   = "/opt/apps/shop.war"
}

# A new round (var.round) updates it, which runs the action under test once.
resource "terraform_data" "trigger" {
  input      = var.round
  depends_on = [apm_was_application.shop, apm_web_server.this, apm_session_server.this]

  lifecycle {
    action_trigger {
      events  = [after_update]
      actions = [var.action]
    }
  }
}
