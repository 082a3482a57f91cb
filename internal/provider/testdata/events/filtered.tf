variable "event_type" { type = string }
variable "start_date" { type = string }
variable "end_date" { type = string }

# The variables may be null, which leaves their argument out.
data "apm_analysis_events" "x" {
  event_type = var.event_type
  start_date = var.start_date
  end_date   = var.end_date
}
