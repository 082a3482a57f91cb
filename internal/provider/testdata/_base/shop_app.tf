# The base of most configurations: the system var.system_name and its node app-01. A file
# includes it with the line "# include: _base/shop_app.tf".
variable "system_name" { type = string }

resource "apm_system" "shop" {
  name = var.system_name
}

resource "apm_node" "app" {
  system_id  = apm_system.shop.id
  name       = "app-01"
  host_ip    = "10.0.0.21"
  agent_port = 7730
}
