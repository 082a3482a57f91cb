package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// The data sources read what the resources (or anyone else) created.
func TestAccDataSources_readWhatResourcesCreated(t *testing.T) {
	env := newAccEnv(t)
	env.needsSim("expects the lists of systems, nodes and public nodes to hold only this test's")
	shop, batch := env.name("shop"), env.name("batch")
	info, err := env.admin.ManagerInfo(env.ctx())
	env.must(err)
	public, err := env.admin.ListPublicNodes(env.ctx())
	env.must(err)
	if len(public) == 0 {
		t.Fatal("apmsim serves no public nodes; the data source check below would prove nothing")
	}
	sameAs := func(dataAddr string, dataPath tfjsonpath.Path, resAddr, resAttr string) statecheck.StateCheck {
		return statecheck.CompareValuePairs(dataAddr, dataPath, resAddr, tfjsonpath.New(resAttr), compare.ValuesSame())
	}
	nodes := tfjsonpath.New("nodes")
	systems := tfjsonpath.New("systems")

	env.test([]resource.TestStep{
		{
			Config:           env.config(tf(t, "data_sources/two_systems.tf", "shop", shop, "batch", batch)),
			ConfigPlanChecks: applied(),
			ConfigStateChecks: []statecheck.StateCheck{
				// apm_systems: sorted by name, with counts and ids.
				statecheck.ExpectKnownValue("data.apm_systems.all", systems, knownvalue.ListExact([]knownvalue.Check{
					knownvalue.ObjectExact(map[string]knownvalue.Check{
						"id": knownvalue.NotNull(), "import_id": knownvalue.NotNull(), "name": knownvalue.StringExact(batch), "node_count": knownvalue.Int64Exact(1),
						"web_count": knownvalue.Int64Exact(0), "app_count": knownvalue.Int64Exact(0),
						"session_count": knownvalue.Int64Exact(0), "cache_count": knownvalue.Int64Exact(0),
					}),
					knownvalue.ObjectExact(map[string]knownvalue.Check{
						"id": knownvalue.NotNull(), "import_id": knownvalue.NotNull(), "name": knownvalue.StringExact(shop), "node_count": knownvalue.Int64Exact(2),
						"web_count": knownvalue.Int64Exact(0), "app_count": knownvalue.Int64Exact(0),
						"session_count": knownvalue.Int64Exact(0), "cache_count": knownvalue.Int64Exact(0),
					}),
				})),
				sameAs("data.apm_systems.all", systems.AtSliceIndex(0).AtMapKey("id"), "apm_system.batch", "id"),
				sameAs("data.apm_systems.all", systems.AtSliceIndex(1).AtMapKey("id"), "apm_system.shop", "id"),
				// The ID to import a system with is its id.
				sameAs("data.apm_systems.all", systems.AtSliceIndex(0).AtMapKey("import_id"), "apm_system.batch", "id"),
				sameAs("data.apm_systems.all", systems.AtSliceIndex(1).AtMapKey("import_id"), "apm_system.shop", "id"),

				// apm_system: id, node count and nodes sorted by name.
				sameAs("data.apm_system.shop", tfjsonpath.New("id"), "apm_system.shop", "id"),
				attrInt("data.apm_system.shop", "node_count", 2),
				statecheck.ExpectKnownValue("data.apm_system.shop", nodes, knownvalue.ListExact([]knownvalue.Check{
					knownvalue.ObjectExact(map[string]knownvalue.Check{
						"name": knownvalue.StringExact("app-01"), "host_ip": knownvalue.StringExact("10.0.0.12"), "status": knownvalue.StringExact("running"),
					}),
					knownvalue.ObjectExact(map[string]knownvalue.Check{
						"name": knownvalue.StringExact("web-01"), "host_ip": knownvalue.StringExact("10.0.0.11"), "status": knownvalue.StringExact("running"),
					}),
				})),

				// apm_nodes with a filter: only shop's, sorted, every item attribute.
				statecheck.ExpectKnownValue("data.apm_nodes.shop", nodes, knownvalue.ListExact([]knownvalue.Check{
					knownvalue.ObjectExact(map[string]knownvalue.Check{
						"id": knownvalue.NotNull(), "import_id": knownvalue.NotNull(), "system_id": knownvalue.NotNull(), "system_name": knownvalue.StringExact(shop),
						"name": knownvalue.StringExact("app-01"), "host_ip": knownvalue.StringExact("10.0.0.12"),
						"agent_port": knownvalue.Int64Exact(7731), "status": knownvalue.StringExact("running"),
					}),
					knownvalue.ObjectExact(map[string]knownvalue.Check{
						"id": knownvalue.NotNull(), "import_id": knownvalue.NotNull(), "system_id": knownvalue.NotNull(), "system_name": knownvalue.StringExact(shop),
						"name": knownvalue.StringExact("web-01"), "host_ip": knownvalue.StringExact("10.0.0.11"),
						"agent_port": knownvalue.Int64Exact(7730), "status": knownvalue.StringExact("running"),
					}),
				})),
				sameAs("data.apm_nodes.shop", nodes.AtSliceIndex(0).AtMapKey("id"), "apm_node.app", "id"),
				sameAs("data.apm_nodes.shop", nodes.AtSliceIndex(1).AtMapKey("id"), "apm_node.web", "id"),
				// The ID to import a node with: <system_id>/<name>, its id.
				sameAs("data.apm_nodes.shop", nodes.AtSliceIndex(1).AtMapKey("import_id"), "apm_node.web", "id"),
				sameAs("data.apm_nodes.shop", nodes.AtSliceIndex(1).AtMapKey("system_id"), "apm_system.shop", "id"),

				// apm_nodes without a filter: every node, sorted by system then name.
				statecheck.ExpectKnownValue("data.apm_nodes.all", nodes, knownvalue.ListExact([]knownvalue.Check{
					knownvalue.ObjectPartial(map[string]knownvalue.Check{"system_name": knownvalue.StringExact(batch), "name": knownvalue.StringExact("job-01")}),
					knownvalue.ObjectPartial(map[string]knownvalue.Check{"system_name": knownvalue.StringExact(shop), "name": knownvalue.StringExact("app-01")}),
					knownvalue.ObjectPartial(map[string]knownvalue.Check{"system_name": knownvalue.StringExact(shop), "name": knownvalue.StringExact("web-01")}),
				})),
				sameAs("data.apm_nodes.all", nodes.AtSliceIndex(0).AtMapKey("system_id"), "apm_system.batch", "id"),
				sameAs("data.apm_nodes.all", nodes.AtSliceIndex(0).AtMapKey("id"), "apm_node.job", "id"),

				// apm_node: the detail, with the resource's ids.
				sameAs("data.apm_node.web", tfjsonpath.New("id"), "apm_node.web", "id"),
				sameAs("data.apm_node.web", tfjsonpath.New("system_id"), "apm_system.shop", "id"),
				sameAs("data.apm_node.web", tfjsonpath.New("node_id"), "apm_node.web", "node_id"),
				attrString("data.apm_node.web", "host_ip", "10.0.0.11"),
				attrInt("data.apm_node.web", "agent_port", 7730),
				attrString("data.apm_node.web", "status", "running"),
				statecheck.ExpectKnownValue("data.apm_node.web", tfjsonpath.New("servers"), knownvalue.ListSizeExact(0)),

				// The public ones.
				statecheck.ExpectKnownValue("data.apm_public_nodes.all", nodes, knownvalue.ListSizeExact(len(public))),
				statecheck.ExpectKnownValue("data.apm_public_nodes.all", nodes.AtSliceIndex(0).AtMapKey("name"), knownvalue.StringExact(public[0].NodeName)),
				statecheck.ExpectKnownValue("data.apm_public_nodes.all", nodes.AtSliceIndex(0).AtMapKey("node_id"), knownvalue.StringExact(public[0].NodeID)),
				attrString("data.apm_manager_info.this", "version", info.Version),
				attrString("data.apm_manager_info.this", "status", info.Status),
				attrBool("data.apm_manager_info.this", "ha_mode", info.HAMode),
			},
		},
	})
}

// A data source whose object does not exist warns (plugin-testing does not show warnings)
// and holds a placeholder: id made of the names given, what the manager would say null. It
// does not fail, so that a destroy after the object was deleted outside Terraform goes
// ahead (TestAccDestroy_*). Before issue 21 each step failed with "Failed to read".
func TestAccDataSources_notFound(t *testing.T) {
	env := newAccEnv(t)
	shop, missing := env.name("shop"), env.name("missing")
	env.must(env.admin.CreateSystem(env.ctx(), shop))
	t.Cleanup(func() { env.must(env.admin.DeleteSystem(env.ctx(), shop)) }) // no trace on a shared manager
	env.test([]resource.TestStep{
		{
			Config:            env.config(tf(t, "data_sources/system.tf", "name", missing)),
			ConfigStateChecks: notFound("data.apm_system.test", missing, "node_count"),
		},
		{
			Config:            env.config(tf(t, "data_sources/node.tf", "system_name", missing, "name", "n1")),
			ConfigStateChecks: notFound("data.apm_node.test", missing+"/n1", "host_ip"),
		},
		{
			Config:            env.config(tf(t, "data_sources/node.tf", "system_name", shop, "name", "n1")),
			ConfigStateChecks: notFound("data.apm_node.test", shop+"/n1", "host_ip"),
		},
	})
}

// apm_nodes with a system_name that names no system lists nothing, with a warning (it
// failed before issue 21: a destroy could not get past it); and it writes nothing.
func TestAccDataSourceNodes_unknownSystem(t *testing.T) {
	env := newAccEnv(t)
	sim := env.needsSim("counts the requests that reach the manager")
	shop, nosuch := env.name("shop"), env.name("nosuch")
	env.must(env.admin.CreateSystem(env.ctx(), shop))
	sim.ResetRequestCounts()
	env.test([]resource.TestStep{
		{
			Config: env.config(tf(t, "data_sources/nodes_of_system.tf", "system_name", nosuch)),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.apm_nodes.test", tfjsonpath.New("nodes"), knownvalue.ListSizeExact(0)),
			},
		},
		{
			// An existing system without nodes is an empty list.
			Config: env.config(tf(t, "data_sources/nodes_of_system.tf", "system_name", shop)),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.apm_nodes.test", tfjsonpath.New("nodes"), knownvalue.ListSizeExact(0)),
			},
		},
	})
	if n := env.writes(); n != 0 {
		t.Errorf("reading data sources made %d write requests", n)
	}
}

// Reads work with a viewer key: read-only users can plan.
func TestAccDataSources_viewerKeyCanRead(t *testing.T) {
	env := newAccEnv(t)
	env.needsSim("uses apmsim's viewer key")
	shop := env.name("shop")
	env.must(env.admin.CreateSystem(env.ctx(), shop))
	env.createNode(shop, "web-01", "10.0.0.11", 7730)
	id := env.systemID(shop)
	env.test([]resource.TestStep{
		{
			Config: env.configWithKey(env.sim.ViewerKey, tf(t, "data_sources/all_nodes.tf")+tf(t, "data_sources/system.tf", "name", shop)),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.apm_nodes.all", tfjsonpath.New("nodes"), knownvalue.ListExact([]knownvalue.Check{
					knownvalue.ObjectPartial(map[string]knownvalue.Check{
						"id": knownvalue.StringExact(id + "/web-01"), "system_id": knownvalue.StringExact(id),
					}),
				})),
				attrString("data.apm_system.test", "id", id),
			},
		},
	})
}
