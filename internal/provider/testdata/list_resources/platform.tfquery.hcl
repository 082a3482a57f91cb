variable "user_id" { type = string }

# Every list resource over discovery/platform.tf, each block named platform and with the
# objects themselves (include_resource). The lists of a server's parts run under
# discovery/platform.tf's WAS server a and web server w, found by the server lists, and
# the grants under the user alice.

list "apm_system" "platform" {
  provider         = apm
  include_resource = true
}

list "apm_node" "platform" {
  provider         = apm
  include_resource = true
}

list "apm_was_server" "platform" {
  provider         = apm
  include_resource = true
}

list "apm_web_server" "platform" {
  provider         = apm
  include_resource = true
}

list "apm_session_server" "platform" {
  provider         = apm
  include_resource = true
}

list "apm_database" "platform" {
  provider         = apm
  include_resource = true
}

list "apm_datasource" "platform" {
  provider         = apm
  include_resource = true
}

list "apm_role" "platform" {
  provider         = apm
  include_resource = true
}

list "apm_user" "platform" {
  provider         = apm
  include_resource = true
}

list "apm_was_application" "platform" {
  provider         = apm
  include_resource = true
  config {
    was_server_id = one([for s in list.apm_was_server.platform.data : "${s.identity.node_id}/${s.identity.server_id}" if s.identity.server_id == "was-1"])
  }
}

list "apm_was_datasource" "platform" {
  provider         = apm
  include_resource = true
  config {
    was_server_id = one([for s in list.apm_was_server.platform.data : "${s.identity.node_id}/${s.identity.server_id}" if s.identity.server_id == "was-1"])
  }
}

list "apm_was_session_cluster" "platform" {
  provider         = apm
  include_resource = true
  config {
    was_server_id = one([for s in list.apm_was_server.platform.data : "${s.identity.node_id}/${s.identity.server_id}" if s.identity.server_id == "was-1"])
  }
}

list "apm_web_workers" "platform" {
  provider         = apm
  include_resource = true
  config {
    web_server_id = one([for s in list.apm_web_server.platform.data : "${s.identity.node_id}/${s.identity.server_id}" if s.identity.server_id == "web-1"])
  }
}

list "apm_web_uri_patterns" "platform" {
  provider         = apm
  include_resource = true
  config {
    web_server_id = one([for s in list.apm_web_server.platform.data : "${s.identity.node_id}/${s.identity.server_id}" if s.identity.server_id == "web-1"])
  }
}

list "apm_web_ssl" "platform" {
  provider         = apm
  include_resource = true
  config {
    web_server_id = one([for s in list.apm_web_server.platform.data : "${s.identity.node_id}/${s.identity.server_id}" if s.identity.server_id == "web-1"])
  }
}

list "apm_user_role" "platform" {
  provider         = apm
  include_resource = true
  config {
    user_id = var.user_id
  }
}
