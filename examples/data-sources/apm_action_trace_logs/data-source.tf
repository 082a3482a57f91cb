# Who changed what on 1 June 2024 (a day of the manager's clock), and what failed.
data "apm_action_trace_logs" "june_first" {
  start_date = "20240601"
  end_date   = "20240601"
}

output "failed_actions" {
  value = [
    for l in data.apm_action_trace_logs.june_first.logs :
    "${l.created_at_rfc3339} ${l.user_id}: ${l.action}" if l.result == "FAILURE"
  ]
}
