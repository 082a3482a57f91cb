package provider

import (
	"maps"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
)

// fleetConfig declares one system with n nodes that refer to it by id.
func fleetConfig(n int) string {
	return systemHCL("fleet", "fleet") + fleetNodesHCL("apm_system.fleet.id", n)
}

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
	env.test([]resource.TestStep{
		{Config: env.config(fleetConfig(nodes)), ConfigPlanChecks: applied()},
		{
			PreConfig:    env.sim.Sim.ResetRequestCounts,
			RefreshState: true,
		},
		{
			PreConfig: func() {
				// The harness refreshes more than once in a refresh step (refresh, then
				// plan), so compare per pass: each pass reads the system once and each
				// node once, and its provider start lists the systems once.
				got, lists, passes, want := env.refreshCounts(nodes)
				if passes == 0 || !maps.Equal(got, want) {
					t.Errorf("refreshing 1 system and %d nodes made %v (and %d lists); want only %v", nodes, got, lists, want)
				}
				if lists > passes {
					t.Errorf("%d refresh passes listed the systems %d times; want at most once per pass", passes, lists)
				}
			},
			Config:   env.config(fleetConfig(nodes)),
			PlanOnly: true,
		},
	})
}

// After someone renamed the system, the nodes' refresh still costs one GET each: the
// provider start's list of the systems knows the new name.
func TestAccRefresh_afterRenameOutOfBand(t *testing.T) {
	const nodes = 3
	env := newAccEnv(t)
	env.test([]resource.TestStep{
		{Config: env.config(fleetConfig(nodes)), ConfigPlanChecks: applied()},
		{
			PreConfig: func() {
				env.must(env.admin.RenameSystem(env.ctx(), "fleet", "fleet-old"))
				env.sim.Sim.ResetRequestCounts()
			},
			RefreshState:       true,
			ExpectNonEmptyPlan: true, // the system is to be renamed back
		},
		{
			PreConfig: func() {
				// Per pass: one GET of the system (the first by its old name, a 404, and one
				// more list of the systems to find it by id), one GET per node.
				got, lists, passes, want := env.refreshCounts(nodes)
				if passes == 0 || !maps.Equal(got, want) || lists > 2*passes {
					t.Errorf("refreshing after a rename made %v and %d lists; want %v and at most %d lists", got, lists, want, 2*passes)
				}
			},
			Config:           env.config(fleetConfig(nodes)),
			ConfigPlanChecks: applied(exactActions{"apm_system.fleet": plancheck.ResourceActionUpdate}),
			Check:            env.checkSystems("fleet"),
		},
	})
}

// refreshCounts splits apmsim's request counts since the last reset into the lists of the
// systems and the rest, and gives what the rest must be for refreshes of 1 system and n
// nodes: per pass (one per system GET), one GET of the system and one per node.
func (e *accEnv) refreshCounts(n int) (got map[string]int, lists, passes int, want map[string]int) {
	got = e.sim.Sim.RequestCounts()
	lists, passes = got[systemList], got[systemRead]
	delete(got, systemList)
	return got, lists, passes, map[string]int{systemRead: passes, nodeRead: n * passes}
}
