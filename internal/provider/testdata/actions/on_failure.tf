variable "refused_server_id" { type = string }
variable "later_server_id" { type = string }
variable "on_failure" { type = string }

# An action that fails (the manager refuses to start web-1) followed by one that works
# (starting session-1), triggered when terraform_data.trigger is created, with the
# on_failure mode under test (Terraform 1.16); terraform_data.downstream depends on the
# triggering resource.

action "apm_web_server_start" "refused" {
  config {
    server_id = var.refused_server_id
  }
}

action "apm_session_server_start" "later" {
  config {
    server_id = var.later_server_id
  }
}

resource "terraform_data" "trigger" {
  input = "first"

  lifecycle {
    action_trigger {
      events     = [after_create]
      actions    = [action.apm_web_server_start.refused, action.apm_session_server_start.later]
      on_failure = var.on_failure
    }
  }
}

resource "terraform_data" "downstream" {
  input = terraform_data.trigger.output
}
