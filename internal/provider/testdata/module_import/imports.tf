# Every object of discovery/platform.tf (beside this file in the module), imported by its
# identity from inside the module (Terraform 1.16). system_id is the id the manager gave
# the system; the other parts of the identities are the names the platform gives.

locals {
  node_id = "${var.system_id}/app-01"
  was_1   = "${local.node_id}/was-1"
  web_1   = "${local.node_id}/web-1"
}

import {
  to       = apm_system.shop
  identity = { id = var.system_id }
}

import {
  to       = apm_node.app
  identity = { system_id = var.system_id, name = "app-01" }
}

import {
  to       = apm_was_server.a
  identity = { node_id = local.node_id, server_id = "was-1" }
}

import {
  to       = apm_was_server.bare
  identity = { node_id = local.node_id, server_id = "was-2" }
}

import {
  to       = apm_web_server.w
  identity = { node_id = local.node_id, server_id = "web-1" }
}

import {
  to       = apm_web_server.bare
  identity = { node_id = local.node_id, server_id = "web-2" }
}

import {
  to       = apm_session_server.s
  identity = { node_id = local.node_id, server_id = "session-1" }
}

import {
  to       = apm_database.db
  identity = { resource_name = var.database_name }
}

import {
  to       = apm_datasource.orders
  identity = { resource_name = var.orders_ds }
}

import {
  to       = apm_datasource.billing
  identity = { resource_name = var.billing_ds }
}

import {
  to       = apm_was_datasource.orders
  identity = { was_server_id = local.was_1, datasource_name = var.orders_ds }
}

import {
  to       = apm_was_datasource.billing
  identity = { was_server_id = local.was_1, datasource_name = var.billing_ds }
}

import {
  to       = apm_was_session_cluster.c
  identity = { was_server_id = local.was_1 }
}

import {
  to       = apm_was_application.shop
  identity = { was_server_id = local.was_1, context_path = "/shop" }
}

import {
  to       = apm_was_application.api
  identity = { was_server_id = local.was_1, context_path = "/api" }
}

import {
  to       = apm_web_workers.w
  identity = { web_server_id = local.web_1 }
}

import {
  to       = apm_web_uri_patterns.u
  identity = { web_server_id = local.web_1 }
}

import {
  to       = apm_web_ssl.s
  identity = { web_server_id = local.web_1 }
}

import {
  to       = apm_role.viewers
  identity = { role_id = var.viewers }
}

import {
  to       = apm_role.operators
  identity = { role_id = var.operators }
}

import {
  to       = apm_user.alice
  identity = { user_id = var.alice }
}

import {
  to       = apm_user.bob
  identity = { user_id = var.bob }
}

import {
  to       = apm_user_role.alice_viewers
  identity = { user_id = var.alice, role_id = var.viewers }
}

import {
  to       = apm_user_role.alice_operators
  identity = { user_id = var.alice, role_id = var.operators }
}
