package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
)

// The data sources read what the resources (or anyone else) created; depends_on makes
// them read after the writes of the same apply.
const dataSourcesConfig = `
resource "apm_system" "shop" {
  name = "shop"
}

resource "apm_system" "batch" {
  name = "batch"
}

resource "apm_node" "web" {
  system_name = apm_system.shop.name
  name        = "web-01"
  host_ip     = "10.0.0.11"
  agent_port  = 7730
}

resource "apm_node" "app" {
  system_name = apm_system.shop.name
  name        = "app-01"
  host_ip     = "10.0.0.12"
  agent_port  = 7731
}

data "apm_systems" "all" {
  depends_on = [apm_node.web, apm_node.app, apm_system.batch]
}

data "apm_system" "shop" {
  name       = apm_system.shop.name
  depends_on = [apm_node.web, apm_node.app]
}

data "apm_nodes" "shop" {
  system_name = apm_system.shop.name
  depends_on  = [apm_node.web, apm_node.app]
}

data "apm_node" "web" {
  system_name = apm_node.web.system_name
  name        = apm_node.web.name
}

data "apm_public_nodes" "all" {}

data "apm_manager_info" "this" {}
`

func TestAccDataSources(t *testing.T) {
	env := newAccEnv(t)
	info, err := env.admin.ManagerInfo(env.ctx())
	env.must(err)
	public, err := env.admin.ListPublicNodes(env.ctx())
	env.must(err)
	if len(public) == 0 {
		t.Fatal("apmsim serves no public nodes; the data source check below would prove nothing")
	}

	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: env.config(dataSourcesConfig),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("data.apm_systems.all", tfjsonpath.New("systems"), knownvalue.ListExact([]knownvalue.Check{
						knownvalue.ObjectPartial(map[string]knownvalue.Check{"name": knownvalue.StringExact("batch"), "node_count": knownvalue.Int64Exact(0)}),
						knownvalue.ObjectPartial(map[string]knownvalue.Check{"name": knownvalue.StringExact("shop"), "node_count": knownvalue.Int64Exact(2)}),
					})),
					statecheck.ExpectKnownValue("data.apm_system.shop", tfjsonpath.New("node_count"), knownvalue.Int64Exact(2)),
					statecheck.ExpectKnownValue("data.apm_system.shop", tfjsonpath.New("nodes"), knownvalue.ListExact([]knownvalue.Check{
						knownvalue.ObjectExact(map[string]knownvalue.Check{
							"name": knownvalue.StringExact("app-01"), "host_ip": knownvalue.StringExact("10.0.0.12"), "status": knownvalue.StringExact("running"),
						}),
						knownvalue.ObjectExact(map[string]knownvalue.Check{
							"name": knownvalue.StringExact("web-01"), "host_ip": knownvalue.StringExact("10.0.0.11"), "status": knownvalue.StringExact("running"),
						}),
					})),
					statecheck.ExpectKnownValue("data.apm_nodes.shop", tfjsonpath.New("nodes"), knownvalue.ListExact([]knownvalue.Check{
						knownvalue.ObjectPartial(map[string]knownvalue.Check{"id": knownvalue.StringExact("shop/app-01"), "agent_port": knownvalue.Int64Exact(7731)}),
						knownvalue.ObjectPartial(map[string]knownvalue.Check{"id": knownvalue.StringExact("shop/web-01"), "agent_port": knownvalue.Int64Exact(7730)}),
					})),
					statecheck.CompareValuePairs("data.apm_node.web", tfjsonpath.New("node_id"), "apm_node.web", tfjsonpath.New("node_id"), compare.ValuesSame()),
					statecheck.ExpectKnownValue("data.apm_node.web", tfjsonpath.New("host_ip"), knownvalue.StringExact("10.0.0.11")),
					statecheck.ExpectKnownValue("data.apm_node.web", tfjsonpath.New("servers"), knownvalue.ListSizeExact(0)),
					statecheck.ExpectKnownValue("data.apm_public_nodes.all", tfjsonpath.New("nodes"), knownvalue.ListSizeExact(len(public))),
					statecheck.ExpectKnownValue("data.apm_public_nodes.all", tfjsonpath.New("nodes").AtSliceIndex(0).AtMapKey("name"), knownvalue.StringExact(public[0].NodeName)),
					statecheck.ExpectKnownValue("data.apm_manager_info.this", tfjsonpath.New("version"), knownvalue.StringExact(info.Version)),
					statecheck.ExpectKnownValue("data.apm_manager_info.this", tfjsonpath.New("ha_mode"), knownvalue.Bool(info.HAMode)),
				},
			},
		},
	})
}

func TestAccDataSourceSystem_notFound(t *testing.T) {
	env := newAccEnv(t)
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:      env.config(`data "apm_system" "missing" { name = "missing" }`),
				ExpectError: errorMatching(`Failed to read system "missing"`, "System not found: missing"),
			},
			{
				Config: env.config(`
data "apm_node" "missing" {
  system_name = "missing"
  name        = "n1"
}
`),
				ExpectError: errorMatching(`Failed to read node "missing/n1"`),
			},
		},
	})
}

// Reads work with a viewer key: read-only users can plan.
func TestAccDataSources_viewerKeyCanRead(t *testing.T) {
	env := newAccEnv(t)
	env.must(env.admin.CreateSystem(env.ctx(), "shop"))
	env.must(env.admin.CreateNode(env.ctx(), apm.CreateNodeRequest{NodeName: "web-01", SystemName: "shop", HostIP: "10.0.0.11", AgentPort: 7730}))
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: env.configWithKey(env.sim.ViewerKey, `data "apm_nodes" "all" {}`),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("data.apm_nodes.all", tfjsonpath.New("nodes"), knownvalue.ListExact([]knownvalue.Check{
						knownvalue.ObjectPartial(map[string]knownvalue.Check{"id": knownvalue.StringExact("shop/web-01")}),
					})),
				},
			},
		},
	})
}
