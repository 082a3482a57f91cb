package provider

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
)

// A node is a host of a system whose agent the manager talks to. The manager reads it by
// system and node name but modifies and deletes it by nodeId; Terraform refers to its
// system by the system's id, which survives a rename of the system.

// nodeObject is a node with the id of its system, which the node's own reads do not carry.
type nodeObject struct {
	apm.Node
	SystemID string
}

var nodeFields = []field[nodeObject]{
	stringField("id", "`<system_id>/<name>`. It stays the same when the system is renamed.",
		func(n *nodeObject) string { return n.SystemID + "/" + n.NodeName }).derivedFrom(joined("system_id", "name")),
	stringField("system_id", "The `id` of the node's system, such as `apm_system.example.id`.",
		func(n *nodeObject) string { return n.SystemID }).replacing().validate(stringvalidator.LengthAtLeast(1)),
	stringField("system_name", "Name of the node's system.", func(n *nodeObject) string { return n.SystemName }).in(observed),
	stringField("name", "Name of the node: 1 to 63 letters, digits, `.`, `-` or `_`.",
		func(n *nodeObject) string { return n.NodeName }).replacing().validate(nodeNameValidators()...),
	stringField("host_ip", "IPv4 or IPv6 address of the node's host.",
		func(n *nodeObject) string { return n.HostIP }).input().validate(ipAddressValidator{}).sameString(sameIP),
	int64Field("agent_port", "Port of the node agent, 1 to 65535.",
		func(n *nodeObject) int64 { return n.AgentPort }).input().validateInt64(portValidators()...),
	stringField("node_id", "The manager's `nodeId`, with which it modifies and deletes the node (the node's name where the manager reports none).",
		func(n *nodeObject) string { return n.NodeID }).in(inResource | inDetail),
	stringField("status", "Status of the node as the manager reports it, for example `running`.",
		func(n *nodeObject) string { return n.Status }).in(observed),
	listField("servers", "The servers on the node.", nodeServerFields, func(n *nodeObject) []apm.NodeServer { return n.Servers }).in(inDetail),
}

var nodeServerFields = []field[apm.NodeServer]{
	stringField("server_id", "Identifier of the server on the node.", func(s *apm.NodeServer) string { return s.ServerID }),
	stringField("server_type", "Kind of server as the manager reports it.", func(s *apm.NodeServer) string { return s.ServerType }),
	stringField("status", "Status of the server, for example `running` or `stopped`.", func(s *apm.NodeServer) string { return s.Status }),
}

var newNodeResource = NewResource(resourceType[nodeObject]{
	name: "node",
	description: "A node of a system: a host whose agent the manager talks to. Creating it registers the node (scale-out); destroying it removes the node (scale-in), " +
		"waiting until the servers on it are gone. Its system is referred to by id, so renaming the system leaves the node alone.",
	fields: nodeFields,
	importID: importID{
		parts: []idPart{
			{
				attr: "system_id", form: "<system>", accepts: "the system's name or id",
				resolve: func(ctx context.Context, m *manager, ref string) (string, error) { return m.resolveSystem(ctx, ref) },
			},
			{attr: "name", form: "<name>"},
		},
		example: "shop/web-01",
	},
	deleteTimeout: 10 * time.Minute,
	describe:      func(a attrs) string { return fmt.Sprintf("node %q of system %s", a.str("name"), a.str("system_id")) },
	create: func(ctx context.Context, m *manager, plan attrs) error {
		return m.onSystem(ctx, plan.str("system_id"), func(systemName string) error {
			return m.CreateNode(ctx, apm.CreateNodeRequest{
				NodeName: plan.str("name"), SystemName: systemName,
				HostIP: plan.str("host_ip"), AgentPort: plan.int64("agent_port"),
			})
		})
	},
	read:      readNode,
	checkPlan: checkNodeSystem,
	update: func(ctx context.Context, m *manager, plan, state attrs) error {
		return m.onNode(ctx, state, func(systemName, nodeID string) error {
			return m.UpdateNode(ctx, systemName, nodeID, apm.UpdateNodeRequest{HostIP: plan.str("host_ip"), AgentPort: plan.int64("agent_port")})
		})
	},
	delete: func(ctx context.Context, m *manager, state attrs) error {
		return m.onNode(ctx, state, func(systemName, nodeID string) error { return m.DeleteNode(ctx, systemName, nodeID) })
	},
	blockers: func(ctx context.Context, m *manager, state attrs) ([]string, error) {
		n, err := readNode(ctx, m, state)
		if err != nil {
			return nil, err
		}
		names := make([]string, 0, len(n.Servers))
		for _, s := range n.Servers {
			names = append(names, fmt.Sprintf("server %q (%s, %s)", s.ServerID, s.ServerType, s.Status))
		}
		return names, nil
	},
})

// checkNodeSystem fails the plan of a node whose system_id names no system, when the
// provider has seen all systems (at configure); an id still unknown waits for apply.
func checkNodeSystem(_ context.Context, m *manager, plan, _ attrs, diags *diag.Diagnostics) {
	id := plan.str("system_id")
	if plan.known("system_id") && m.systems.missing(id) {
		diags.AddAttributeError(path.Root("system_id"), "Unknown system",
			fmt.Sprintf("No system has the id %q. Refer to a system by its id, such as apm_system.example.id or data.apm_system.example.id, not by its name.", id))
	}
}

// readNode reads the node that state identifies: one GET when its system's name is known.
func readNode(ctx context.Context, m *manager, state attrs) (*nodeObject, error) {
	var node *apm.Node
	err := m.onSystem(ctx, state.str("system_id"), func(systemName string) (err error) {
		node, err = m.GetNode(ctx, systemName, state.str("name"))
		return err
	})
	if err != nil {
		return nil, err
	}
	return &nodeObject{Node: *node, SystemID: state.str("system_id")}, nil
}

// onNode runs a write addressed by nodeId. A node recorded without its nodeId (its read
// back failed) is read first.
func (m *manager) onNode(ctx context.Context, state attrs, call func(systemName, nodeID string) error) error {
	return m.onSystem(ctx, state.str("system_id"), func(systemName string) error {
		nodeID := state.str("node_id")
		if nodeID == "" {
			n, err := m.GetNode(ctx, systemName, state.str("name"))
			if err != nil {
				return err
			}
			nodeID = n.NodeID
		}
		return call(systemName, nodeID)
	})
}

var newNodeDataSource = NewDataSource(dataSourceType[nodeObject]{
	name:        "node",
	description: "Reads one node of a system, with the servers on it. Fails when the node does not exist.",
	fields:      nodeFields,
	keys:        []string{"system_name", "name"},
	read: func(ctx context.Context, m *manager, config attrs) (*nodeObject, error) {
		systemName := config.str("system_name")
		system, err := m.getSystem(ctx, systemName)
		if err != nil {
			return nil, err
		}
		node, err := m.GetNode(ctx, systemName, config.str("name"))
		if err != nil {
			return nil, err
		}
		return &nodeObject{Node: *node, SystemID: system.SystemID}, nil
	},
})

var newNodesDataSource = NewListDataSource(listDataSourceType[nodeObject]{
	name:        "nodes",
	description: "Lists the nodes of the manager, or of one system, sorted by system and node name. Naming a system that does not exist is an error.",
	listName:    "nodes",
	listDesc:    "The nodes.",
	fields:      nodeFields,
	filters:     map[string]dschema.Attribute{"system_name": optionalString("Only list the nodes of this system.", systemNameValidators()...)},
	list:        listNodes,
})

// listNodes lists the nodes (one GET) with their systems' ids (one more).
func listNodes(ctx context.Context, m *manager, config attrs) ([]nodeObject, error) {
	only := config.str("system_name")
	ids, err := m.systemIDs(ctx, only)
	if err != nil {
		return nil, err
	}
	nodes, err := m.ListNodes(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]nodeObject, 0, len(nodes))
	for _, n := range nodes {
		if only == "" || n.SystemName == only {
			out = append(out, nodeObject{Node: n, SystemID: ids[n.SystemName]})
		}
	}
	slices.SortFunc(out, func(a, b nodeObject) int {
		return strings.Compare(a.SystemName+"/"+a.NodeName, b.SystemName+"/"+b.NodeName)
	})
	return out, nil
}

// optionalString is a data source filter.
func optionalString(description string, rules ...validator.String) dschema.Attribute {
	return dschema.StringAttribute{MarkdownDescription: description, Optional: true, Validators: rules}
}
