package provider

import (
	"maps"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"

	"github.com/apmplatform/terraform-provider-apm/internal/apmsim"
)

const (
	systemList = "GET /rest/systems"
	systemRead = "GET /rest/systems/{systemName}"
	nodeRead   = "GET /rest/nodes/{nodeName}/systems/{systemName}"
)

// A refresh costs one GET per managed object, plus the one list of the systems with which
// each provider start checks the connection (and learns the systems' names): no other
// list calls, no writes, no second read of the same object.
func TestAccRefresh_oneGetPerObject(t *testing.T) {
	const nodes = 5
	env := newAccEnv(t)
	sim := env.needsSim("counts the requests of a refresh")
	config := env.config(fleetConfig(t, env.name("fleet"), nodes))
	env.test([]resource.TestStep{
		{Config: config, ConfigPlanChecks: applied()},
		{
			PreConfig:    sim.ResetRequestCounts,
			RefreshState: true,
		},
		{
			PreConfig: func() {
				// The harness refreshes more than once in a refresh step (refresh, then
				// plan), so compare per pass: each pass reads the system once and each
				// node once, and its provider start lists the systems once.
				got, lists, passes, want := refreshCounts(sim, nodes)
				if passes == 0 || !maps.Equal(got, want) {
					t.Errorf("refreshing 1 system and %d nodes made %v (and %d lists); want only %v", nodes, got, lists, want)
				}
				if lists > passes {
					t.Errorf("%d refresh passes listed the systems %d times; want at most once per pass", passes, lists)
				}
			},
			Config:   config,
			PlanOnly: true,
		},
	})
}

// After someone renamed the system, the nodes' refresh still costs one GET each: the
// provider start's list of the systems knows the new name.
func TestAccRefresh_afterRenameOutOfBand(t *testing.T) {
	const nodes = 3
	env := newAccEnv(t)
	sim := env.needsSim("counts the requests of a refresh")
	fleet := env.name("fleet")
	config := env.config(fleetConfig(t, fleet, nodes))
	env.test([]resource.TestStep{
		{Config: config, ConfigPlanChecks: applied()},
		{
			PreConfig: func() {
				env.must(env.admin.RenameSystem(env.ctx(), fleet, env.name("fleet-old")))
				sim.ResetRequestCounts()
			},
			RefreshState:       true,
			ExpectNonEmptyPlan: true, // the system is to be renamed back
		},
		{
			PreConfig: func() {
				// Per pass: one GET of the system (the first by its old name, a 404, and one
				// more list of the systems to find it by id), one GET per node.
				got, lists, passes, want := refreshCounts(sim, nodes)
				if passes == 0 || !maps.Equal(got, want) || lists > 2*passes {
					t.Errorf("refreshing after a rename made %v and %d lists; want %v and at most %d lists", got, lists, want, 2*passes)
				}
			},
			Config:           config,
			ConfigPlanChecks: applied(exactActions{"apm_system.test": plancheck.ResourceActionUpdate}),
			Check:            env.checkSystems(fleet),
		},
	})
}

// refreshCounts splits apmsim's request counts since the last reset into the lists of the
// systems and the rest, and gives what the rest must be for refreshes of 1 system and n
// nodes: per pass (one per system GET), one GET of the system and one per node.
func refreshCounts(sim *apmsim.Sim, n int) (got map[string]int, lists, passes int, want map[string]int) {
	got = sim.RequestCounts()
	lists, passes = got[systemList], got[systemRead]
	delete(got, systemList)
	return got, lists, passes, map[string]int{systemRead: passes, nodeRead: n * passes}
}
