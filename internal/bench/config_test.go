//go:build bench

package bench

import (
	"fmt"
	"strings"
)

// The two workspaces of a size N have the same shape: N nodes in systems of up to 100, each
// node referring to its system's id, so that both CLIs walk the same graph, create the
// systems first and then the nodes, ten at a time. Only the resource type differs: apm_node
// and apm_system, or the builtin terraform_data, which costs the CLI alone.

const nodesPerSystem = 100

// A fleet is the size of a workspace.
type fleet struct{ nodes, systems int }

func newFleet(nodes int) fleet {
	return fleet{nodes: nodes, systems: (nodes + nodesPerSystem - 1) / nodesPerSystem}
}

// objects is the number of resources, and of objects in the manager after an apm apply.
func (f fleet) objects() int { return f.nodes + f.systems }

// A flavour is how one kind of workspace spells the fleet. The system template gets the
// system's number; the node template the node's number, its system's, host IP and port.
type flavour struct {
	name, header, system, node string
}

// apmFlavour leaves the provider block empty: endpoint and key come from the environment,
// so no secret is written to the workspace.
var apmFlavour = flavour{
	name: "apm",
	header: `terraform {
  required_providers {
    apm = {
      source = "hashicorp/apm"
    }
  }
}

provider "apm" {}
`,
	system: `
resource "apm_system" "s%[1]d" {
  name = "bench-s%[1]d"
}
`,
	node: `
resource "apm_node" "n%[1]d" {
  system_id  = apm_system.s%[2]d.id
  name       = "n%[1]d"
  host_ip    = "%[3]s"
  agent_port = %[4]d
}
`,
}

var dataFlavour = flavour{
	name: "terraform_data",
	system: `
resource "terraform_data" "s%[1]d" {
  input = {
    name = "bench-s%[1]d"
  }
}
`,
	node: `
resource "terraform_data" "n%[1]d" {
  input = {
    system_id  = terraform_data.s%[2]d.id
    name       = "n%[1]d"
    host_ip    = "%[3]s"
    agent_port = %[4]d
  }
}
`,
}

// config is the fleet's configuration in flavour fl.
func (f fleet) config(fl flavour) string {
	var b strings.Builder
	b.WriteString(fl.header)
	for s := 1; s <= f.systems; s++ {
		fmt.Fprintf(&b, fl.system, s)
	}
	for k := 1; k <= f.nodes; k++ {
		ip := fmt.Sprintf("10.%d.%d.%d", k>>16, k>>8&0xff, k&0xff)
		fmt.Fprintf(&b, fl.node, k, (k-1)/nodesPerSystem+1, ip, 7700+k%100)
	}
	return b.String()
}
