data "apm_container_servers" "was" {
  kind = "was"
}

data "apm_container_servers" "web" {
  kind = "web"
}
