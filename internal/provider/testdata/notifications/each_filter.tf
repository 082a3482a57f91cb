variable "later_than" { type = string }

data "apm_notifications" "all" {}

data "apm_notifications" "newest" {
  limit = 1
}

data "apm_notifications" "recent" {
  interval = 1440
}

data "apm_notifications" "later" {
  date_time = var.later_than
}
