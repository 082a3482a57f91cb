variable "interval" { type = number }
variable "date_time" { type = string }
variable "limit" { type = number }

# The variables may be null, which leaves their argument out.
data "apm_notifications" "x" {
  interval  = var.interval
  date_time = var.date_time
  limit     = var.limit
}
