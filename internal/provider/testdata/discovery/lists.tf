# Every list data source whose items are managed objects, over discovery/platform.tf
# (declared with it); the part lists also of the servers without parts, and the roles of
# the user without roles.

data "apm_systems" "all" {
  depends_on = [apm_system.shop]
}

data "apm_nodes" "shop" {
  system_name = apm_system.shop.name
  depends_on  = [apm_node.app]
}

data "apm_was_servers" "shop" {
  system_name = apm_system.shop.name
  depends_on  = [apm_was_server.a, apm_was_server.bare]
}

data "apm_web_servers" "shop" {
  system_name = apm_system.shop.name
  depends_on  = [apm_web_server.w, apm_web_server.bare]
}

data "apm_session_servers" "shop" {
  system_name = apm_system.shop.name
  depends_on  = [apm_session_server.s]
}

data "apm_databases" "all" {
  depends_on = [apm_database.db]
}

data "apm_datasources" "all" {
  depends_on = [apm_datasource.orders, apm_datasource.billing]
}

data "apm_users" "all" {
  depends_on = [apm_user.alice, apm_user.bob]
}

data "apm_roles" "all" {
  depends_on = [apm_role.viewers, apm_role.operators]
}

data "apm_was_applications" "a" {
  was_server_id = apm_was_server.a.id
  depends_on    = [apm_was_application.shop, apm_was_application.api]
}

data "apm_was_applications" "bare" {
  was_server_id = apm_was_server.bare.id
}

data "apm_was_datasources" "a" {
  was_server_id = apm_was_server.a.id
  depends_on    = [apm_was_datasource.orders, apm_was_datasource.billing]
}

data "apm_was_datasources" "bare" {
  was_server_id = apm_was_server.bare.id
}

data "apm_was_session_clusters" "a" {
  was_server_id = apm_was_server.a.id
  depends_on    = [apm_was_session_cluster.c]
}

data "apm_was_session_clusters" "bare" {
  was_server_id = apm_was_server.bare.id
}

data "apm_web_workers" "w" {
  web_server_id = apm_web_server.w.id
  depends_on    = [apm_web_workers.w]
}

data "apm_web_workers" "bare" {
  web_server_id = apm_web_server.bare.id
}

data "apm_web_uri_patterns" "w" {
  web_server_id = apm_web_server.w.id
  depends_on    = [apm_web_uri_patterns.u]
}

data "apm_web_uri_patterns" "bare" {
  web_server_id = apm_web_server.bare.id
}

data "apm_web_ssls" "w" {
  web_server_id = apm_web_server.w.id
  depends_on    = [apm_web_ssl.s]
}

data "apm_web_ssls" "bare" {
  web_server_id = apm_web_server.bare.id
}

data "apm_user_roles" "alice" {
  user_id    = apm_user.alice.user_id
  depends_on = [apm_user_role.alice_viewers, apm_user_role.alice_operators]
}

data "apm_user_roles" "bob" {
  user_id = apm_user.bob.user_id
}
