# Undeploys the application and deploys its archive again, without replacing the
# apm_was_application resource, then waits until it runs. The manager does not report
# the archive, so the action takes it from the resource's arguments.
# Run it with: terraform apply -invoke=action.apm_was_application_redeploy.shop
action "apm_was_application_redeploy" "shop" {
  config {
    application_id   = apm_was_application.shop.id
    source_path      = apm_was_application.shop.source_path
    application_name = apm_was_application.shop.application_name
  }
}
