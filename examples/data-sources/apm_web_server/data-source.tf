# One web server, by system, node and server id (an error if it does not exist).
data "apm_web_server" "web1" {
  system_name = "shop-prod"
  node_name   = "web-01"
  server_id   = "web-1"
}

output "web1_ports" {
  value = {
    http  = data.apm_web_server.web1.http_port
    https = data.apm_web_server.web1.https_port
  }
}
