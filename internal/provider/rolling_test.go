package provider

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/apmplatform/terraform-provider-apm/internal/apmsim/apmsimtest"
	"github.com/apmplatform/terraform-provider-apm/internal/clifeatures"
)

// The rolling operations against a manager whose servers and applications take time to
// start (rollingDelay): testdata/rolling/cluster.tf's four WAS servers behind two web
// servers, sampled while each roll runs (rolling_sampler_test.go).

// rollingDelay is how long a server starts or stops, and how long its applications then
// deploy: long enough that the sampler sees every server out of service.
const rollingDelay = 300 * time.Millisecond

func newRollingEnv(t *testing.T) *accEnv {
	return newAccEnvWith(t, apmsimtest.WithTransitionDelay(rollingDelay))
}

// rollout is testdata/rolling/rollout.tf.
func rollout(t *testing.T, env *accEnv, operation string, batch int, release, healthyTimeout string) string {
	return env.config(tf(t, "rolling/rollout.tf", "operation", operation, "batch_size", batch, "release", release, "healthy_timeout", healthyTimeout))
}

// apm_was_rollout rolls when it is created and when its triggers change, and at no other
// time: a change of another argument is recorded without a roll, and the plan after each
// apply is empty.
func TestAccWASRollout_rollsOnTriggersOnly(t *testing.T) {
	env := newRollingEnv(t)
	var watch *rollSampler
	watching := func() { watch = watchRoll(t, env) }
	runAcc(t, nil, []resource.TestStep{
		{Config: env.config(tf(t, "rolling/cluster.tf"))},
		{
			// Created: a restart one server at a time.
			PreConfig: watching,
			Config:    rollout(t, env, "restart", 1, "1", "1m"),
			ConfigStateChecks: []statecheck.StateCheck{sampled(func() { watch.finish(1).rolledEach() }), attrMatches("apm_was_rollout.cluster", "last_outcome",
				regexp.MustCompile(`^restarted 4 WAS servers in 4 batches of at most 1: "was-1", "was-2", "was-3", "was-4"$`))},
		},
		{
			// Another batch size alone: recorded, nothing rolls.
			PreConfig:        watching,
			Config:           rollout(t, env, "restart", 2, "1", "1m"),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{updates("apm_was_rollout.cluster")}},
			ConfigStateChecks: []statecheck.StateCheck{sampled(func() {
				watch.finish(0)
				was, _ := rollingRefs()
				watch.untouched(was...)
			})},
		},
		{RefreshState: true},
		{
			// A new release: a redeploy of /shop two servers at a time.
			PreConfig: watching,
			Config:    rollout(t, env, "redeploy", 2, "2", "1m"),
			ConfigStateChecks: []statecheck.StateCheck{sampled(func() { watch.finish(2).rolledEach() }), attrMatches("apm_was_rollout.cluster", "last_outcome",
				regexp.MustCompile(`^redeployed "/shop" on 4 WAS servers in 2 batches of at most 2`))},
		},
	})
}

// A server that does not come back stops the roll: it is left out of its load
// balancers, the earlier servers serve again, the later ones are not touched, and the
// error says so. Once the server can start again, the next apply carries on where the
// roll stopped: the server first, then the rest, and not the servers it had done; then
// everything serves as before.
func TestAccWASRollout_failedServerStopsTheRoll(t *testing.T) {
	env := newRollingEnv(t)
	was, _ := rollingRefs()
	var watch *rollSampler
	runAcc(t, nil, []resource.TestStep{
		{Config: env.config(tf(t, "rolling/cluster.tf"))},
		{Config: rollout(t, env, "restart", 1, "1", "1m")},
		{
			PreConfig: func() {
				env.must(env.sim.Sim.FailStarts("was", true, "was-3@app-01/shop"))
				watch = watchRoll(t, env)
			},
			Config: rollout(t, env, "restart", 1, "2", "2s"),
			ExpectError: errorMatching(`WAS server "was-3" on node "app-01" of system "shop" did not become healthy: its start failed (it was starting, then stopped again)`,
				`It is left out of its load balancers`, `Done: restarted "was-1", "was-2", serving again`, `Not done: "was-4", serving as before`,
				`the roll carries on where it stopped`),
		},
		{
			PreConfig: func() {
				watch.finish(1)
				watch.servingAsBefore(was[0], was[1])
				watch.leftOut(was[2])
				watch.untouched(was[3])
				env.must(env.sim.Sim.FailStarts("was", false, "was-3@app-01/shop"))
				watch = watch.again()
			},
			Config: rollout(t, env, "restart", 1, "2", "1m"),
			ConfigStateChecks: []statecheck.StateCheck{sampled(func() {
				watch.finish(1)
				watch.untouched(was[0], was[1])
				watch.rolledOnce(was[3])
				watch.servingAsBefore(was...)
			}), attrMatches("apm_was_rollout.cluster", "last_outcome",
				regexp.MustCompile(`^restarted 4 WAS servers in 2 batches of at most 1: "was-1", "was-2", "was-3", "was-4"$`))},
		},
	})
}

// The rolling actions on a real CLI (Terraform 1.14 and later), invoked with
// `terraform apply -invoke`: a restart two servers at a time and a redeploy one at a
// time, each sampled, and a restart that a server stops.
func TestAccRollingActions_invoked(t *testing.T) {
	cli, _ := needs(t, clifeatures.Actions)
	t.Parallel()
	was, _ := rollingRefs()
	for _, c := range []struct {
		action string
		batch  int
	}{
		{"action.apm_was_servers_rolling_restart.cluster", 2},
		{"action.apm_was_application_rolling_redeploy.shop", 1},
	} {
		t.Run(c.action, func(t *testing.T) {
			t.Parallel()
			env := newRollingEnv(t)
			d := newCLIRun(t, cli, env, tf(t, "rolling/action.tf", "batch_size", c.batch, "healthy_timeout", "1m"))
			d.mustApply("the cluster")
			watch := watchRoll(t, env)
			out, ok := d.invoke(c.action)
			t.Logf("apply -invoke:\n%s", out)
			if !ok {
				t.Fatal("apply -invoke failed")
			}
			watch.finish(c.batch).rolledEach()
			for _, progress := range []string{`Batch 1 of \d: "was-1"`, `Drained WAS server "was-1"`, `Put WAS server "was-1" on node "app-01" of system "shop" back into web server "web-1"`, `WAS server "was-4" on node "app-01" of system "shop" is healthy`} {
				if !regexp.MustCompile(`(?m)^Action ` + regexp.QuoteMeta(c.action) + ` \(triggered by CLI\): .*` + progress).MatchString(out) {
					t.Errorf("the CLI showed no progress matching %q", progress)
				}
			}
		})
	}
	t.Run("failed server", func(t *testing.T) {
		t.Parallel()
		env := newRollingEnv(t)
		d := newCLIRun(t, cli, env, tf(t, "rolling/action.tf", "batch_size", 1, "healthy_timeout", "2s"))
		d.mustApply("the cluster")
		env.must(env.sim.Sim.FailStarts("was", true, "was-2@app-01/shop"))
		watch := watchRoll(t, env)
		const action = "action.apm_was_servers_rolling_restart.cluster"
		out, ok := d.invoke(action)
		t.Logf("apply -invoke:\n%s", out)
		cliError(t, out, ok, `WAS server "was-2" on node "app-01" of system "shop" did not become healthy: its start failed (it was starting, then stopped again)`,
			`Done: restarted "was-1", serving again`, `Not done: "was-3", "was-4", serving as before`, `invoke the action again`)
		watch.finish(1)
		watch.servingAsBefore(was[0])
		watch.leftOut(was[1])
		watch.untouched(was[2], was[3])

		// Invoked again once was-2 can start, the roll carries on: was-2 first, back into
		// its workers where it stood (nothing else puts it back: no apply runs), then
		// was-3 and was-4; was-1 is not restarted again.
		env.must(env.sim.Sim.FailStarts("was", false, "was-2@app-01/shop"))
		watch = watch.again()
		out, ok = d.invoke(action)
		t.Logf("apply -invoke again:\n%s", out)
		if !ok {
			t.Fatal("the second apply -invoke failed")
		}
		watch.finish(1)
		watch.untouched(was[0])
		watch.rolledOnce(was[2], was[3])
		watch.servingAsBefore(was...)
		if !strings.Contains(out, `Carrying on the roll that stopped at WAS server "was-2"`) {
			t.Error("the second invocation did not say that it carries on where the first stopped")
		}
	})
}

// checkRoll refuses at plan a batch that would take every worker of a web server out at
// once, and a server that does not exist.
func TestAccWASRollout_refusedAtPlan(t *testing.T) {
	env := newRollingEnv(t)
	runAcc(t, nil, []resource.TestStep{
		{Config: env.config(tf(t, "rolling/cluster.tf"))},
		{
			Config:      rollout(t, env, "restart", 4, "1", "1m"),
			ExpectError: errorMatching(`batch_size = 4: batch 1 ("was-1", "was-2", "was-3", "was-4") holds every WAS server that web server "web-1"`),
		},
		{
			Config: env.config(tf(t, "rolling/cluster.tf") + `
resource "apm_was_rollout" "missing" {
  operation      = "restart"
  was_server_ids = ["${apm_node.app.id}/was-9"]
}
`),
			ExpectError: errorMatching(`was_server_ids[0] is`, `/app-01/was-9", and the manager has no WAS server "was-9"`),
		},
	})
}
