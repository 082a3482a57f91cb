variable "system_name" { type = string }
variable "node_name" { type = string }
variable "include_servers" { type = bool }

# include_servers may be null, which leaves it out.
data "apm_node_metrics" "x" {
  system_name     = var.system_name
  node_name       = var.node_name
  include_servers = var.include_servers
}
