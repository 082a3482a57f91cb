# URI patterns of a web server that the manager does not have.
variable "system_id" { type = string }

resource "apm_web_uri_patterns" "u" {
  web_server_id = "${var.system_id}/app-01/web-9"
  patterns      = ["/shop/*"]
}
