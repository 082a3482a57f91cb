# The stack trace of the newest analysis event.
data "apm_analysis_events" "all" {}

data "apm_analysis_event" "newest" {
  count    = length(data.apm_analysis_events.all.events) > 0 ? 1 : 0
  event_id = data.apm_analysis_events.all.events[0].event_id
}

output "newest_stack_trace" {
  value = one(data.apm_analysis_event.newest[*].stack_trace)
}
