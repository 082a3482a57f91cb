variable "kind" { type = string }
variable "system_name" { type = string }
variable "node_name" { type = string }

data "apm_registerable_servers" "x" {
  kind        = var.kind
  system_name = var.system_name
  node_name   = var.node_name
}
