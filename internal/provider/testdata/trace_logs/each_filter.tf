variable "tomorrow" { type = string }

data "apm_action_trace_logs" "all" {}

data "apm_action_trace_logs" "tomorrow" {
  start_date = var.tomorrow
}
