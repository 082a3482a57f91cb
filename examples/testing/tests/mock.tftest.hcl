# Tests the module's logic with a mock of the provider: no manager, no network, no credentials.
# Needs Terraform 1.7 or later, or OpenTofu 1.8 or later.
#
# The mock makes up every computed attribute, ids included, but the provider still validates the
# configuration, and it checks the shape of the ids one resource passes to another (a node's
# node_id is <system_id>/<node>). So the mock gives each type an id of its shape; since every
# instance of a type then has the same id, the runs keep to one WAS server, whose id keys the
# web server's workers.

mock_provider "apm" {
  mock_resource "apm_system" {
    defaults = { id = "42" }
  }
  mock_resource "apm_node" {
    defaults = { id = "42/app-01" }
  }
  mock_resource "apm_was_server" {
    defaults = { id = "42/app-01/was-1" }
  }
  mock_resource "apm_web_server" {
    defaults = { id = "42/web-01/web-1" }
  }
}

variables {
  system_name = "kit-shop"
  was_servers = { "was-1" = "app-01" }
}

run "plans_the_platform" {
  command = plan

  assert {
    condition     = length(apm_node.this) == 3 && apm_node.this["web-01"].host_ip == "10.0.0.11"
    error_message = "every entry of nodes is a node, with its address"
  }

  assert {
    condition     = apm_was_server.this["was-1"].http_port == 8080 && apm_web_server.front.server_id == "web-1"
    error_message = "a WAS server and a web server, as the module declares them"
  }
}

run "applies_with_mocked_ids" {
  variables {
    lb_factor = 3
  }

  assert {
    condition     = output.system_id == "42" && apm_node.this["app-02"].system_id == "42"
    error_message = "the nodes refer to the system's (mocked) id"
  }

  assert {
    condition     = apm_web_workers.front.workers["42/app-01/was-1"].lb_factor == 3
    error_message = "the worker is keyed by the WAS server's id and has lb_factor"
  }
}

run "rejects_a_bad_system_name" {
  command = plan

  variables {
    system_name = "-shop"
  }

  expect_failures = [var.system_name]
}
