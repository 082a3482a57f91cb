package provider

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/apmplatform/terraform-provider-apm/internal/apmsim"
)

// checkSystems passes when the manager has exactly the named systems (of this test's,
// on a shared real manager).
func (e *accEnv) checkSystems(names ...string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		systems, err := e.admin.ListSystems(e.ctx())
		if err != nil {
			return err
		}
		var got []string
		for _, s := range systems {
			if strings.HasPrefix(s.SystemName, e.prefix) {
				got = append(got, s.SystemName)
			}
		}
		slices.Sort(got)
		want := slices.Sorted(slices.Values(names))
		if !slices.Equal(got, want) {
			return fmt.Errorf("the manager has the systems %q, want exactly %q", got, want)
		}
		return nil
	}
}

// checkSystemInManager passes when the system that apm_system.test's state describes
// exists in the manager under the state's name and with the state's id.
func (e *accEnv) checkSystemInManager() resource.TestCheckFunc {
	const addr = "apm_system.test"
	return func(s *terraform.State) error {
		name, err := stateAttr(s, addr, "name")
		if err != nil {
			return err
		}
		id, err := stateAttr(s, addr, "id")
		if err != nil {
			return err
		}
		sys, err := e.admin.GetSystem(e.ctx(), name)
		if err != nil {
			return fmt.Errorf("%s: %w", addr, err)
		}
		if sys.SystemID != id {
			return fmt.Errorf("%s: state id %q, but the manager's system %q has systemId %q", addr, id, name, sys.SystemID)
		}
		return nil
	}
}

func (e *accEnv) systemID(name string) string {
	e.t.Helper()
	s, err := e.admin.GetSystem(e.ctx(), name)
	e.must(err)
	return s.SystemID
}

// importSteps import addr by id and, unless idFunc is nil, by the id that idFunc reads
// from the state: each with `terraform import` (verifying what it imports) and with an
// import block.
func importSteps(addr, id string, idFunc resource.ImportStateIdFunc) []resource.TestStep {
	steps := []resource.TestStep{{ResourceName: addr, ImportState: true, ImportStateId: id, ImportStateVerify: true}}
	if idFunc != nil {
		steps = append(steps, resource.TestStep{ResourceName: addr, ImportState: true, ImportStateIdFunc: idFunc, ImportStateVerify: true})
	}
	steps = append(steps, resource.TestStep{ResourceName: addr, ImportState: true, ImportStateKind: resource.ImportBlockWithID, ImportStateId: id})
	if idFunc != nil {
		steps = append(steps, resource.TestStep{ResourceName: addr, ImportState: true, ImportStateKind: resource.ImportBlockWithID, ImportStateIdFunc: idFunc})
	}
	return steps
}

// System: create, rename in place (same id), import by name and by id, out-of-band delete.
func TestAccSystem_lifecycle(t *testing.T) {
	env := newAccEnv(t)
	payments, renamed := env.name("payments"), env.name("payments-v2")
	sameID := statecheck.CompareValue(compare.ValuesSame())
	newID := statecheck.CompareValue(compare.ValuesDiffer())
	env.test(slices.Concat([]resource.TestStep{
		{
			Config: env.config(tf(t, "system/one.tf", "name", payments)),
			ConfigPlanChecks: applied(
				creates("apm_system.test"),
				plancheck.ExpectUnknownValue("apm_system.test", tfjsonpath.New("id")),
			),
			ConfigStateChecks: []statecheck.StateCheck{
				attrString("apm_system.test", "name", payments),
				attrMatches("apm_system.test", "id", regexp.MustCompile(`^\S+$`)),
				sameID.AddStateValue("apm_system.test", tfjsonpath.New("id")),
			},
			Check: resource.ComposeAggregateTestCheckFunc(
				env.checkExists("apm_system.test"),
				env.checkSystemInManager(),
				env.checkSystems(payments),
			),
		},
		{
			// A rename is an in-place update that keeps the manager's systemId.
			Config: env.config(tf(t, "system/one.tf", "name", renamed)),
			ConfigPlanChecks: applied(
				updates("apm_system.test"),
				plancheck.ExpectKnownValue("apm_system.test", tfjsonpath.New("name"), knownvalue.StringExact(renamed)),
			),
			ConfigStateChecks: []statecheck.StateCheck{
				attrString("apm_system.test", "name", renamed),
				sameID.AddStateValue("apm_system.test", tfjsonpath.New("id")),
				newID.AddStateValue("apm_system.test", tfjsonpath.New("id")),
			},
			Check: resource.ComposeAggregateTestCheckFunc(
				env.checkSystemInManager(),
				env.checkSystems(renamed),
			),
		},
	}, importSteps("apm_system.test", renamed, importIDFrom("apm_system.test", "")), []resource.TestStep{
		{
			// Deleted outside Terraform: the plan creates it again, and apply does.
			PreConfig: func() { env.must(env.admin.DeleteSystem(env.ctx(), renamed)) },
			Config:    env.config(tf(t, "system/one.tf", "name", renamed)),
			ConfigPlanChecks: applied(
				creates("apm_system.test"),
			),
			ConfigStateChecks: []statecheck.StateCheck{
				newID.AddStateValue("apm_system.test", tfjsonpath.New("id")),
			},
			Check: resource.ComposeAggregateTestCheckFunc(
				env.checkSystemInManager(),
				env.checkSystems(renamed),
			),
		},
	}))
}

// Import IDs that name no system, or are malformed, are refused with the accepted form.
func TestAccSystem_importErrors(t *testing.T) {
	env := newAccEnv(t)
	nosuch, malformed := env.name("nosuch"), env.name("shop")+"/web-01"
	env.test([]resource.TestStep{
		{
			Config:           env.config(tf(t, "system/one.tf", "name", env.name("shop"))),
			ConfigPlanChecks: applied(),
		},
		{
			ResourceName:  "apm_system.test",
			ImportState:   true,
			ImportStateId: nosuch,
			ExpectError:   errorMatching("Cannot import apm_system "+nosuch, fmt.Sprintf("no system has the name or id %q", nosuch)),
		},
		{
			ResourceName:  "apm_system.test",
			ImportState:   true,
			ImportStateId: malformed,
			ExpectError:   errorMatching("Invalid import ID for apm_system", "Expected <system>", "the system's name or id", fmt.Sprintf("got %q", malformed)),
		},
	})
}

// Another client renames a managed system: Terraform renames it back in place instead of
// creating a second one, and its nodes are left alone.
func TestAccSystem_renamedOutOfBandIsRenamedBack(t *testing.T) {
	env := newAccEnv(t)
	shop := env.name("shop")
	config := env.config(fleetConfig(t, shop, 2))
	sameSystemID := statecheck.CompareValue(compare.ValuesSame())
	sameNodeID := statecheck.CompareValue(compare.ValuesSame())
	env.test([]resource.TestStep{
		{
			Config:           config,
			ConfigPlanChecks: applied(),
			ConfigStateChecks: []statecheck.StateCheck{
				sameSystemID.AddStateValue("apm_system.test", tfjsonpath.New("id")),
				sameNodeID.AddStateValue("apm_node.fleet[0]", tfjsonpath.New("node_id")),
			},
		},
		{
			PreConfig: func() { env.must(env.admin.RenameSystem(env.ctx(), shop, env.name("shop-old"))) },
			Config:    config,
			ConfigPlanChecks: applied(
				exactActions{"apm_system.test": plancheck.ResourceActionUpdate},
				plancheck.ExpectKnownValue("apm_system.test", tfjsonpath.New("name"), knownvalue.StringExact(shop)),
			),
			ConfigStateChecks: []statecheck.StateCheck{
				sameSystemID.AddStateValue("apm_system.test", tfjsonpath.New("id")),
				sameNodeID.AddStateValue("apm_node.fleet[0]", tfjsonpath.New("node_id")),
			},
			Check: resource.ComposeAggregateTestCheckFunc(
				env.checkSystems(shop),
				env.checkSystemInManager(),
				env.checkNodeInManager("apm_node.fleet.0"),
				env.checkNodeInManager("apm_node.fleet.1"),
			),
		},
	})
}

// A rename in the configuration changes only the system: its nodes refer to it by id.
func TestAccSystem_renameLeavesNodesAlone(t *testing.T) {
	env := newAccEnv(t)
	renamed := env.name("orders-v2")
	sameNodeID := statecheck.CompareValue(compare.ValuesSame())
	env.test([]resource.TestStep{
		{
			Config:            env.config(fleetConfig(t, env.name("orders"), 3)),
			ConfigPlanChecks:  applied(),
			ConfigStateChecks: []statecheck.StateCheck{sameNodeID.AddStateValue("apm_node.fleet[2]", tfjsonpath.New("node_id"))},
		},
		{
			Config: env.config(fleetConfig(t, renamed, 3)),
			ConfigPlanChecks: applied(
				exactActions{"apm_system.test": plancheck.ResourceActionUpdate},
				leaves("apm_node.fleet[0]"),
				leaves("apm_node.fleet[1]"),
				leaves("apm_node.fleet[2]"),
			),
			ConfigStateChecks: []statecheck.StateCheck{sameNodeID.AddStateValue("apm_node.fleet[2]", tfjsonpath.New("node_id"))},
			Check: resource.ComposeAggregateTestCheckFunc(
				env.checkSystems(renamed),
				env.checkNodeInManager("apm_node.fleet.0"),
				env.checkNodeInManager("apm_node.fleet.1"),
				env.checkNodeInManager("apm_node.fleet.2"),
			),
		},
	})
}

// No false drift: after every apply, and after an explicit refresh, nothing has changed.
func TestAccSystem_noFalseDrift(t *testing.T) {
	env := newAccEnv(t)
	fleet, fleet2, fleet3 := env.name("fleet"), env.name("fleet-v2"), env.name("fleet-v3")
	config := func(system, ip string, port int) string {
		return env.config(tf(t, "system/one.tf", "name", system) +
			tf(t, "node/three_nodes.tf", "system_id", testSystemID, "first_host_ip", ip, "first_agent_port", port))
	}
	env.test([]resource.TestStep{
		{
			Config: config(fleet, "10.1.0.1", 7730),
			ConfigPlanChecks: applied(exactActions{
				"apm_system.test": plancheck.ResourceActionCreate, "apm_node.n1": plancheck.ResourceActionCreate,
				"apm_node.n2": plancheck.ResourceActionCreate, "apm_node.n3": plancheck.ResourceActionCreate,
			}),
			Check: env.checkExists("apm_system.test", "apm_node.n1", "apm_node.n2", "apm_node.n3"),
		},
		{
			Config:           config(fleet, "10.1.0.11", 7730),
			ConfigPlanChecks: applied(exactActions{"apm_node.n1": plancheck.ResourceActionUpdate}),
			Check:            env.checkNode(fleet, "node-01", "10.1.0.11", 7730),
		},
		{
			Config:           config(fleet, "10.1.0.11", 7731),
			ConfigPlanChecks: applied(exactActions{"apm_node.n1": plancheck.ResourceActionUpdate}),
			Check:            env.checkNode(fleet, "node-01", "10.1.0.11", 7731),
		},
		{
			Config:           config(fleet2, "10.1.0.11", 7731),
			ConfigPlanChecks: applied(exactActions{"apm_system.test": plancheck.ResourceActionUpdate}),
			Check:            env.checkNode(fleet2, "node-01", "10.1.0.11", 7731),
		},
		{
			// A rename and a node change in one apply.
			Config: config(fleet3, "10.1.0.21", 7732),
			ConfigPlanChecks: applied(exactActions{
				"apm_system.test": plancheck.ResourceActionUpdate, "apm_node.n1": plancheck.ResourceActionUpdate,
			}),
			Check: resource.ComposeAggregateTestCheckFunc(
				env.checkNode(fleet3, "node-01", "10.1.0.21", 7732),
				env.checkSystems(fleet3),
			),
		},
		{
			RefreshState: true,
			RefreshPlanChecks: resource.RefreshPlanChecks{
				PostRefresh: []plancheck.PlanCheck{noDrift{}, plancheck.ExpectEmptyPlan()},
			},
		},
		{
			Config:   config(fleet3, "10.1.0.21", 7732),
			PlanOnly: true,
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PostApplyPostRefresh: []plancheck.PlanCheck{noDrift{}, plancheck.ExpectEmptyPlan()},
			},
		},
	})
}

// Nodes that name their system by a literal id have no reference to it, so Terraform
// deletes system and nodes in parallel: the system's delete waits for the nodes.
func TestAccSystem_destroyWaitsForNodesWithoutReferences(t *testing.T) {
	env := newAccEnv(t)
	sim := env.needsSim("slows down the nodes' deletes and counts the system's")
	orders := env.name("orders")
	env.must(env.admin.CreateSystem(env.ctx(), orders))
	id := env.systemID(orders)
	config := env.config(tf(t, "system/import.tf", "name", orders) + tf(t, "system/one.tf", "name", orders) +
		tf(t, "node/fleet.tf", "system_id", id, "nodes", 3))
	const systemDelete = "DELETE /rest/systems/{systemName}"
	accTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: resource.ComposeAggregateTestCheckFunc(
			env.checkAllGone,
			env.checkSystems(),
			func(*terraform.State) error {
				// The nodes' deletes were slowed down, so the system's delete met the
				// manager's refusal at least once and had to wait.
				if n := sim.RequestCounts()[systemDelete]; n < 2 {
					return fmt.Errorf("the system was deleted with %d request(s); the test did not make it wait for its nodes", n)
				}
				return nil
			},
		),
		Steps: []resource.TestStep{
			{
				Config: config,
				ConfigPlanChecks: applied(exactActions{
					"apm_system.test": plancheck.ResourceActionNoop, "apm_node.fleet[0]": plancheck.ResourceActionCreate,
					"apm_node.fleet[1]": plancheck.ResourceActionCreate, "apm_node.fleet[2]": plancheck.ResourceActionCreate,
				}),
				ConfigStateChecks: []statecheck.StateCheck{
					attrString("apm_system.test", "id", id),
				},
				Check: env.checkExists("apm_system.test", "apm_node.fleet.0", "apm_node.fleet.1", "apm_node.fleet.2"),
			},
			{
				// Arrange the destroy that follows the steps.
				PreConfig: func() {
					env.must(sim.SetFaults(apmsim.FaultRule{Method: "DELETE", Path: "/rest/nodes/*", Latency: 1500 * time.Millisecond}))
					sim.ResetRequestCounts()
				},
				Config:   config,
				PlanOnly: true,
			},
		},
	})
}

// A node that Terraform does not manage keeps its system from being deleted: the delete
// gives up after timeouts.delete and names the node.
func TestAccSystem_destroyBlockedByUnmanagedNode(t *testing.T) {
	env := newAccEnv(t)
	legacy := env.name("legacy")
	config := env.config(tf(t, "system/delete_timeout.tf", "name", legacy, "delete_timeout", "2s"))
	env.testUntilEmpty([]resource.TestStep{
		{
			Config:           config,
			ConfigPlanChecks: applied(),
		},
		{
			PreConfig:   func() { env.createNode(legacy, "stray-01", "10.9.0.1", 7730) },
			Config:      config,
			Destroy:     true,
			ExpectError: errorMatching(fmt.Sprintf("Failed to delete system %q", legacy), "gave up after 2s", `node "stray-01"`, "timeouts.delete"),
		},
		{
			// The system is still there, and still managed; remove the stray node so that
			// the final destroy succeeds.
			PreConfig: func() { env.deleteNode(legacy, "stray-01") },
			Config:    config,
			PlanOnly:  true,
			Check:     env.checkSystemInManager(),
		},
	})
}

// Creating a system that exists already fails at plan, and prints an import ID that works.
func TestAccSystem_conflictSuggestsWorkingImport(t *testing.T) {
	env := newAccEnv(t)
	taken := env.name("taken")
	config := env.config(tf(t, "system/one.tf", "name", taken))
	env.testUntilEmpty([]resource.TestStep{
		{
			PreConfig: func() { env.must(env.admin.CreateSystem(env.ctx(), taken)) },
			Config:    config,
			PlanOnly:  true,
			// The printed ID is exactly the name: the regexp ends it with the quote of the
			// import block, and the next step imports with exactly that ID.
			ExpectError: errorMatching(fmt.Sprintf("system %q already exists", taken),
				"terraform import apm_system.<name> "+taken, fmt.Sprintf("id = %q", taken)),
		},
		{
			ResourceName:       "apm_system.test",
			ImportState:        true,
			ImportStateId:      taken,
			ImportStatePersist: true,
			ImportStateCheck: func(states []*terraform.InstanceState) error {
				if len(states) != 1 || states[0].Attributes["name"] != taken || states[0].Attributes["id"] != env.systemID(taken) {
					return fmt.Errorf("imported %d objects: %v", len(states), states)
				}
				return nil
			},
		},
		{
			Config:           config,
			ConfigPlanChecks: applied(exactActions{"apm_system.test": plancheck.ResourceActionNoop}),
			Check:            resource.ComposeAggregateTestCheckFunc(env.checkSystemInManager(), env.checkSystems(taken)),
		},
	})
}

func TestAccSystem_invalidNameFailsAtPlan(t *testing.T) {
	env := newAccEnv(t)
	spaced := env.name("has space")
	env.test([]resource.TestStep{
		{
			Config:      env.config(tf(t, "system/one.tf", "name", spaced)),
			ExpectError: errorMatching("Attribute name must be 1 to 20 characters", "got: "+spaced),
		},
		{
			Config:      env.config(tf(t, "system/one.tf", "name", env.name("a-name-longer-than-20-chars"))),
			ExpectError: errorMatching("Attribute name must be 1 to 20 characters"),
		},
		{
			Config:      env.config(tf(t, "system/delete_timeout.tf", "name", env.name("ok"), "delete_timeout", "soon")),
			ExpectError: regexp.MustCompile(`(?i)duration`),
		},
	})
	if n := env.writes(); n != 0 {
		t.Errorf("invalid configuration reached the manager: %d write requests", n)
	}
}

// A viewer key can plan (it lists systems) but the create is refused with advice.
func TestAccSystem_viewerKeyIsForbidden(t *testing.T) {
	env := newAccEnv(t)
	env.needsSim("uses apmsim's viewer key")
	readonly := env.name("readonly")
	env.test([]resource.TestStep{
		{
			Config:      env.configWithKey(env.sim.ViewerKey, tf(t, "system/one.tf", "name", readonly)),
			ExpectError: errorMatching(fmt.Sprintf("Failed to create system %q", readonly), "403", "Access denied", "administrator key", "APM_API_KEY"),
		},
	})
	if err := env.checkSystems()(nil); err != nil {
		t.Error(err)
	}
}
