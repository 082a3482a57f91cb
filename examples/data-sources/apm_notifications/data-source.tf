# The 20 newest notifications of the last hour. Use interval or date_time, not both.
data "apm_notifications" "last_hour" {
  interval = 60
  limit    = 20
}

# The notifications since a time of the manager's clock (yyyyMMddHHmmss, its local time).
data "apm_notifications" "since" {
  date_time = "20240601000000"
}

output "critical" {
  value = [
    for n in data.apm_notifications.last_hour.notifications :
    "${n.created_at_rfc3339} ${n.target_name}: ${n.message}" if n.type == "CRITICAL"
  ]
}
