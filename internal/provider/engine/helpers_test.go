package engine

import (
	"net/netip"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// testNode is a node-like object for the engine's own tests: an id the plan's inputs
// make, an address the manager may spell otherwise, a number and an id the manager sets.
type testNode struct {
	SystemID, Name, HostIP, NodeID string
	AgentPort                      int64
}

func sameAddress(prior, fresh string) bool {
	p, perr := netip.ParseAddr(prior)
	q, qerr := netip.ParseAddr(fresh)
	return perr == nil && qerr == nil && p == q
}

var testNodeType = &ResourceType[testNode, struct{}]{
	Name: "node",
	Fields: []Field[testNode]{
		StringField("id", "", func(n *testNode) string { return n.SystemID + "/" + n.Name }).DerivedFrom(Joined("system_id", "name")),
		StringField("system_id", "", func(n *testNode) string { return n.SystemID }).Replacing(),
		StringField("name", "", func(n *testNode) string { return n.Name }).Replacing(),
		StringField("host_ip", "", func(n *testNode) string { return n.HostIP }).Input().SameString(sameAddress),
		Int64Field("agent_port", "", func(n *testNode) int64 { return n.AgentPort }).Input(),
		StringField("node_id", "", func(n *testNode) string { return n.NodeID }).In(InResource | InDetail),
	},
	Describe: func(Attrs) string { return "node" },
}

func str(s string) tftypes.Value { return tftypes.NewValue(tftypes.String, s) }
