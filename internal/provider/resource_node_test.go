package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
)

// testNodeName is the node that nodeConfig declares.
const testNodeName = "web-01"

// nodeConfig declares systems "shop" and "shop2" and the node testNodeName in system.
func nodeConfig(system, hostIP string, agentPort int) string {
	return fmt.Sprintf(`
resource "apm_system" "shop" {
  name = "shop"
}

resource "apm_system" "shop2" {
  name = "shop2"
}

resource "apm_node" "test" {
  system_name = apm_system.%s.name
  name        = "web-01"
  host_ip     = %q
  agent_port  = %d
}
`, system, hostIP, agentPort)
}

func TestAccNode_lifecycle(t *testing.T) {
	env := newAccEnv(t)
	sameNodeID := statecheck.CompareValue(compare.ValuesSame())
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: resource.ComposeAggregateTestCheckFunc(
			env.checkNodeGone("shop"), env.checkNodeGone("shop2"),
			env.checkSystemsGone("shop", "shop2"),
		),
		Steps: []resource.TestStep{
			{
				Config: env.config(nodeConfig("shop", "10.0.0.11", 7730)),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("apm_node.test", tfjsonpath.New("id"), knownvalue.StringExact("shop/web-01")),
					statecheck.ExpectKnownValue("apm_node.test", tfjsonpath.New("status"), knownvalue.StringExact("running")),
					statecheck.ExpectKnownValue("apm_node.test", tfjsonpath.New("node_id"), knownvalue.NotNull()),
					sameNodeID.AddStateValue("apm_node.test", tfjsonpath.New("node_id")),
				},
				Check: env.checkNode("shop", "10.0.0.11", 7730),
			},
			{
				// Address and agent port change in place; the node keeps its nodeId.
				Config: env.config(nodeConfig("shop", "10.0.0.12", 7731)),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("apm_node.test", plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("apm_node.test", tfjsonpath.New("agent_port"), knownvalue.Int64Exact(7731)),
					statecheck.ExpectKnownValue("apm_system.shop", tfjsonpath.New("node_count"), knownvalue.Int64Exact(1)),
					sameNodeID.AddStateValue("apm_node.test", tfjsonpath.New("node_id")),
				},
				Check: env.checkNode("shop", "10.0.0.12", 7731),
			},
			{
				// Moving to another system replaces the node.
				Config: env.config(nodeConfig("shop2", "10.0.0.12", 7731)),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("apm_node.test", plancheck.ResourceActionDestroyBeforeCreate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("apm_node.test", tfjsonpath.New("id"), knownvalue.StringExact("shop2/web-01")),
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					env.checkNodeGone("shop"),
					env.checkNode("shop2", "10.0.0.12", 7731),
				),
			},
			{
				ResourceName:      "apm_node.test",
				ImportState:       true,
				ImportStateId:     "shop2/web-01",
				ImportStateVerify: true,
			},
			{
				ResourceName:    "apm_node.test",
				ImportState:     true,
				ImportStateKind: resource.ImportBlockWithID,
				ImportStateId:   "shop2/web-01",
			},
			{
				// Someone changed the agent port in the manager: the plan shows the drift...
				PreConfig: func() { env.setAgentPort("shop2", "web-01", 9999) },
				Config:    env.config(nodeConfig("shop2", "10.0.0.12", 7731)),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("apm_node.test", plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue("apm_node.test", tfjsonpath.New("agent_port"), knownvalue.Int64Exact(7731)),
				}},
				// ...and applying puts it back.
				Check: env.checkNode("shop2", "10.0.0.12", 7731),
			},
			{
				// Scaled in outside Terraform: the next plan creates it again.
				PreConfig:          func() { env.deleteNode("shop2", "web-01") },
				Config:             env.config(nodeConfig("shop2", "10.0.0.12", 7731)),
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
			{
				Config: env.config(nodeConfig("shop2", "10.0.0.12", 7731)),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("apm_node.test", plancheck.ResourceActionCreate),
				}},
				Check: env.checkNode("shop2", "10.0.0.12", 7731),
			},
		},
	})
}

func TestAccNode_invalidInputFailsAtPlan(t *testing.T) {
	env := newAccEnv(t)
	node := func(name, hostIP string, port int) string {
		return fmt.Sprintf(`
resource "apm_node" "bad" {
  system_name = "shop"
  name        = %q
  host_ip     = %q
  agent_port  = %d
}
`, name, hostIP, port)
	}
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:      env.config(node("web-01", "300.1.1.1", 7730)),
				ExpectError: errorMatching("Invalid IP address", "Attribute host_ip value must be an IPv4 or IPv6", `"300.1.1.1"`),
			},
			{
				Config:      env.config(node("web-01", "10.0.0.1", 0)),
				ExpectError: errorMatching("Attribute agent_port value must be between 1 and 65535, got: 0"),
			},
			{
				Config:      env.config(node("web-01", "10.0.0.1", 65536)),
				ExpectError: errorMatching("Attribute agent_port value must be between 1 and 65535, got: 65536"),
			},
			{
				Config:      env.config(node("web 01", "10.0.0.1", 7730)),
				ExpectError: errorMatching("Attribute name must be 1 to 63 characters"),
			},
		},
	})
	if n := env.writes(); n != 0 {
		t.Errorf("invalid configuration reached the manager: %d write requests", n)
	}
}

func TestAccNode_unknownSystemIsExplained(t *testing.T) {
	env := newAccEnv(t)
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: env.config(`
resource "apm_node" "orphan" {
  system_name = "nosuch"
  name        = "web-01"
  host_ip     = "10.0.0.1"
  agent_port  = 7730
}
`),
				ExpectError: errorMatching(`Failed to create node "nosuch/web-01"`, "System not found: nosuch"),
			},
		},
	})
}

func TestAccNode_viewerKeyIsForbidden(t *testing.T) {
	env := newAccEnv(t)
	env.must(env.admin.CreateSystem(env.ctx(), "shop"))
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: env.configWithKey(env.sim.ViewerKey, `
resource "apm_node" "test" {
  system_name = "shop"
  name        = "web-01"
  host_ip     = "10.0.0.1"
  agent_port  = 7730
}
`),
				ExpectError: errorMatching(`Failed to create node "shop/web-01"`, "403", "Access denied", "administrator key"),
			},
		},
	})
	if err := env.checkNodeGone("shop")(nil); err != nil {
		t.Error(err)
	}
}

// checkNode compares the manager's view of a node with the expected values.
func (e *accEnv) checkNode(system, hostIP string, agentPort int64) resource.TestCheckFunc {
	const name = testNodeName
	return func(*terraform.State) error {
		node, err := e.admin.GetNode(e.ctx(), system, name)
		if err != nil {
			return err
		}
		if node.HostIP != hostIP || node.AgentPort != agentPort {
			return fmt.Errorf("node %s/%s is %s:%d in the manager, want %s:%d", system, name, node.HostIP, node.AgentPort, hostIP, agentPort)
		}
		return nil
	}
}

func (e *accEnv) checkNodeGone(system string) resource.TestCheckFunc {
	const name = testNodeName
	return func(*terraform.State) error {
		_, err := e.admin.GetNode(e.ctx(), system, name)
		switch {
		case err == nil:
			return fmt.Errorf("node %s/%s still exists", system, name)
		case apm.IsNotFound(err):
			return nil
		default:
			return fmt.Errorf("checking node %s/%s: %w", system, name, err)
		}
	}
}

func (e *accEnv) setAgentPort(system, name string, port int64) {
	node, err := e.admin.GetNode(e.ctx(), system, name)
	e.must(err)
	e.must(e.admin.UpdateNode(e.ctx(), system, node.NodeID, apm.UpdateNodeRequest{HostIP: node.HostIP, AgentPort: port}))
}

func (e *accEnv) deleteNode(system, name string) {
	node, err := e.admin.GetNode(e.ctx(), system, name)
	e.must(err)
	e.must(e.admin.DeleteNode(e.ctx(), system, node.NodeID))
}
