# Session clustering of a WAS server that the manager does not have.
variable "system_id" { type = string }

resource "apm_was_session_cluster" "c" {
  was_server_id = "${var.system_id}/app-01/was-9"
  primary_host  = "10.0.0.31"
  primary_port  = 15200
}
