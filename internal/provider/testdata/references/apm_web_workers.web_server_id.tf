# Workers of a web server that the manager does not have.
variable "system_id" { type = string }

resource "apm_web_workers" "w" {
  web_server_id = "${var.system_id}/app-01/web-9"
  workers       = { "${var.system_id}/app-01/was-1" = {} }
}
