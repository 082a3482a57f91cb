variable "system_name" { type = string }
variable "round" { type = number }

resource "apm_system" "shop" {
  name = var.system_name
}

resource "apm_node" "app" {
  system_id  = apm_system.shop.id
  name       = "app-01"
  host_ip    = "10.0.0.21"
  agent_port = 7730
}

resource "apm_was_server" "was" {
  node_id   = apm_node.app.id
  server_id = "was-1"
  mode      = "install"
  http_port = 8080
  state     = "running"
}

resource "apm_web_server" "web" {
  node_id   = apm_node.app.id
  server_id = "web-1"
  mode      = "install"
  http_port = 80
  state     = "running"
}

resource "apm_session_server" "session" {
  node_id     = apm_node.app.id
  server_id   = "session-1"
  mode        = "install"
  server_port = 5555
  state       = "running"
}

resource "apm_was_application" "shop" {
  was_server_id    = apm_was_server.was.id
  context_path     = "/shop"
  source_path      = "/opt/releases/shop-1.0.war"
  application_name = "shop"
}

action "apm_was_server_stop" "was" {
  config {
    server_id = apm_was_server.was.id
    force     = true
  }
}

action "apm_was_server_start" "was" {
  config {
    server_id = apm_was_server.was.id
  }
}

action "apm_was_server_restart" "was" {
  config {
    server_id = apm_was_server.was.id
    timeout   = "5m"
  }
}

action "apm_web_server_stop" "web" {
  config {
    server_id = apm_web_server.web.id
  }
}

action "apm_web_server_start" "web" {
  config {
    server_id = apm_web_server.web.id
  }
}

action "apm_web_server_restart" "web" {
  config {
    server_id = apm_web_server.web.id
  }
}

action "apm_session_server_stop" "session" {
  config {
    server_id = apm_session_server.session.id
  }
}

action "apm_session_server_start" "session" {
  config {
    server_id = apm_session_server.session.id
  }
}

action "apm_session_server_restart" "session" {
  config {
    server_id = apm_session_server.session.id
  }
}

action "apm_was_application_redeploy" "shop" {
  config {
    application_id   = apm_was_application.shop.id
    source_path      = apm_was_application.shop.source_path
    application_name = apm_was_application.shop.application_name
  }
}

action "apm_was_server_import_resource" "orders" {
  config {
    server_id     = apm_was_server.was.id
    resource_type = "jms"
    resource_name = "jms/orders"
  }
}

# Each round (a new value of var.round) runs every action once, in this order: the
# servers end running, as their state says, so the apply leaves no drift.
resource "terraform_data" "day_two" {
  input      = var.round
  depends_on = [apm_was_application.shop, apm_web_server.web, apm_session_server.session]

  lifecycle {
    action_trigger {
      events = [after_create, after_update]
      actions = [
        action.apm_was_server_stop.was, action.apm_was_server_start.was, action.apm_was_server_restart.was,
        action.apm_web_server_stop.web, action.apm_web_server_start.web, action.apm_web_server_restart.web,
        action.apm_session_server_stop.session, action.apm_session_server_start.session, action.apm_session_server_restart.session,
        action.apm_was_application_redeploy.shop, action.apm_was_server_import_resource.orders,
      ]
    }
  }
}
