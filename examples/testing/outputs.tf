output "system_id" {
  description = "The system's id."
  value       = apm_system.this.id
}

output "was_server_ids" {
  description = "The WAS servers' ids, by server id."
  value       = { for k, s in apm_was_server.this : k => s.id }
}

output "worker_count" {
  description = "How many workers the web server balances over."
  value       = length(apm_web_workers.front.workers)
}
