package provider

import (
	"fmt"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/apmsim/apmsimtest"
	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
)

// A node and its server destroyed at once (no reference orders them): the node's delete is
// refused while the server stops, for longer than the grace, and waits, since this
// provider process is deleting the server; then both are gone.
func TestAccNode_destroyWaitsForServerDeletedInParallel(t *testing.T) {
	env := newAccEnvWith(t, apmsimtest.WithTransitionDelay(2*engine.DefaultBlockedGrace))
	shop := env.name("shop")
	env.must(env.admin.CreateSystem(env.ctx(), shop))
	t.Cleanup(func() { _ = env.admin.DeleteSystem(env.ctx(), shop) })
	config := func(withServer bool) string {
		return env.config(tf(t, "node/with_unordered_server.tf", "system_id", env.systemID(shop), "with_server", withServer))
	}
	env.test([]resource.TestStep{
		{Config: config(false), ConfigPlanChecks: applied()},
		{Config: config(true), ConfigPlanChecks: applied()},
		{
			Config:  config(true),
			Destroy: true,
			Check: func(*terraform.State) error {
				n, err := env.admin.GetNode(env.ctx(), shop, "app-01")
				return want(apm.IsNotFound(err), "after the destroy the node is %+v (%v), want it gone", n, err)
			},
		},
	})
}

// A node held by a server that nothing in the run deletes (made outside this
// configuration, as a server imported into another one or at the root is for a destroy
// -target of a module) fails its destroy once the grace has shown that the server stays,
// naming it with its id and what to do, instead of waiting out its 10-minute
// timeouts.delete in silence and naming it only then.
func TestAccNode_destroyHeldFromOutsideFailsAtOnce(t *testing.T) {
	env := newAccEnv(t)
	shop := env.name("shop")
	resources := env.config(tf(t, "system/one.tf", "name", shop) +
		tf(t, "node/delete_timeout.tf", "system_id", testSystemID, "delete_timeout", "10m"))
	was := apm.ServerRef{Kind: apm.KindWAS, ServerID: "was-1", NodeName: "web-01", SystemName: shop}
	var destroyStarted time.Time
	env.testUntilEmpty([]resource.TestStep{
		{Config: resources, ConfigPlanChecks: applied()},
		{
			PreConfig: func() {
				env.must(env.admin.InstallServer(env.ctx(), apm.KindWAS, apm.ServerSpec{ServerID: was.ServerID, NodeName: was.NodeName, SystemName: shop, HTTPPort: 8080}))
				destroyStarted = time.Now()
			},
			Config:  resources,
			Destroy: true,
			ExpectError: errorMatching(`Failed to delete node "web-01"`, `is held by server "was-1"`, "/web-01/was-1)",
				"nothing in this run deletes them", "destroy without -target", "terraform state list -id=<id>"),
		},
		{
			PreConfig: func() {
				// Generous against a slow machine; waiting out the timeout would take 10m.
				if took := time.Since(destroyStarted); took > 3*time.Minute {
					t.Errorf("the refused destroy took %s; its holder stayed the same from the start", took)
				}
				env.must(env.admin.UninstallServer(env.ctx(), was))
			},
			Config:   resources,
			PlanOnly: true,
		},
	})
}

// A WAS server whose datasource was attached outside Terraform fails its destroy once the
// grace has shown that nothing in the run detaches it, instead of waiting out its
// 10-minute timeouts.delete; it is left running.
func TestAccWASServer_destroyHeldFromOutsideFailsAtOnce(t *testing.T) {
	env := newAccEnv(t)
	ds := env.datasourceOutside()
	ref := env.shopRef(apm.KindWAS, "was-1")
	var destroyStarted time.Time
	env.testUntilEmpty([]resource.TestStep{
		{
			Config:           env.serverConfig(apm.KindWAS, "state", "running", "timeouts", hclExpr(`{ delete = "10m" }`)),
			ConfigPlanChecks: applied(),
		},
		{
			PreConfig: func() {
				env.must(env.admin.AttachDatasource(env.ctx(), ref, ds))
				destroyStarted = time.Now()
			},
			Config: env.shopNode(),
			ExpectError: errorMatching(`WAS server "was-1"`, fmt.Sprintf(`is held by datasource %q (apm_was_datasource) (id `, ds), "/app-01/was-1/"+ds+")",
				"nothing in this run deletes them", "destroy without -target", "It was left running"),
		},
		{
			PreConfig: func() {
				// Generous against a slow machine; waiting out the timeout would take 10m.
				if took := time.Since(destroyStarted); took > 3*time.Minute {
					t.Errorf("the refused destroy took %s; its holder stayed the same from the start", took)
				}
				if s, err := env.admin.GetServer(env.ctx(), ref); err != nil || s.Status != "running" {
					t.Errorf("after the refused delete was-1 is %+v (%v), want it running", s, err)
				}
				env.must(env.admin.DetachDatasource(env.ctx(), ref, ds))
			},
			Config:           env.shopNode(),
			ConfigPlanChecks: applied(exactActions{"apm_was_server.a": plancheck.ResourceActionDestroy}),
		},
	})
}
