# Applies the module against a manager: apmsim in CI (docs/guides/testing-modules.md). The
# provider takes its connection settings from the environment (APM_ENDPOINT, APM_API_KEY,
# APM_CA_CERT_PEM). `terraform test` destroys what the runs created when it ends.
# Needs Terraform 1.6 or later, or OpenTofu 1.6 or later.

variables {
  system_name = "kit-shop"
}

run "creates_the_platform" {
  assert {
    condition     = length(apm_node.this) == 3
    error_message = "every entry of nodes is a node"
  }

  assert {
    condition     = apm_node.this["app-01"].system_id == apm_system.this.id
    error_message = "the nodes belong to the module's system"
  }

  assert {
    condition     = output.worker_count == 2
    error_message = "the web server balances over both WAS servers"
  }

  assert {
    condition     = alltrue([for id in values(output.was_server_ids) : contains(keys(apm_web_workers.front.workers), id)])
    error_message = "the workers are keyed by the WAS servers' ids"
  }
}

run "scales_in" {
  variables {
    was_servers = { "was-1" = "app-01" }
    lb_factor   = 2
  }

  assert {
    condition     = length(apm_web_workers.front.workers) == 1 && contains(keys(apm_web_workers.front.workers), apm_was_server.this["was-1"].id)
    error_message = "removing was-2 removes its worker"
  }

  assert {
    condition     = apm_web_workers.front.workers[apm_was_server.this["was-1"].id].lb_factor == 2
    error_message = "lb_factor reaches the worker"
  }
}

run "rejects_a_bad_system_name" {
  command = plan

  variables {
    system_name = "Shop Prod"
  }

  expect_failures = [var.system_name]
}
