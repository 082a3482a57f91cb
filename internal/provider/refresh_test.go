package provider

import (
	"fmt"
	"maps"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// fleetConfig declares one system with n nodes.
func fleetConfig(n int) string {
	var b strings.Builder
	b.WriteString("resource \"apm_system\" \"fleet\" {\n  name = \"fleet\"\n}\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, `
resource "apm_node" "n%[1]d" {
  system_name = apm_system.fleet.name
  name        = "node-%02[1]d"
  host_ip     = "10.1.0.%[1]d"
  agent_port  = 7730
}
`, i)
	}
	return b.String()
}

const (
	systemRead = "GET /rest/systems/{systemName}"
	nodeRead   = "GET /rest/nodes/{nodeName}/systems/{systemName}"
)

// A refresh costs one GET per managed object and nothing else: no list calls, no
// writes, no second read of the same object.
func TestAccRefresh_oneGetPerObject(t *testing.T) {
	const nodes = 5
	env := newAccEnv(t)
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: env.config(fleetConfig(nodes))},
			{
				PreConfig:    env.sim.Sim.ResetRequestCounts,
				RefreshState: true,
			},
			{
				PreConfig: func() {
					// The harness refreshes more than once in a refresh step (refresh, then
					// plan), so compare per pass: each pass reads the system once and each
					// node once.
					got := env.sim.Sim.RequestCounts()
					passes := got[systemRead]
					want := map[string]int{systemRead: passes, nodeRead: nodes * passes}
					if passes == 0 || !maps.Equal(got, want) {
						t.Errorf("refreshing 1 system and %d nodes made %v; want only %v", nodes, got, want)
					}
				},
				Config:   env.config(fleetConfig(nodes)),
				PlanOnly: true,
			},
		},
	})
}
