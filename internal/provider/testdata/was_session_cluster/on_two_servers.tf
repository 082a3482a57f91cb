# include: _base/shop_app.tf

variable "server_id" { type = string }
variable "primary_port" { type = number }
variable "secondary_host" { type = string }
variable "secondary_port" { type = number }

# was-1 and was-2 (was[0] and was[1]), installed and stopped.
resource "apm_was_server" "was" {
  count     = 2
  node_id   = apm_node.app.id
  server_id = "was-${count.index + 1}"
  mode      = "install"
  http_port = 8080 + count.index
}

locals {
  was_ids = { for s in apm_was_server.was : s.server_id => s.id }
}

resource "apm_was_session_cluster" "c" {
  was_server_id  = local.was_ids[var.server_id]
  primary_host   = "10.0.0.31"
  primary_port   = var.primary_port
  secondary_host = var.secondary_host
  secondary_port = var.secondary_port
}
