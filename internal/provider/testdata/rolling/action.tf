# include: rolling/cluster.tf
variable "batch_size" { type = number }
variable "healthy_timeout" { type = string }

# The rolling action under test (invoked with -invoke): a restart, or a redeploy of /shop.
action "apm_was_servers_rolling_restart" "cluster" {
  config {
    was_server_ids  = local.roll_servers
    batch_size      = var.batch_size
    healthy_timeout = var.healthy_timeout
  }
}

action "apm_was_application_rolling_redeploy" "shop" {
  config {
    was_server_ids  = local.roll_servers
    batch_size      = var.batch_size
    healthy_timeout = var.healthy_timeout
    context_path    = "/shop"
    source_path     = "/opt/apps/shop-2.war"
  }
}
