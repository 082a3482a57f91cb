package provider

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
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

// workersAre compares the web server's workers, in order, with want.
func workersAre(expected ...apm.Worker) func(s *apm.Server) error {
	return func(s *apm.Server) error {
		return want(slices.Equal(s.Workers, expected), "workers %+v, want %+v", s.Workers, expected)
	}
}

func workerPath(i int, attr string) tfjsonpath.Path {
	return tfjsonpath.New("workers").AtSliceIndex(i).AtMapKey(attr)
}

// The worker list: created over workers set outside Terraform (removed: the list is
// authoritative, and may be empty), filled in place with the manager's defaults, imported,
// changed with a worker inserted before others (whose defaults stay planned, by WAS server
// rather than by position), reordered by the manager without a diff, and repaired after a
// worker was added outside Terraform; destroyed, it leaves the web server without workers.
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
	final := twoWorkers("was-3", "was-1", hclExpr("null"), 7)
	wasID := func(n int) knownvalue.Check {
		return knownvalue.StringFunc(func(v string) error {
			return want(strings.HasSuffix(v, fmt.Sprintf("/app-01/was-%d", n)) && strings.HasPrefix(v, env.systemID(shop)+"/"), "was_server_id %q", v)
		})
	}
	env.testUntilEmpty([]resource.TestStep{
		{
			Config:           servers,
			ConfigPlanChecks: applied(),
		},
		{
			// Someone set a worker by hand; the empty list is authoritative.
			PreConfig:        func() { env.must(env.admin.SetWorkers(env.ctx(), web1, []apm.Worker{env.webWorkerOf(3, 2)})) },
			Config:           env.config(tf(t, "web_workers/no_workers.tf", "system_name", shop)),
			ConfigPlanChecks: applied(exactActions{"apm_web_workers.w": plancheck.ResourceActionCreate}),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("apm_web_workers.w", tfjsonpath.New("workers"), knownvalue.ListSizeExact(0)),
				statecheck.CompareValuePairs("apm_web_workers.w", tfjsonpath.New("id"), "apm_web_server.w", tfjsonpath.New("id"), compare.ValuesSame()),
			},
			Check: env.checkServer(web1, workersAre()),
		},
		{
			Config: twoWorkers("was-1", "was-2", "10.0.0.99", 5),
			ConfigPlanChecks: applied(
				exactActions{"apm_web_workers.w": plancheck.ResourceActionUpdate},
				plancheck.ExpectUnknownValue("apm_web_workers.w", workerPath(0, "host")),
				plancheck.ExpectKnownValue("apm_web_workers.w", workerPath(0, "lb_factor"), knownvalue.Int64Exact(1)),
			),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("apm_web_workers.w", tfjsonpath.New("workers"), knownvalue.ListExact([]knownvalue.Check{
					knownvalue.ObjectExact(map[string]knownvalue.Check{
						"was_server_id": wasID(1), "host": knownvalue.StringExact("10.0.0.21"), "ajp_port": knownvalue.Int64Exact(8009), "lb_factor": knownvalue.Int64Exact(1),
					}),
					knownvalue.ObjectExact(map[string]knownvalue.Check{
						"was_server_id": wasID(2), "host": knownvalue.StringExact("10.0.0.99"), "ajp_port": knownvalue.Int64Exact(8010), "lb_factor": knownvalue.Int64Exact(5),
					}),
				})),
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
			// was-3 goes in front of was-1: was-1's defaults are planned as recorded (by
			// position they would be was-2's 10.0.0.99), and only was-3's are unknown.
			Config: final,
			ConfigPlanChecks: applied(
				exactActions{"apm_web_workers.w": plancheck.ResourceActionUpdate},
				plancheck.ExpectUnknownValue("apm_web_workers.w", workerPath(0, "host")),
				plancheck.ExpectUnknownValue("apm_web_workers.w", workerPath(0, "ajp_port")),
				plancheck.ExpectKnownValue("apm_web_workers.w", workerPath(1, "host"), knownvalue.StringExact("10.0.0.21")),
				plancheck.ExpectKnownValue("apm_web_workers.w", workerPath(1, "ajp_port"), knownvalue.Int64Exact(8009)),
				plancheck.ExpectKnownValue("apm_web_workers.w", workerPath(1, "lb_factor"), knownvalue.Int64Exact(7)),
			),
			Check: env.checkServer(web1, workersAre(env.webWorkerOf(3, 1), env.webWorkerOf(1, 7))),
		},
		{
			// The manager answers in another order: no diff.
			PreConfig: func() {
				env.must(env.admin.SetWorkers(env.ctx(), web1, []apm.Worker{env.webWorkerOf(1, 7), env.webWorkerOf(3, 1)}))
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
				plancheck.ExpectKnownValue("apm_web_workers.w", tfjsonpath.New("workers"), knownvalue.ListSizeExact(2)),
				plancheck.ExpectKnownValue("apm_web_workers.w", workerPath(0, "was_server_id"), wasID(3)),
			),
			Check: env.checkServer(web1, workersAre(env.webWorkerOf(3, 1), env.webWorkerOf(1, 7))),
		},
		{
			// Destroying the list (the servers stay) removes every worker.
			Config:           servers,
			ConfigPlanChecks: applied(exactActions{"apm_web_workers.w": plancheck.ResourceActionDestroy}),
			Check:            env.checkServer(web1, workersAre()),
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
				statecheck.ExpectKnownValue("apm_web_workers.w", workerPath(0, "host"), knownvalue.StringExact("10.0.0.21")),
				statecheck.ExpectKnownValue("apm_web_workers.w", workerPath(0, "ajp_port"), knownvalue.Int64Exact(8009)),
				statecheck.ExpectKnownValue("apm_web_workers.w", workerPath(0, "lb_factor"), knownvalue.Int64Exact(3)),
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

// ---- without a CLI ----

// A validator that runs at plan.
func TestWebWorkersRefuseAWASServerListedTwice(t *testing.T) {
	ctx := context.Background()
	obj := types.ObjectType{AttrTypes: map[string]attr.Type{"was_server_id": types.StringType, "host": types.StringType, "ajp_port": types.Int64Type, "lb_factor": types.Int64Type}}
	worker := func(id string) attr.Value {
		return types.ObjectValueMust(obj.AttrTypes, map[string]attr.Value{
			"was_server_id": types.StringValue(id), "host": types.StringNull(), "ajp_port": types.Int64Null(), "lb_factor": types.Int64Value(1),
		})
	}
	for _, tc := range []struct {
		ids  []string
		errs int
	}{{[]string{"S/n/a", "S/n/b"}, 0}, {[]string{"S/n/a", "S/n/b", "S/n/a"}, 1}, {nil, 0}} {
		elems := []attr.Value{}
		for _, id := range tc.ids {
			elems = append(elems, worker(id))
		}
		var resp validator.ListResponse
		uniqueWorkersValidator{}.ValidateList(ctx, validator.ListRequest{Path: path.Root("workers"), ConfigValue: types.ListValueMust(obj, elems)}, &resp)
		if resp.Diagnostics.ErrorsCount() != tc.errs {
			t.Errorf("%v: %d errors, want %d: %v", tc.ids, resp.Diagnostics.ErrorsCount(), tc.errs, resp.Diagnostics)
		}
		if tc.errs > 0 && !strings.Contains(resp.Diagnostics[0].Detail(), "workers[0] and workers[2]") {
			t.Errorf("the error must name both positions: %s", resp.Diagnostics[0].Detail())
		}
	}
}
