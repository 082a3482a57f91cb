//go:build chaos

package chaos

import (
	"fmt"
	"strings"
)

// The fleet: 10 systems of 9 nodes each, and on every system a WAS server (running) on its
// first node and a session server on its second: 120 objects. Nodes depend on their system
// and servers on their node, so an apply creates the systems first, then up to ten nodes
// and servers at a time, as real fleets do. A WAS server's create installs it and starts
// it (POST .../action, then polling through "starting"); its destroy stops it, then
// uninstalls it. The session servers of odd systems declare state = "stopped" (they are
// installed stopped, so that costs a look); those of even systems leave the running state
// unmanaged.
const (
	fleetSystems        = 10
	fleetNodesPerSystem = 9
	fleetServers        = 2 * fleetSystems
	fleetObjects        = fleetSystems*(1+fleetNodesPerSystem) + fleetServers
)

// The servers' ids and ports. The ports differ between systems, so that a server found on
// another system's node, or recorded with another's port, cannot pass the census.
const (
	wasServerID     = "was-1"
	sessionServerID = "session-1"
)

func wasHTTPPort(system int) int { return 8100 + system }
func sessionPort(system int) int { return 15200 + system }

// sessionState is the state the session server of a system declares: "stopped" on odd
// systems, none ("") on even ones.
func sessionState(system int) string {
	if system%2 == 1 {
		return "stopped"
	}
	return ""
}

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
		fmt.Fprintf(&b, `
resource "apm_was_server" "s%[1]dwas" {
  node_id   = apm_node.s%[1]dn1.id
  server_id = %[2]q
  mode      = "install"
  http_port = %[3]d
  state     = "running"
}
`, s, wasServerID, wasHTTPPort(s))
		state := ""
		if st := sessionState(s); st != "" {
			state = fmt.Sprintf("  state       = %q\n", st)
		}
		fmt.Fprintf(&b, `
resource "apm_session_server" "s%[1]dsession" {
  node_id     = apm_node.s%[1]dn2.id
  server_id   = %[2]q
  mode        = "install"
  server_port = %[3]d
%[4]s}
`, s, sessionServerID, sessionPort(s), state)
	}
	return b.String()
}
