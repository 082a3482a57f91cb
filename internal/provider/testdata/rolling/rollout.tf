# include: rolling/cluster.tf
variable "operation" { type = string }
variable "batch_size" { type = number }
variable "release" { type = string }
variable "healthy_timeout" { type = string }

# The declarative roll: runs at create and whenever triggers change. depends_on the
# workers, so that a change of them is applied before a roll drains anything.
resource "apm_was_rollout" "cluster" {
  operation       = var.operation
  was_server_ids  = local.roll_servers
  batch_size      = var.batch_size
  healthy_timeout = var.healthy_timeout
  context_path    = var.operation == "redeploy" ? "/shop" : null
  source_path     = var.operation == "redeploy" ? "/opt/apps/shop-${var.release}.war" : null
  triggers = {
    release = var.release
  }
  depends_on = [apm_web_workers.front]
}
