variable "system_name" { type = string }
variable "node_name" { type = string }
variable "server_id" { type = string }

data "apm_web_server" "x" {
  system_name = var.system_name
  node_name   = var.node_name
  server_id   = var.server_id
}
