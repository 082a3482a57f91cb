# The out-of-memory events of the servers of system "shop" in June 2024 (days of the
# manager's clock, both included).
data "apm_analysis_events" "shop_oom" {
  system_name = "shop"
  event_type  = "oom" # stuckthread, oom, fullgc or error
  start_date  = "20240601"
  end_date    = "20240630"
}

output "shop_oom_servers" {
  value = distinct([for e in data.apm_analysis_events.shop_oom.events : e.server_name])
}
