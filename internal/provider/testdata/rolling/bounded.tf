# include: rolling/cluster.tf
variable "release" { type = string }

# A roll bounded by the deprecated timeout or by timeouts (deprecation_test.go); the
# test gives each as an expression, null where it is left out.
resource "apm_was_rollout" "bounded" {
  operation      = "restart"
  was_server_ids = local.roll_servers
  batch_size     = 2
  timeout        = var.timeout
  timeouts       = var.timeouts
  triggers = {
    release = var.release
  }
  depends_on = [apm_web_workers.front]
}
