variable "key" { type = string }
variable "worker_ajp_port" { type = number }

# One worker, keyed by the id of its WAS server; worker_ajp_port null takes the server's.
resource "apm_web_workers" "w" {
  web_server_id = apm_web_server.w.id
  workers = {
    (var.key) = { ajp_port = var.worker_ajp_port }
  }
}
