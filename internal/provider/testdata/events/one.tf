variable "event_id" { type = number }

data "apm_analysis_event" "x" {
  event_id = var.event_id
}
