variable "kind" { type = string }

data "apm_container_servers" "x" {
  kind = var.kind
}
