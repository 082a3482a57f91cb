output "web_server_id" {
  description = "The web server's id, <system_id>/<node>/<server_id>."
  value       = apm_web_server.front.id
}

output "was_server_ids" {
  description = "The WAS servers' ids by serverId."
  value       = { for k, s in apm_was_server.this : k => s.id }
}

output "system_name" {
  value = apm_system.shop.name
}
