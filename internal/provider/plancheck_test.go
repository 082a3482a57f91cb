package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/apmsim/apmsimtest"
)

// Conflicts that plan finds by comparing the resources of a run with one another and with
// the manager (engine/plan.go): they fail before anything is sent.

// Two servers of different kinds on one port of one node: plan refuses the second one
// planned, naming the other server, its node and the port; nothing is written. Another
// port for one of them applies.
func TestAccPlanChecks_twoServersOnOnePort(t *testing.T) {
	env := newAccEnv(t)
	sim := env.needsSim("counts the requests the manager received")
	env.arrangeShop()
	nodeID := env.systemID(env.shop()) + "/app-01"
	config := func(webPort int) string {
		return env.config(serverTF(t, apm.KindWAS, "node_id", nodeID, "http_port", 8080) +
			serverTF(t, apm.KindWeb, "node_id", nodeID, "http_port", webPort))
	}
	env.test([]resource.TestStep{
		{
			PreConfig: sim.ResetRequestCounts,
			Config:    config(8080),
			PlanOnly:  true,
			ExpectError: errorMatching(`Port 8080 on node "app-01" is declared twice`,
				`server "`, `on node "app-01" declares port 8080 on node "app-01" (http_port), and so does`, `server "`, `on node "app-01" in this configuration`),
		},
		{
			PreConfig: func() {
				if n := env.writes(); n != 0 {
					t.Errorf("two servers on one port were refused after %d writes, want none", n)
				}
			},
			Config:           config(80),
			ConfigPlanChecks: applied(creates("apm_was_server.a"), creates("apm_web_server.w")),
			Check: resource.ComposeAggregateTestCheckFunc(
				env.checkServer(env.shopRef(apm.KindWAS, "was-1"), serverIs("stopped", 8080)),
				env.checkServer(env.shopRef(apm.KindWeb, "web-1"), serverIs("stopped", 80)),
			),
		},
	})
}

// A system and a node that the manager has already: plan refuses to create them, with the
// import ID that works and adopt_existing, and writes nothing; with adopt_existing, plan
// lets them through and apply adopts them.
func TestAccPlanChecks_existingObjectsRefusedAtPlan(t *testing.T) {
	env := newAccEnv(t)
	sim := env.needsSim("counts the requests the manager received")
	shop := env.name("shop")
	env.must(env.admin.CreateSystem(env.ctx(), shop))
	env.createNode(shop, "web-01", "10.0.0.11", 7730)
	systemID := env.systemID(shop)
	nodeImportID := systemID + "/web-01"
	env.testUntilEmpty([]resource.TestStep{
		{
			PreConfig: sim.ResetRequestCounts,
			Config:    env.config(tf(t, "system/one.tf", "name", shop)),
			PlanOnly:  true,
			ExpectError: errorMatching(fmt.Sprintf("system %q already exists", shop),
				"terraform import apm_system.<name> "+shop, fmt.Sprintf("id = %q", shop), "adopt_existing = true"),
		},
		{
			Config:   env.config(oneNode(t, systemID, "web-01", "10.0.0.11", 7730)),
			PlanOnly: true,
			ExpectError: errorMatching(fmt.Sprintf("node %q of system %q already exists", "web-01", shop),
				"terraform import apm_node.<name> "+nodeImportID, fmt.Sprintf("id = %q", nodeImportID), "adopt_existing = true"),
		},
		{
			PreConfig: func() {
				if n := env.writes(); n != 0 {
					t.Errorf("creates of existing objects were refused after %d writes, want none", n)
				}
			},
			Config: providerConfig(t, env.sim.URL, "api_key", env.sim.AdminKey, "adopt_existing", true) +
				systemWithNode(t, shop, "10.0.0.11", 7730),
			ConfigPlanChecks: applied(creates("apm_system.test"), creates("apm_node.test")),
			Check:            resource.ComposeAggregateTestCheckFunc(env.checkSystemInManager(), env.checkNodeInManager("apm_node.test")),
		},
	})
}

// The positive control: one resource planned more than once in a run (an update, a
// replacement that keeps its import ID, the replacement of a tainted object) is neither
// a twin of itself nor an object that exists already, and keeps its ports.
func TestAccPlanChecks_oneResourcePlannedTwiceIsNoTwin(t *testing.T) {
	env := newAccEnv(t)
	ref := env.shopRef(apm.KindWAS, "was-1")
	config := func(httpPort int, edition string) string {
		return env.serverConfig(apm.KindWAS, "http_port", httpPort, "ajp_port", 8009, "server_type", edition)
	}
	env.testUntilEmpty([]resource.TestStep{
		{Config: config(8080, "Standard"), ConfigPlanChecks: applied(creates("apm_was_server.a"))},
		{
			Config:           config(8081, "Standard"),
			ConfigPlanChecks: applied(exactActions{"apm_was_server.a": plancheck.ResourceActionUpdate}),
			Check:            env.checkServer(ref, serverIs("stopped", 8081)),
		},
		{
			Config:           config(8081, "Enterprise"),
			ConfigPlanChecks: applied(exactActions{"apm_was_server.a": plancheck.ResourceActionDestroyBeforeCreate}),
			Check: env.checkServer(ref, func(s *apm.Server) error {
				return want(s.Edition == apm.EditionEnterprise, "is %s", s.Edition)
			}),
		},
		{
			Taint:            []string{"apm_was_server.a"},
			Config:           config(8081, "Enterprise"),
			ConfigPlanChecks: applied(exactActions{"apm_was_server.a": plancheck.ResourceActionDestroyBeforeCreate}),
			Check:            env.checkExists("apm_was_server.a"),
		},
		{
			// A new system gets a new id, so its node and server are replaced with it.
			Taint:  []string{"apm_system.shop"},
			Config: config(8081, "Enterprise"),
			ConfigPlanChecks: applied(exactActions{
				"apm_system.shop": plancheck.ResourceActionDestroyBeforeCreate, "apm_node.app": plancheck.ResourceActionDestroyBeforeCreate,
				"apm_was_server.a": plancheck.ResourceActionDestroyBeforeCreate,
			}),
			Check: env.checkExists("apm_system.shop", "apm_node.app", "apm_was_server.a"),
		},
	})
}

// On a manager whose server detail leaves out the attached datasources, a read cannot tell
// that a datasource is not attached: plan does not take a new attachment for one that
// exists already.
func TestAccPlanChecks_attachmentOnATerseManager(t *testing.T) {
	env := newAccEnvWith(t, apmsimtest.WithOmitOptionalFields())
	orders := env.createDatasources("orders-ds")[0]
	env.testUntilEmpty([]resource.TestStep{
		{
			Config:           env.config(tf(t, "was_datasource/attached.tf", "system_name", env.name("shop"), "datasource_name", orders)),
			ConfigPlanChecks: applied(creates("apm_was_datasource.d")),
			// The detail does not show it; the manager refuses to delete an attached datasource.
			Check: func(*terraform.State) error {
				err := env.admin.DeleteDatasource(env.ctx(), orders)
				return want(apm.IsConflict(err), "deleting datasource %s: %v, want a conflict since it is attached", orders, err)
			},
		},
	})
}
