# The server data sources on the demo seed. For each kind, the lists all, shop (the system
# filter), web01 (the node filter, which spans systems) and shop_web01 (both); the detail
# one of a server on shop/web-01; and the WAS detail batch of was-b1 on batch/web-01.
# (Not for_each: the test framework cannot read a state with for_each instances.)

data "apm_was_servers" "all" {}

data "apm_was_servers" "shop" {
  system_name = "shop"
}

data "apm_was_servers" "web01" {
  node_name = "web-01"
}

data "apm_was_servers" "shop_web01" {
  system_name = "shop"
  node_name   = "web-01"
}

data "apm_was_server" "one" {
  system_name = "shop"
  node_name   = "web-01"
  server_id   = "was-02"
}

data "apm_web_servers" "all" {}

data "apm_web_servers" "shop" {
  system_name = "shop"
}

data "apm_web_servers" "web01" {
  node_name = "web-01"
}

data "apm_web_servers" "shop_web01" {
  system_name = "shop"
  node_name   = "web-01"
}

data "apm_web_server" "one" {
  system_name = "shop"
  node_name   = "web-01"
  server_id   = "web-01"
}

data "apm_session_servers" "all" {}

data "apm_session_servers" "shop" {
  system_name = "shop"
}

data "apm_session_servers" "web01" {
  node_name = "web-01"
}

data "apm_session_servers" "shop_web01" {
  system_name = "shop"
  node_name   = "web-01"
}

data "apm_session_server" "one" {
  system_name = "shop"
  node_name   = "web-01"
  server_id   = "session-01"
}

data "apm_was_server" "batch" {
  system_name = "batch"
  node_name   = "web-01"
  server_id   = "was-b1"
}
