package provider

import (
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/apmsim"
	"github.com/apmplatform/terraform-provider-apm/internal/apmsim/apmsimtest"
)

// checkNode compares the manager's node with the expected values.
func (e *accEnv) checkNode(system, name, hostIP string, agentPort int64) resource.TestCheckFunc {
	return func(*terraform.State) error {
		node, err := e.admin.GetNode(e.ctx(), system, name)
		if err != nil {
			return fmt.Errorf("node %s/%s: %w", system, name, err)
		}
		if node.HostIP != hostIP || node.AgentPort != agentPort {
			return fmt.Errorf("node %s/%s is %s:%d in the manager, want %s:%d", system, name, node.HostIP, node.AgentPort, hostIP, agentPort)
		}
		return nil
	}
}

// checkNodeInManager passes when the node that addr's state describes exists in the
// manager, in the system with the state's system_id, with the state's node_id, host_ip
// and agent_port, and the state's id is <system_id>/<name>.
func (e *accEnv) checkNodeInManager(addr string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		rs, ok := s.RootModule().Resources[addr]
		if !ok {
			return fmt.Errorf("%s is not in state", addr)
		}
		a := rs.Primary.Attributes
		systemName := ""
		systems, err := e.admin.ListSystems(e.ctx())
		if err != nil {
			return err
		}
		for _, sys := range systems {
			if sys.SystemID == a["system_id"] {
				systemName = sys.SystemName
			}
		}
		if systemName == "" {
			return fmt.Errorf("%s: no system has the id %q", addr, a["system_id"])
		}
		node, err := e.admin.GetNode(e.ctx(), systemName, a["name"])
		if err != nil {
			return fmt.Errorf("%s: %w", addr, err)
		}
		port, _ := strconv.ParseInt(a["agent_port"], 10, 64)
		switch {
		case a["id"] != a["system_id"]+"/"+a["name"]:
			return fmt.Errorf("%s: id %q, want %s/%s", addr, a["id"], a["system_id"], a["name"])
		case node.NodeID != a["node_id"]:
			return fmt.Errorf("%s: state node_id %q, the manager's nodeId %q", addr, a["node_id"], node.NodeID)
		case node.HostIP != a["host_ip"] || node.AgentPort != port:
			return fmt.Errorf("%s: state %s:%d, the manager %s:%d", addr, a["host_ip"], port, node.HostIP, node.AgentPort)
		}
		return nil
	}
}

func (e *accEnv) deleteNode(system, name string) {
	e.t.Helper()
	node, err := e.admin.GetNode(e.ctx(), system, name)
	e.must(err)
	e.must(e.admin.DeleteNode(e.ctx(), system, node.NodeID))
}

// testSystemID refers to the id of apm_system.test, which system/one.tf declares.
const testSystemID = hclExpr("apm_system.test.id")

// oneNode is testdata/node/one.tf: apm_node.test in the system systemID, a literal id or
// an hclExpr.
func oneNode(t *testing.T, systemID any, name, hostIP string, agentPort int) string {
	t.Helper()
	return tf(t, "node/one.tf", "system_id", systemID, "name", name, "host_ip", hostIP, "agent_port", agentPort)
}

// systemWithNode is apm_system.test named system (system/one.tf) and its node
// apm_node.test (node/one.tf).
func systemWithNode(t *testing.T, system, hostIP string, agentPort int) string {
	t.Helper()
	return tf(t, "system/one.tf", "name", system) + oneNode(t, testSystemID, "web-01", hostIP, agentPort)
}

// fleetConfig is apm_system.test named system (system/one.tf) and n nodes that refer to it
// by id (node/fleet.tf): apm_node.fleet[0], node-01 at 10.1.0.1:7730, and so on. (A
// Check's state names them apm_node.fleet.0, ...)
func fleetConfig(t *testing.T, system string, n int) string {
	t.Helper()
	return tf(t, "system/one.tf", "name", system) + tf(t, "node/fleet.tf", "system_id", testSystemID, "nodes", n)
}

// shopsWithNode is the systems shop and shop2 (system/shop_and_shop2.tf, names through
// e.name) and the node web-01 in the one labelled system (apm_node.test).
func (e *accEnv) shopsWithNode(system, hostIP string, agentPort int) string {
	e.t.Helper()
	return tf(e.t, "system/shop_and_shop2.tf", "shop", e.name("shop"), "shop2", e.name("shop2")) +
		oneNode(e.t, hclExpr("apm_system."+system+".id"), "web-01", hostIP, agentPort)
}

// Node: create, update in place (same nodeId), move to another system (replace), import
// by system name and by system id.
func TestAccNode_lifecycle(t *testing.T) {
	env := newAccEnv(t)
	shop, shop2 := env.name("shop"), env.name("shop2")
	sameNodeID := statecheck.CompareValue(compare.ValuesSame())
	env.testUntilEmpty(append([]resource.TestStep{
		{
			Config: env.config(env.shopsWithNode("shop", "10.0.0.11", 7730)),
			ConfigPlanChecks: applied(
				creates("apm_node.test"),
				plancheck.ExpectUnknownValue("apm_node.test", tfjsonpath.New("node_id")),
			),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.CompareValuePairs("apm_node.test", tfjsonpath.New("system_id"), "apm_system.shop", tfjsonpath.New("id"), compare.ValuesSame()),
				// apmsim's generated nodeIds differ from the names: the provider must use them.
				statecheck.ExpectKnownValue("apm_node.test", tfjsonpath.New("node_id"), knownvalue.StringFunc(func(v string) error {
					if v == "" || v == "web-01" {
						return fmt.Errorf("node_id %q is not the manager's nodeId", v)
					}
					return nil
				})),
				sameNodeID.AddStateValue("apm_node.test", tfjsonpath.New("node_id")),
			},
			Check: resource.ComposeAggregateTestCheckFunc(
				env.checkExists("apm_node.test"),
				env.checkNodeInManager("apm_node.test"),
				env.checkNode(shop, "web-01", "10.0.0.11", 7730),
			),
		},
		{
			// Address and agent port change in place; the node keeps its nodeId.
			Config:           env.config(env.shopsWithNode("shop", "10.0.0.12", 7731)),
			ConfigPlanChecks: applied(exactActions{"apm_node.test": plancheck.ResourceActionUpdate}),
			ConfigStateChecks: []statecheck.StateCheck{
				attrInt("apm_node.test", "agent_port", 7731),
				attrString("apm_node.test", "host_ip", "10.0.0.12"),
				sameNodeID.AddStateValue("apm_node.test", tfjsonpath.New("node_id")),
			},
			Check: resource.ComposeAggregateTestCheckFunc(
				env.checkNodeInManager("apm_node.test"),
				env.checkNode(shop, "web-01", "10.0.0.12", 7731),
			),
		},
		{
			// Moving to another system replaces the node.
			Config:           env.config(env.shopsWithNode("shop2", "10.0.0.12", 7731)),
			ConfigPlanChecks: applied(exactActions{"apm_node.test": plancheck.ResourceActionDestroyBeforeCreate}),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.CompareValuePairs("apm_node.test", tfjsonpath.New("system_id"), "apm_system.shop2", tfjsonpath.New("id"), compare.ValuesSame()),
			},
			Check: resource.ComposeAggregateTestCheckFunc(
				env.checkNodeInManager("apm_node.test"),
				env.checkNode(shop2, "web-01", "10.0.0.12", 7731),
				func(*terraform.State) error {
					if _, err := env.admin.GetNode(env.ctx(), shop, "web-01"); !apm.IsNotFound(err) {
						return fmt.Errorf("%s/web-01 should be gone after the move, got %v", shop, err)
					}
					return nil
				},
			),
		},
	}, importSteps("apm_node.test", shop2+"/web-01", importIDFrom("apm_system.shop2", "/web-01"))...))
}

// Changes made outside Terraform show in the plan and apply repairs them.
func TestAccNode_driftIsRepaired(t *testing.T) {
	env := newAccEnv(t)
	shop := env.name("shop")
	config := env.config(tf(t, "system/one.tf", "name", shop) + tf(t, "node/web_and_app.tf", "system_id", testSystemID))
	sameNodeID := statecheck.CompareValue(compare.ValuesSame())
	env.testUntilEmpty([]resource.TestStep{
		{
			Config:            config,
			ConfigPlanChecks:  applied(),
			ConfigStateChecks: []statecheck.StateCheck{sameNodeID.AddStateValue("apm_node.web", tfjsonpath.New("node_id"))},
		},
		{
			// Another spelling of the same address is no change.
			PreConfig: func() { env.updateNode(shop, "app-01", apm.UpdateNodeRequest{HostIP: "fd00:0:0:0:0:0:0:12"}) },
			Config:    config,
			PlanOnly:  true,
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PostApplyPostRefresh: []plancheck.PlanCheck{noDrift{}, plancheck.ExpectEmptyPlan()},
			},
		},
		{
			// Another operator moved the node's agent.
			PreConfig: func() { env.updateNode(shop, "web-01", apm.UpdateNodeRequest{HostIP: "10.0.0.99", AgentPort: 9999}) },
			Config:    config,
			ConfigPlanChecks: applied(
				exactActions{"apm_node.web": plancheck.ResourceActionUpdate},
				plancheck.ExpectKnownValue("apm_node.web", tfjsonpath.New("agent_port"), knownvalue.Int64Exact(7730)),
				plancheck.ExpectKnownValue("apm_node.web", tfjsonpath.New("host_ip"), knownvalue.StringExact("10.0.0.11")),
			),
			ConfigStateChecks: []statecheck.StateCheck{sameNodeID.AddStateValue("apm_node.web", tfjsonpath.New("node_id"))},
			Check: resource.ComposeAggregateTestCheckFunc(
				env.checkNode(shop, "web-01", "10.0.0.11", 7730),
				env.checkNodeInManager("apm_node.web"),
			),
		},
		{
			// Scaled in outside Terraform: the plan creates it again, and apply does.
			PreConfig:        func() { env.deleteNode(shop, "web-01") },
			Config:           config,
			ConfigPlanChecks: applied(exactActions{"apm_node.web": plancheck.ResourceActionCreate}),
			Check: resource.ComposeAggregateTestCheckFunc(
				env.checkNode(shop, "web-01", "10.0.0.11", 7730),
				env.checkNodeInManager("apm_node.web"),
			),
		},
	})
}

// updateNode changes a node out of band.
func (e *accEnv) updateNode(system, name string, req apm.UpdateNodeRequest) {
	e.t.Helper()
	node, err := e.admin.GetNode(e.ctx(), system, name)
	e.must(err)
	e.must(e.admin.UpdateNode(e.ctx(), system, node.NodeID, req))
}

// Import IDs: a malformed one gives the accepted form; an unknown system or node fails.
func TestAccNode_importErrors(t *testing.T) {
	env := newAccEnv(t)
	shop, nosuch := env.name("shop"), env.name("nosuch")
	importing := func(id string, fragments ...string) resource.TestStep {
		return resource.TestStep{ResourceName: "apm_node.test", ImportState: true, ImportStateId: id, ExpectError: errorMatching(fragments...)}
	}
	malformed := func(id string) resource.TestStep {
		return importing(id, "Invalid import ID for apm_node", "Expected <system>/<name>",
			"the system's name or id", "for example shop/web-01", fmt.Sprintf("got %q", id))
	}
	env.test([]resource.TestStep{
		{Config: env.config(env.shopsWithNode("shop", "10.0.0.11", 7730)), ConfigPlanChecks: applied()},
		malformed("web-01"),
		malformed(shop + "/web-01/x"),
		malformed(shop + "/"),
		importing(nosuch+"/web-01", "Cannot import apm_node "+nosuch+"/web-01", fmt.Sprintf("no system has the name or id %q", nosuch)),
		importing(shop+"/nope", "Cannot import non-existent remote object"),
	})
}

// Creating a node that exists already fails at plan, and prints an import ID that works.
func TestAccNode_conflictSuggestsWorkingImport(t *testing.T) {
	env := newAccEnv(t)
	shop := env.name("shop")
	// Someone made the system and registered the node outside Terraform.
	env.must(env.admin.CreateSystem(env.ctx(), shop))
	env.createNode(shop, "web-01", "10.0.0.11", 7730)
	printed := env.systemID(shop) + "/web-01"
	config := env.config(tf(t, "system/import.tf", "name", shop) + systemWithNode(t, shop, "10.0.0.11", 7730))
	env.testUntilEmpty([]resource.TestStep{
		{
			// The printed ID is exactly <system_id>/web-01: the regexp bounds it with the
			// quotes of the import block, and the next step imports with exactly it.
			Config:   config,
			PlanOnly: true,
			ExpectError: errorMatching(fmt.Sprintf(`node "web-01" of system %q already exists`, shop),
				"terraform import apm_node.<name> "+printed, fmt.Sprintf("id = %q", printed)),
		},
		{
			Config:           config + tf(t, "node/import.tf", "id", printed),
			ConfigPlanChecks: applied(exactActions{"apm_node.test": plancheck.ResourceActionNoop, "apm_system.test": plancheck.ResourceActionNoop}),
			Check:            resource.ComposeAggregateTestCheckFunc(env.checkNodeInManager("apm_node.test"), env.checkSystemInManager()),
		},
	})
}

// A manager that answers only documented fields: no nodeId in the node detail, so the
// node's name is its id.
func TestAccNode_terseManager(t *testing.T) {
	env := newAccEnvWith(t, apmsimtest.WithOmitOptionalFields())
	shop := env.name("shop")
	config := func(ip string, port int) string {
		return env.config(systemWithNode(t, shop, ip, port))
	}
	nodeIDIsName := attrString("apm_node.test", "node_id", "web-01")
	env.testUntilEmpty(append([]resource.TestStep{
		{
			Config:            config("10.0.0.11", 7730),
			ConfigPlanChecks:  applied(),
			ConfigStateChecks: []statecheck.StateCheck{nodeIDIsName},
			Check: resource.ComposeAggregateTestCheckFunc(
				env.checkNodeInManager("apm_node.test"),
				env.checkNode(shop, "web-01", "10.0.0.11", 7730),
			),
		},
		{
			Config:            config("10.0.0.12", 7731),
			ConfigPlanChecks:  applied(exactActions{"apm_node.test": plancheck.ResourceActionUpdate}),
			ConfigStateChecks: []statecheck.StateCheck{nodeIDIsName},
			Check:             env.checkNode(shop, "web-01", "10.0.0.12", 7731),
		},
	}, importSteps("apm_node.test", shop+"/web-01", nil)...))
}

func TestAccNode_invalidInputFailsAtPlan(t *testing.T) {
	env := newAccEnv(t)
	sim := env.needsSim("counts the requests that reach the manager")
	shop := env.name("shop")
	env.must(env.admin.CreateSystem(env.ctx(), shop))
	id := env.systemID(shop)
	sim.ResetRequestCounts()
	invalid := func(systemID, name, hostIP string, agentPort int, fragments ...string) resource.TestStep {
		return resource.TestStep{Config: env.config(oneNode(t, systemID, name, hostIP, agentPort)), ExpectError: errorMatching(fragments...)}
	}
	env.test([]resource.TestStep{
		invalid(id, "web-01", "300.1.1.1", 7730, "Invalid IP address", "Attribute host_ip value must be an IPv4 or IPv6", `"300.1.1.1"`),
		invalid(id, "web-01", "10.0.0.1", 0, "Attribute agent_port value must be between 1 and 65535, got: 0"),
		invalid(id, "web-01", "10.0.0.1", 65536, "Attribute agent_port value must be between 1 and 65535, got: 65536"),
		invalid(id, "web 01", "10.0.0.1", 7730, "Attribute name must be 1 to 63 characters"),
		invalid(id, "..", "10.0.0.1", 7730, "Attribute name value must be none of"),
		invalid("", "web-01", "10.0.0.1", 7730, "Attribute system_id string length must be at least 1"),
	})
	if n := env.writes(); n != 0 {
		t.Errorf("invalid configuration reached the manager: %d write requests", n)
	}
}

// A system_id that names no system fails at plan with an explanation (the provider has
// listed the systems when it started).
func TestAccNode_unknownSystemIsExplained(t *testing.T) {
	env := newAccEnv(t)
	orphan := oneNode(t, "SYS-9999", "web-01", "10.0.0.1", 7730)
	env.test([]resource.TestStep{
		{
			Config:      env.config(orphan),
			PlanOnly:    true,
			ExpectError: errorMatching("Unknown system", `has no system with the id "SYS-9999"`, "apm_system.example.id"),
		},
		{
			// Without the list at start the provider cannot know: apply explains it.
			Config:      providerConfig(t, env.sim.URL, "api_key", env.sim.AdminKey, "skip_connection_check", true) + orphan,
			ExpectError: errorMatching(`Failed to create node "web-01" of system SYS-9999`, `no system has the id "SYS-9999"`, "apm_system.example.id"),
		},
	})
	if n := env.writes(); n != 0 {
		t.Errorf("a node of no system reached the manager: %d write requests", n)
	}
}

func TestAccNode_viewerKeyIsForbidden(t *testing.T) {
	env := newAccEnv(t)
	env.needsSim("uses apmsim's viewer key")
	shop := env.name("shop")
	env.must(env.admin.CreateSystem(env.ctx(), shop))
	env.test([]resource.TestStep{
		{
			Config:      env.configWithKey(env.sim.ViewerKey, oneNode(t, env.systemID(shop), "web-01", "10.0.0.1", 7730)),
			ExpectError: errorMatching(`Failed to create node "web-01"`, "403", "Access denied", "administrator key"),
		},
	})
	if _, err := env.admin.GetNode(env.ctx(), shop, "web-01"); !apm.IsNotFound(err) {
		t.Errorf("the viewer's node should not exist: %v", err)
	}
}

// A server on a node keeps it from being deleted: the delete gives up after
// timeouts.delete and names the server; the data sources show the server meanwhile.
func TestAccNode_destroyBlockedByServer(t *testing.T) {
	env := newAccEnv(t)
	env.needsSim("expects apm_systems to list this test's system only")
	shop := env.name("shop")
	resources := env.config(tf(t, "system/one.tf", "name", shop) +
		tf(t, "node/delete_timeout.tf", "system_id", testSystemID, "delete_timeout", "2s"))
	withData := resources + tf(t, "data_sources/systems.tf") +
		tf(t, "data_sources/node.tf", "system_name", hclExpr("apm_system.test.name"), "name", hclExpr("apm_node.test.name"))
	web := apm.ServerRef{Kind: apm.KindWeb, ServerID: "httpd-1", NodeName: "web-01", SystemName: shop}
	env.testUntilEmpty([]resource.TestStep{
		{Config: resources, ConfigPlanChecks: applied()},
		{
			PreConfig: func() {
				env.must(env.admin.InstallServer(env.ctx(), apm.KindWeb, apm.ServerSpec{
					ServerID: web.ServerID, NodeName: web.NodeName, SystemName: web.SystemName, HTTPPort: 8081, HTTPSPort: 8443,
				}))
			},
			Config:           withData,
			ConfigPlanChecks: applied(exactActions{}),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.apm_node.test", tfjsonpath.New("servers"), knownvalue.ListExact([]knownvalue.Check{
					knownvalue.ObjectPartial(map[string]knownvalue.Check{"server_id": knownvalue.StringExact("httpd-1")}),
				})),
				statecheck.ExpectKnownValue("data.apm_systems.all", tfjsonpath.New("systems"), knownvalue.ListExact([]knownvalue.Check{
					knownvalue.ObjectPartial(map[string]knownvalue.Check{"name": knownvalue.StringExact(shop), "web_count": knownvalue.Int64Exact(1)}),
				})),
			},
		},
		{
			Config:      resources,
			Destroy:     true,
			ExpectError: errorMatching(`Failed to delete node "web-01"`, "gave up after 2s", `server "httpd-1"`, "timeouts.delete"),
		},
		{
			// Node and system are still there and managed; remove the server so that the
			// final destroy succeeds.
			PreConfig: func() { env.must(env.admin.UninstallServer(env.ctx(), web)) },
			Config:    resources,
			PlanOnly:  true,
		},
	})
}

// Nodes that name their system by a literal id are updated in parallel with a rename of
// the system. A node update that starts before the rename ends addresses the system by its
// old name, gets 404, and must look the name up again rather than fail.
func TestAccNode_updateDuringParallelRename(t *testing.T) {
	env := newAccEnv(t)
	sim := env.needsSim("slows down the system's rename and the node's update, and counts the updates")
	orders, renamed := env.name("orders"), env.name("orders-v2")
	env.must(env.admin.CreateSystem(env.ctx(), orders))
	id := env.systemID(orders)
	config := func(system, ip string) string {
		return env.config(tf(t, "system/one.tf", "name", system) + oneNode(t, id, "node-01", ip, 7730))
	}
	const nodePut = "PUT /rest/nodes/{nodeId}/systems/{systemName}"
	env.testUntilEmpty([]resource.TestStep{
		{
			Config:           tf(t, "system/import.tf", "name", orders) + config(orders, "10.1.0.1"),
			ConfigPlanChecks: applied(exactActions{"apm_system.test": plancheck.ResourceActionNoop, "apm_node.test": plancheck.ResourceActionCreate}),
		},
		{
			PreConfig: func() {
				// The rename takes 2s; the node's update reaches the manager after it.
				env.must(sim.SetFaults(
					apmsim.FaultRule{Method: "PUT", Path: "/rest/systems/*", Latency: 2 * time.Second},
					apmsim.FaultRule{Method: "PUT", Path: "/rest/nodes/*", Latency: 3 * time.Second},
				))
				sim.ResetRequestCounts()
			},
			Config: config(renamed, "10.1.0.9"),
			ConfigPlanChecks: applied(exactActions{
				"apm_system.test": plancheck.ResourceActionUpdate, "apm_node.test": plancheck.ResourceActionUpdate,
			}),
			Check: resource.ComposeAggregateTestCheckFunc(
				env.checkSystems(renamed),
				env.checkNode(renamed, "node-01", "10.1.0.9", 7730),
				env.checkNodeInManager("apm_node.test"),
				func(*terraform.State) error {
					env.must(sim.SetFaults())
					if n := sim.RequestCounts()[nodePut]; n != 2 {
						return fmt.Errorf("the node was updated with %d PUT(s); want 2 (old name: 404, new name: done), or the test did not race the rename", n)
					}
					return nil
				},
			),
		},
	})
}

// Ids made of known inputs are shown in the plan, not "known after apply" (issue 21, item
// 8): a node of an existing system, a server on an existing node. Before, both planned
// unknown. The create of a replacement keeps its id unknown on purpose (see
// TestAccWASServer_scaleInAndReplaceWhileBalanced).
func TestAccNode_idsKnownAtPlan(t *testing.T) {
	env := newAccEnv(t)
	shop := env.name("shop")
	env.must(env.admin.CreateSystem(env.ctx(), shop))
	t.Cleanup(func() { _ = env.admin.DeleteSystem(env.ctx(), shop) })
	id := env.systemID(shop)
	node := env.config(oneNode(t, id, "web-01", "10.0.0.11", 7730))
	server := node + serverTF(t, apm.KindWAS, "node_id", hclExpr("apm_node.test.id"))
	env.test([]resource.TestStep{
		{
			Config: node,
			ConfigPlanChecks: applied(
				plancheck.ExpectKnownValue("apm_node.test", tfjsonpath.New("id"), knownvalue.StringExact(id+"/web-01")),
			),
		},
		{
			Config: server,
			ConfigPlanChecks: applied(
				plancheck.ExpectKnownValue("apm_was_server.a", tfjsonpath.New("id"), knownvalue.StringExact(id+"/web-01/was-1")),
			),
		},
	})
}
