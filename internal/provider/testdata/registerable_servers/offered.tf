variable "system_name" { type = string }
variable "node_name" { type = string }

# The servers of each kind that the node node_name of the system system_name offers for
# registration.

data "apm_registerable_servers" "was" {
  kind        = "was"
  system_name = var.system_name
  node_name   = var.node_name
}

data "apm_registerable_servers" "web" {
  kind        = "web"
  system_name = var.system_name
  node_name   = var.node_name
}

data "apm_registerable_servers" "session" {
  kind        = "session"
  system_name = var.system_name
  node_name   = var.node_name
}
