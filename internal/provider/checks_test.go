package provider

import (
	"context"
	"fmt"
	"testing"
	"time"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/apmsim/apmsimtest"
)

// checkStatus is a plan check: the check block named has the status the manager's data
// calls for, computed by want at plan time.
type checkStatus struct {
	name string
	want func() (bool, error) // true: the condition holds, the check passes
}

func (c checkStatus) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	holds, err := c.want()
	if err != nil {
		resp.Error = err
		return
	}
	want := tfjson.CheckStatusFail
	if holds {
		want = tfjson.CheckStatusPass
	}
	for _, r := range req.Plan.Checks {
		if r.Address.Kind == tfjson.CheckKindCheckBlock && r.Address.Name == c.name {
			if r.Status != want {
				resp.Error = fmt.Errorf("check %s is %s, want %s", c.name, r.Status, want)
			}
			return
		}
	}
	resp.Error = fmt.Errorf("the plan has no result of check %s", c.name)
}

// The check blocks of examples/checks warn exactly when their condition holds in the
// manager: a license expiring within 30 days, a WAS server not running, a node above 90 %
// disk. Each is made to fail and to pass.
func TestAccHealthChecks_example(t *testing.T) {
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	// A fixed clock makes the metrics the provider reads those the test reads; without a
	// transition delay a started server runs at once under it.
	env := newAccEnvWith(t, apmsimtest.WithClock(func() time.Time { return now }), apmsimtest.WithTransitionDelay(-1))
	cfg := env.config(exampleConfig(t, "checks"))
	// apmsim plans a node's license from its number: the first node's expires in 20 days,
	// the second's in a year.
	health := env.name("health")
	env.must(env.admin.CreateSystem(env.ctx(), health))
	env.createNode(health, "app-01", "10.0.0.21", 7730)
	env.createNode(health, "app-02", "10.0.0.22", 7731)
	was := apm.ServerRef{Kind: apm.KindWAS, ServerID: "was-1", NodeName: "app-02", SystemName: health}
	env.must(env.admin.InstallServer(env.ctx(), apm.KindWAS, apm.ServerSpec{ServerID: was.ServerID, NodeName: was.NodeName, SystemName: health, HTTPPort: 8080}))

	licensesHold := func() (bool, error) {
		licenses, err := env.admin.ListLicenses(env.ctx())
		if err != nil {
			return false, err
		}
		for _, l := range licenses {
			if l.ExpireDate.IsZero() {
				return false, fmt.Errorf("license of %s: expiry %q unreadable", l.NodeName, l.ExpireDate.Raw)
			}
			if l.ExpireDate.Time.Sub(now.Truncate(24*time.Hour)) < 30*24*time.Hour {
				return false, nil
			}
		}
		return true, nil
	}
	serversHold := func() (bool, error) {
		s, err := env.admin.GetServer(env.ctx(), was)
		return err == nil && s.Status == "running", err
	}
	diskBelow := func(limit float64) func() (bool, error) {
		return func() (bool, error) {
			nodes, err := env.admin.NodeMetricsList(env.ctx())
			if err != nil {
				return false, err
			}
			for _, n := range nodes {
				if n.DiskUsage > limit {
					return false, nil
				}
			}
			return true, nil
		}
	}
	checks := func(diskLimit float64) resource.ConfigPlanChecks {
		return resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
			checkStatus{"licenses_valid_for_30_days", licensesHold},
			checkStatus{"was_servers_running", serversHold},
			checkStatus{"node_disk_below_limit", diskBelow(diskLimit)},
		}}
	}
	mustFail := func(name string, holds func() (bool, error)) func() {
		return func() {
			if ok, err := holds(); ok || err != nil {
				t.Fatalf("arrangement: %s should fail now (%v)", name, err)
			}
		}
	}
	env.test([]resource.TestStep{
		{
			// app-01's license expires in 20 days and was-1 is stopped: both warn.
			PreConfig: func() {
				mustFail("the license check", licensesHold)()
				mustFail("the server check", serversHold)()
			},
			Config:           cfg,
			ConfigPlanChecks: checks(90),
			// The data sources of check blocks are read again in every plan: never empty.
			ExpectNonEmptyPlan: true,
		},
		{
			// app-01 is gone and was-1 runs: both pass.
			PreConfig: func() {
				env.deleteNode(health, "app-01")
				env.must(env.admin.StartServer(env.ctx(), was))
				if ok, err := serversHold(); !ok || err != nil {
					t.Fatalf("arrangement: was-1 should run now (%v)", err)
				}
			},
			Config:           cfg,
			ConfigPlanChecks: checks(90),
			// The data sources of check blocks are read again in every plan: never empty.
			ExpectNonEmptyPlan: true,
		},
		{
			// With no room on any disk, the disk check warns.
			Config:             cfg,
			ConfigVariables:    config.Variables{"disk_limit_percent": config.IntegerVariable(0)},
			ConfigPlanChecks:   checks(0),
			ExpectNonEmptyPlan: true,
		},
	})
}
