#!/usr/bin/env bash
# Runs the chaos tests (internal/chaos, build tag chaos) on a real CLI: applies (and destroys) of
# 171 objects of every resource type (systems, nodes, servers, and three topologies of web
# servers balancing over WAS servers with all their parts, databases, datasources, users and
# roles) against an in-process apmsim over HTTPS with 5xx and lost answers, Ctrl-C and SIGKILL
# mid-apply, the manager out of reach for 20 s mid-apply (an outage), and a day-two scale-in and
# replacement of balanced WAS servers under faults. Each scenario, and each day-two change,
# prints one line: "chaos <scenario> PASS|FAIL runs=.. orphans=.. duplicates=.. mismatches=..
# objects=.. plan_exit=.. left=.. wall=.." (runs: CLI
# runs so far; mismatches: servers whose port, server_type or running state, or parts whose
# value, differ between state and manager; left: what a destroy left in the manager and the
# state; ?: not measured). The outage prints one more, "chaos outage/down down_at=..
# down_for=.. cut=.. apply=.. recovered=.. lost_waits=.. tainted=.. held_tainted=.. plan:
# creates=.. updates=.. replacements=.. deletes=.." (when the manager went down, for how long,
# the connections cut, how the apply ended, its creates and waits that met the outage and were
# recorded all the same, the resources tainted and of them those the manager has, and what the
# next plan does).
#
# Environment:
#   CHAOS_TF    the CLI to run (default .clis/tofu, OpenTofu 1.12.6, built here when missing)
#   CHAOS_RUN   -run pattern (default: every test of the package)
#   CHAOS_SEED  seeds the fault rules differently (default: defaultSeed in internal/chaos/sim_test.go)
#   CHAOS_LOGS  a directory to keep each scenario's CLI logs and state in
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
# A relative CHAOS_TF names a path from where the caller stands.
if [ -n "${CHAOS_TF:-}" ] && [[ "$CHAOS_TF" != /* ]]; then
  CHAOS_TF="$PWD/$CHAOS_TF"
  export CHAOS_TF
fi
cd "$repo"

if [ -z "${CHAOS_TF:-}" ]; then
  scripts/install-clis.sh tofu # a no-op when the cached binary is there
fi

# The tests give the CLI an environment of its own; these settings would reach go test itself
# (OpenTofu warns on stdout about a TF_CLI_CONFIG_FILE that names a missing file).
exec env -u TF_ACC -u TF_CLI_CONFIG_FILE -u TF_LOG CHECKPOINT_DISABLE=1 \
  go test -tags chaos -count=1 -v -timeout 6m -run "${CHAOS_RUN:-.}" ./internal/chaos/
