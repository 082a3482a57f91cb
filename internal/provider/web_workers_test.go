package provider

import (
	"cmp"
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/apmsim/apmsimtest"
)

// webWorkerOf is a worker on WAS server was-<n> of shop/app-01, with the manager's
// default host and AJP port (the node's address and the server's AJP port, 8008+n).
func (e *accEnv) webWorkerOf(n, lbFactor int64) apm.Worker {
	return apm.Worker{ServerID: fmt.Sprintf("was-%d", n), NodeName: "app-01", SystemName: e.name("shop"), Host: "10.0.0.21", AJPPort: 8008 + n, LBFactor: lbFactor}
}

// workersAre compares the web server's workers with want, in any order: the order means
// nothing to the manager or to the provider.
func workersAre(expected ...apm.Worker) func(s *apm.Server) error {
	return func(s *apm.Server) error {
		byServer := func(a, b apm.Worker) int { return cmp.Compare(a.ServerID, b.ServerID) }
		got, wanted := slices.SortedFunc(slices.Values(s.Workers), byServer), slices.SortedFunc(slices.Values(expected), byServer)
		return want(slices.Equal(got, wanted), "workers %+v, want %+v", got, wanted)
	}
}

// wasServerID is the id of WAS server serverID of shop/app-01, the key of its worker.
// It holds the system's id, which the manager gives when the system is created: the
// checks below compute it when they run.
func (e *accEnv) wasServerID(serverID string) string {
	return e.systemID(e.name("shop")) + "/app-01/" + serverID
}

// workerPath is an attribute of the worker on was-<n> in the workers map.
func (e *accEnv) workerPath(n int, attr string) tfjsonpath.Path {
	return tfjsonpath.New("workers").AtMapKey(e.wasServerID(fmt.Sprintf("was-%d", n))).AtMapKey(attr)
}

// planCheckFunc is a plan check built when it runs (once the keys it names are known).
type planCheckFunc func() plancheck.PlanCheck

func (f planCheckFunc) CheckPlan(ctx context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	f().CheckPlan(ctx, req, resp)
}

// plannedWorker checks a planned attribute of the worker on was-<n>.
func (e *accEnv) plannedWorker(n int, attr string, check knownvalue.Check) plancheck.PlanCheck {
	return planCheckFunc(func() plancheck.PlanCheck {
		return plancheck.ExpectKnownValue("apm_web_workers.w", e.workerPath(n, attr), check)
	})
}

// unknownWorker checks that an attribute of the worker on was-<n> is planned unknown: a
// default the manager chooses when the worker is added.
func (e *accEnv) unknownWorker(n int, attr string) plancheck.PlanCheck {
	return planCheckFunc(func() plancheck.PlanCheck {
		return plancheck.ExpectUnknownValue("apm_web_workers.w", e.workerPath(n, attr))
	})
}

// workersInState checks the whole workers map in state: one worker per given worker,
// keyed by its WAS server's id, with its host, AJP port and load-balancing factor.
func (e *accEnv) workersInState(workers ...apm.Worker) statecheck.StateCheck {
	return managerCheck(func(req statecheck.CheckStateRequest) error {
		wanted := map[string]knownvalue.Check{}
		for _, w := range workers {
			wanted[e.wasServerID(w.ServerID)] = knownvalue.ObjectExact(map[string]knownvalue.Check{
				"host": knownvalue.StringExact(w.Host), "ajp_port": knownvalue.Int64Exact(w.AJPPort), "lb_factor": knownvalue.Int64Exact(w.LBFactor),
			})
		}
		resp := &statecheck.CheckStateResponse{}
		statecheck.ExpectKnownValue("apm_web_workers.w", tfjsonpath.New("workers"), knownvalue.MapExact(wanted)).CheckState(context.Background(), req, resp)
		return resp.Error
	})
}

// changedWorkers is a plan check: the plan's change of apm_web_workers.w (with drift, the
// change that the refresh found made outside Terraform) touches exactly the workers of
// the named WAS servers, which the plan JSON names by their keys, the WAS servers' ids.
// A worker whose recorded defaults were planned unknown would count as touched.
type changedWorkers struct {
	env   *accEnv
	drift bool
	was   []string // server ids, such as was-2
}

func (c changedWorkers) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	changes, what := req.Plan.ResourceChanges, "change"
	if c.drift {
		changes, what = req.Plan.ResourceDrift, "drift"
	}
	var wanted []string
	for _, id := range c.was {
		wanted = append(wanted, c.env.wasServerID(id))
	}
	slices.Sort(wanted)
	for _, rc := range changes {
		if rc.Address == "apm_web_workers.w" && rc.Change != nil {
			got := touchedWorkers(rc.Change)
			resp.Error = want(slices.Equal(got, wanted), "the %s of apm_web_workers.w touches the workers %q, want %q", what, got, wanted)
			return
		}
	}
	resp.Error = fmt.Errorf("the plan has no %s of apm_web_workers.w", what)
}

// touchedWorkers are the keys of the workers that a change adds, removes or changes,
// sorted: those whose value before differs from the value after, or that have a value
// unknown after.
func touchedWorkers(ch *tfjson.Change) []string {
	workers := func(v any) map[string]any {
		obj, _ := v.(map[string]any)
		m, _ := obj["workers"].(map[string]any)
		return m
	}
	before, after, unknown := workers(ch.Before), workers(ch.After), workers(ch.AfterUnknown)
	var out []string
	for key := range before {
		if _, kept := after[key]; !kept {
			out = append(out, key)
		}
	}
	for key, v := range after {
		if !reflect.DeepEqual(before[key], v) || anyTrue(unknown[key]) {
			out = append(out, key)
		}
	}
	slices.Sort(out)
	return out
}

// anyTrue reports whether an after_unknown value marks anything unknown.
func anyTrue(v any) bool {
	switch v := v.(type) {
	case bool:
		return v
	case map[string]any:
		for _, e := range v {
			if anyTrue(e) {
				return true
			}
		}
	case []any:
		return slices.ContainsFunc(v, anyTrue)
	}
	return false
}

// The worker map: created over workers set outside Terraform (removed: the map is
// authoritative, and may be empty), filled in place with the manager's defaults, imported,
// changed with a worker replaced by another (the defaults of the one that stays are
// planned as recorded for its WAS server), reordered by the manager without a diff, and
// repaired after a worker was added outside Terraform; destroyed, it leaves the web
// server without workers.
func TestAccWebWorkers_lifecycle(t *testing.T) {
	env := newAccEnv(t)
	shop, web1 := env.name("shop"), env.shopWeb1()
	servers := env.config(tf(t, "web_workers/servers.tf", "system_name", shop))
	// Two workers: on WAS server first with the defaults, on second with a host and a
	// load-balancing factor (null: the default).
	twoWorkers := func(first, second string, secondHost, secondLBFactor any) string {
		return env.config(tf(t, "web_workers/two_workers.tf", "system_name", shop, "first", first, "second", second,
			"second_host", secondHost, "second_lb_factor", secondLBFactor))
	}
	final := twoWorkers("was-3", "was-1", hclNull, 7)
	env.testUntilEmpty([]resource.TestStep{
		{
			Config:           servers,
			ConfigPlanChecks: applied(),
		},
		{
			// Someone set a worker by hand; the empty map is authoritative.
			PreConfig:        func() { env.must(env.admin.SetWorkers(env.ctx(), web1, []apm.Worker{env.webWorkerOf(3, 2)})) },
			Config:           env.config(tf(t, "web_workers/no_workers.tf", "system_name", shop)),
			ConfigPlanChecks: applied(exactActions{"apm_web_workers.w": plancheck.ResourceActionCreate}),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("apm_web_workers.w", tfjsonpath.New("workers"), knownvalue.MapSizeExact(0)),
				statecheck.CompareValuePairs("apm_web_workers.w", tfjsonpath.New("id"), "apm_web_server.w", tfjsonpath.New("id"), compare.ValuesSame()),
			},
			Check: env.checkServer(web1, workersAre()),
		},
		{
			Config: twoWorkers("was-1", "was-2", "10.0.0.99", 5),
			ConfigPlanChecks: applied(
				exactActions{"apm_web_workers.w": plancheck.ResourceActionUpdate},
				env.unknownWorker(1, "host"),
				env.plannedWorker(1, "lb_factor", knownvalue.Int64Exact(1)),
			),
			ConfigStateChecks: []statecheck.StateCheck{
				env.workersInState(env.webWorkerOf(1, 1), apm.Worker{ServerID: "was-2", Host: "10.0.0.99", AJPPort: 8010, LBFactor: 5}),
			},
			Check: env.checkServer(web1, workersAre(env.webWorkerOf(1, 1), apm.Worker{ServerID: "was-2", NodeName: "app-01", SystemName: shop, Host: "10.0.0.99", AJPPort: 8010, LBFactor: 5})),
		},
		{
			// The manager reports every worker attribute: nothing to ignore.
			ResourceName:      "apm_web_workers.w",
			ImportState:       true,
			ImportStateId:     shop + "/app-01/web-1",
			ImportStateVerify: true,
		},
		{
			// was-3 takes was-2's place and was-1 is weighed: was-1's defaults are planned
			// as recorded for it (the 10.0.0.99 written for was-2 goes with was-2), and only
			// was-3's are unknown.
			Config: final,
			ConfigPlanChecks: applied(
				exactActions{"apm_web_workers.w": plancheck.ResourceActionUpdate},
				env.unknownWorker(3, "host"),
				env.unknownWorker(3, "ajp_port"),
				env.plannedWorker(1, "host", knownvalue.StringExact("10.0.0.21")),
				env.plannedWorker(1, "ajp_port", knownvalue.Int64Exact(8009)),
				env.plannedWorker(1, "lb_factor", knownvalue.Int64Exact(7)),
			),
			Check: env.checkServer(web1, workersAre(env.webWorkerOf(3, 1), env.webWorkerOf(1, 7))),
		},
		{
			// The manager answers in another order: no diff.
			PreConfig: func() {
				env.must(env.admin.SetWorkers(env.ctx(), web1, []apm.Worker{env.webWorkerOf(3, 1), env.webWorkerOf(1, 7)}))
			},
			Config:   final,
			PlanOnly: true,
		},
		{
			// A worker added outside Terraform shows, and apply removes it.
			PreConfig: func() {
				env.must(env.admin.SetWorkers(env.ctx(), web1, []apm.Worker{env.webWorkerOf(1, 7), env.webWorkerOf(2, 1), env.webWorkerOf(3, 1)}))
			},
			Config: final,
			ConfigPlanChecks: applied(
				exactActions{"apm_web_workers.w": plancheck.ResourceActionUpdate},
				changedWorkers{env: env, was: []string{"was-2"}},
				plancheck.ExpectKnownValue("apm_web_workers.w", tfjsonpath.New("workers"), knownvalue.MapSizeExact(2)),
			),
			Check: env.checkServer(web1, workersAre(env.webWorkerOf(3, 1), env.webWorkerOf(1, 7))),
		},
		{
			// Destroying the map (the servers stay) removes every worker.
			Config:           servers,
			ConfigPlanChecks: applied(exactActions{"apm_web_workers.w": plancheck.ResourceActionDestroy}),
			Check:            env.checkServer(web1, workersAre()),
		},
	})
}

// Workers are keyed by their WAS server: written in another order they plan no change
// (as a list they planned an update that swapped every attribute by position); a changed
// worker, one added and one removed each plan an in-place update that touches that
// worker alone, named by its WAS server's id, while the others keep the defaults recorded
// for them; a worker removed outside Terraform shows as drift of that worker and apply
// adds it again. Every apply is followed by an empty refresh-only plan.
func TestAccWebWorkers_keyedByWASServer(t *testing.T) {
	env := newAccEnv(t)
	shop, web1 := env.name("shop"), env.shopWeb1()
	three := func(file string, lbFactor2 int) string {
		return env.config(tf(t, file, "system_name", shop, "lb_factor_2", lbFactor2))
	}
	was3 := apm.Worker{ServerID: "was-3", NodeName: "app-01", SystemName: shop, Host: "10.0.0.99", AJPPort: 8011, LBFactor: 1}
	was3InState := apm.Worker{ServerID: "was-3", Host: "10.0.0.99", AJPPort: 8011, LBFactor: 1}
	env.test([]resource.TestStep{
		{
			// Created with everything else: the keys are known only at apply.
			Config:            three("web_workers/three_workers.tf", 2),
			ConfigPlanChecks:  applied(creates("apm_web_workers.w")),
			ConfigStateChecks: []statecheck.StateCheck{env.workersInState(env.webWorkerOf(1, 1), env.webWorkerOf(2, 2), was3InState)},
			Check:             env.checkServer(web1, workersAre(env.webWorkerOf(1, 1), env.webWorkerOf(2, 2), was3)),
		},
		{
			Config:   three("web_workers/three_workers_reordered.tf", 2),
			PlanOnly: true,
		},
		{
			Config: three("web_workers/three_workers.tf", 9),
			ConfigPlanChecks: applied(
				exactActions{"apm_web_workers.w": plancheck.ResourceActionUpdate},
				changedWorkers{env: env, was: []string{"was-2"}},
				env.plannedWorker(2, "lb_factor", knownvalue.Int64Exact(9)),
			),
			ConfigStateChecks: []statecheck.StateCheck{env.workersInState(env.webWorkerOf(1, 1), env.webWorkerOf(2, 9), was3InState)},
			Check:             env.checkServer(web1, workersAre(env.webWorkerOf(1, 1), env.webWorkerOf(2, 9), was3)),
		},
		{
			// was-2 removed.
			Config: env.config(tf(t, "web_workers/two_workers.tf", "system_name", shop, "first", "was-1", "second", "was-3",
				"second_host", "10.0.0.99", "second_lb_factor", hclNull)),
			ConfigPlanChecks: applied(
				exactActions{"apm_web_workers.w": plancheck.ResourceActionUpdate},
				changedWorkers{env: env, was: []string{"was-2"}},
			),
			ConfigStateChecks: []statecheck.StateCheck{env.workersInState(env.webWorkerOf(1, 1), was3InState)},
			Check:             env.checkServer(web1, workersAre(env.webWorkerOf(1, 1), was3)),
		},
		{
			// was-2 added again: its defaults are the manager's to choose.
			Config: three("web_workers/three_workers.tf", 2),
			ConfigPlanChecks: applied(
				exactActions{"apm_web_workers.w": plancheck.ResourceActionUpdate},
				changedWorkers{env: env, was: []string{"was-2"}},
				env.unknownWorker(2, "host"),
				env.unknownWorker(2, "ajp_port"),
			),
			ConfigStateChecks: []statecheck.StateCheck{env.workersInState(env.webWorkerOf(1, 1), env.webWorkerOf(2, 2), was3InState)},
			Check:             env.checkServer(web1, workersAre(env.webWorkerOf(1, 1), env.webWorkerOf(2, 2), was3)),
		},
		{
			// Someone removed was-1 by hand: the refresh shows it gone, and apply adds it.
			PreConfig: func() {
				env.must(env.admin.SetWorkers(env.ctx(), web1, []apm.Worker{env.webWorkerOf(2, 2), was3}))
			},
			Config: three("web_workers/three_workers.tf", 2),
			ConfigPlanChecks: applied(
				changedWorkers{env: env, drift: true, was: []string{"was-1"}},
				exactActions{"apm_web_workers.w": plancheck.ResourceActionUpdate},
				changedWorkers{env: env, was: []string{"was-1"}},
			),
			ConfigStateChecks: []statecheck.StateCheck{env.workersInState(env.webWorkerOf(1, 1), env.webWorkerOf(2, 2), was3InState)},
			Check:             env.checkServer(web1, workersAre(env.webWorkerOf(1, 1), env.webWorkerOf(2, 2), was3)),
		},
		{
			ResourceName:      "apm_web_workers.w",
			ImportState:       true,
			ImportStateId:     shop + "/app-01/web-1",
			ImportStateVerify: true,
		},
	})
}

// A terse manager does not report workers or URI patterns: state keeps what was applied,
// with the defaults the manager chose looked up, and no false drift.
func TestAccWebWorkers_terseManagerKeepsApplied(t *testing.T) {
	env := newAccEnvWith(t, apmsimtest.WithOmitOptionalFields())
	web1 := env.shopWeb1()
	env.testUntilEmpty([]resource.TestStep{
		{
			Config:           env.config(tf(t, "web_workers/terse_manager.tf", "system_name", env.name("shop"))),
			ConfigPlanChecks: applied(),
			ConfigStateChecks: []statecheck.StateCheck{
				env.workersInState(env.webWorkerOf(1, 3)),
				statecheck.ExpectKnownValue("apm_web_uri_patterns.u", tfjsonpath.New("patterns"), knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact("/api/*")})),
			},
			Check: resource.ComposeAggregateTestCheckFunc(
				env.checkServer(web1, func(s *apm.Server) error {
					return want(!s.Reported.Workers && !s.Reported.URIs, "the manager reports workers or URIs: the test proves nothing")
				}),
				// The manager does not show the worker, but it refuses to uninstall its WAS server.
				func(*terraform.State) error {
					err := env.admin.UninstallServer(env.ctx(), env.shopWAS("was-1"))
					return want(apm.IsConflict(err) && strings.Contains(err.Error(), "load balancer worker of web server web-1"),
						"uninstalling was-1: %v, want a conflict because it is a worker", err)
				},
			),
		},
	})
}

// A worker naming a WAS server that neither the configuration nor the manager has, or one
// with no AJP port when the worker sets none, is refused at plan, naming the worker's key
// and what to do, with nothing sent (the PUT of the workers was refused by the manager at
// apply). The worker's own AJP port lets it through, and so does an AJP port that the WAS
// server gets in the same run.
func TestAccWebWorkers_unusableServerRefusedAtPlan(t *testing.T) {
	env := newAccEnv(t)
	sim := env.needsSim("counts the requests the manager received")
	servers := func(wasAJPPort any) string {
		return tf(t, "web_workers/server_without_ajp.tf", "system_name", env.shop(), "was_ajp_port", wasAJPPort)
	}
	worker := func(key hclExpr, ajpPort any) string {
		return tf(t, "web_workers/one_worker.tf", "key", key, "worker_ajp_port", ajpPort)
	}
	noWrites := func() {
		if n := env.writes(); n != 0 {
			t.Errorf("an unusable worker was refused after %d writes, want none", n)
		}
		sim.ResetRequestCounts()
	}
	ownPort := env.webWorkerOf(1, 1)
	ownPort.AJPPort = 8019
	env.test([]resource.TestStep{
		{Config: env.config(servers(hclNull)), ConfigPlanChecks: applied()},
		{
			PreConfig: sim.ResetRequestCounts,
			Config:    env.config(servers(hclNull) + worker(`"${apm_node.app.id}/was-9"`, 8009)),
			ExpectError: errorMatching("Unknown WAS server", `/app-01/was-9" names a WAS server that the manager does not have`,
				"Server not found: was-9", "this configuration declares none", "(apm_was_server.example.id) = {}", "or correct the key"),
		},
		{
			PreConfig: noWrites,
			Config:    env.config(servers(hclNull) + worker("apm_was_server.a.id", hclNull)),
			ExpectError: errorMatching("WAS server without an AJP port",
				fmt.Sprintf(`/app-01/was-1" forwards to WAS server "was-1" on node "app-01" of system %q over AJP`, env.shop()),
				"has no AJP port and the worker sets no ajp_port", "Give the WAS server an ajp_port", "or set ajp_port in this worker"),
		},
		{
			PreConfig:        noWrites,
			Config:           env.config(servers(hclNull) + worker("apm_was_server.a.id", 8019)),
			ConfigPlanChecks: applied(creates("apm_web_workers.w")),
			Check:            env.checkServer(env.shopRef(apm.KindWeb, "web-1"), workersAre(ownPort)),
		},
		{Config: env.config(servers(hclNull)), ConfigPlanChecks: applied()},
		{
			Config:           env.config(servers(8009) + worker("apm_was_server.a.id", hclNull)),
			ConfigPlanChecks: applied(updates("apm_was_server.a"), creates("apm_web_workers.w")),
			Check:            env.checkServer(env.shopRef(apm.KindWeb, "web-1"), workersAre(env.webWorkerOf(1, 1))),
		},
	})
}
