package provider

import (
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
)

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
