variable "start_date" { type = string }
variable "end_date" { type = string }

data "apm_action_trace_logs" "x" {
  start_date = var.start_date
  end_date   = var.end_date
}
