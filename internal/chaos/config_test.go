//go:build chaos

package chaos

import (
	"fmt"
	"strings"
)

// The fleet: 10 systems of 9 nodes each, 100 objects. Nodes depend on their system, so an
// apply creates the systems first and then up to ten nodes at a time, as real fleets do.
const (
	fleetSystems        = 10
	fleetNodesPerSystem = 9
	fleetObjects        = fleetSystems * (1 + fleetNodesPerSystem)
)

// fleetConfig is the configuration of the fleet. The provider block is empty: endpoint, key
// and CA come from the environment, so no secret is written to the workspace.
func fleetConfig() string {
	var b strings.Builder
	b.WriteString(`terraform {
  required_providers {
    apm = {
      source = "hashicorp/apm"
    }
  }
}

provider "apm" {}
`)
	for s := 1; s <= fleetSystems; s++ {
		fmt.Fprintf(&b, "\nresource \"apm_system\" \"s%d\" {\n  name = \"chaos-s%d\"\n}\n", s, s)
		for n := 1; n <= fleetNodesPerSystem; n++ {
			fmt.Fprintf(&b, `
resource "apm_node" "s%[1]dn%[2]d" {
  system_id  = apm_system.s%[1]d.id
  name       = "s%[1]d-n%[2]d"
  host_ip    = "10.0.%[1]d.%[2]d"
  agent_port = %[3]d
}
`, s, n, 7700+n)
		}
	}
	return b.String()
}
