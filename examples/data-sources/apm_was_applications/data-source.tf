# The applications deployed on one WAS server, sorted by context path (an error if the
# server does not exist).
data "apm_was_applications" "was1" {
  system_name = "shop-prod"
  node_name   = "app-01"
  server_id   = "was-1"
}

# Status and session count change all the time, so they are read here rather than managed
# by apm_was_application.
output "sessions_by_context_path" {
  value = { for a in data.apm_was_applications.was1.applications : a.context_path => a.sessions }
}
