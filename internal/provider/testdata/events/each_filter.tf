variable "today" { type = string }
variable "tomorrow" { type = string }

data "apm_analysis_events" "all" {}

data "apm_analysis_events" "oom" {
  event_type = "oom"
}

data "apm_analysis_events" "shop" {
  system_name = "shop"
}

data "apm_analysis_events" "today" {
  start_date = var.today
  end_date   = var.today
}

data "apm_analysis_events" "tomorrow" {
  start_date = var.tomorrow
}

data "apm_analysis_event" "newest" {
  event_id = data.apm_analysis_events.all.events[0].event_id
}
