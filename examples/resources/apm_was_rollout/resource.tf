# Restarts the cluster one server at a time, drained from its web servers, whenever the
# patch level installed on the nodes changes (and once when the rollout is created): the
# roll happens in the apply that changes it, on OpenTofu and every Terraform version.
variable "patch_level" {
  type    = string
  default = "2026-11"
}

resource "apm_was_rollout" "restart" {
  operation       = "restart"
  was_server_ids  = [for s in apm_was_server.cluster : s.id]
  batch_size      = 1
  healthy_timeout = "5m"
  triggers = {
    patch_level = var.patch_level
  }
  # How long the whole roll may take: at create, and on a change of triggers.
  timeouts = {
    create = "30m"
    update = "30m"
  }
  # A change of the workers is applied before a roll drains anything.
  depends_on = [apm_web_workers.front]
}

# Redeploys the application across the cluster whenever its release changes.
variable "shop_release" {
  type    = string
  default = "1.0"
}

resource "apm_was_rollout" "shop" {
  operation      = "redeploy"
  was_server_ids = [for s in apm_was_server.cluster : s.id]
  context_path   = "/shop"
  source_path    = "/opt/releases/shop-${var.shop_release}.war"
  triggers = {
    release = var.shop_release
  }
  depends_on = [apm_web_workers.front]
}

# What the roll acts on: four WAS servers behind two web servers, declared as in the
# resources' examples.
resource "apm_system" "example" {
  name = "shop-prod"
}

resource "apm_node" "app" {
  system_id  = apm_system.example.id
  name       = "app-01"
  host_ip    = "10.0.0.21"
  agent_port = 7730
}

resource "apm_was_server" "cluster" {
  for_each  = toset(["was-1", "was-2", "was-3", "was-4"])
  node_id   = apm_node.app.id
  server_id = each.key
  mode      = "install"
  http_port = 8080 + index(["was-1", "was-2", "was-3", "was-4"], each.key)
  ajp_port  = 8009 + index(["was-1", "was-2", "was-3", "was-4"], each.key)
  state     = "running"
}

resource "apm_was_application" "shop" {
  for_each         = apm_was_server.cluster
  was_server_id    = each.value.id
  context_path     = "/shop"
  source_path      = "/opt/releases/shop-${var.shop_release}.war"
  application_name = "shop"
}

resource "apm_web_server" "front" {
  for_each  = toset(["web-1", "web-2"])
  node_id   = apm_node.app.id
  server_id = each.key
  mode      = "install"
  http_port = each.key == "web-1" ? 80 : 81
  state     = "running"
}

resource "apm_web_workers" "front" {
  for_each      = apm_web_server.front
  web_server_id = each.value.id
  workers       = { for s in apm_was_server.cluster : s.id => {} }
}
