package provider

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
)

// A node is a host of a system whose agent the manager talks to. The manager reads it by
// system and node name but modifies and deletes it by nodeId; Terraform refers to its
// system by the system's id, which survives a rename of the system.

// nodeObject is a node with the id of its system, which the node's own reads do not carry.
type nodeObject struct {
	apm.Node
	SystemID string
}

var nodeFields = []engine.Field[nodeObject]{
	engine.StringField(attrID, "`<system_id>/<name>`. It stays the same when the system is renamed.",
		func(n *nodeObject) string { return n.SystemID + "/" + n.NodeName }).DerivedFrom(engine.Joined(attrSystemID, attrName)),
	engine.StringField(attrSystemID, "The `id` of the node's system, such as `apm_system.example.id`.",
		func(n *nodeObject) string { return n.SystemID }).Replacing().Validate(stringvalidator.LengthAtLeast(1), systemRefValidator()),
	engine.StringField(attrSystemName, "Name of the node's system.", func(n *nodeObject) string { return n.SystemName }).In(engine.Observed),
	engine.StringField(attrName, "Name of the node: 1 to 63 letters, digits, `.`, `-` or `_`.",
		func(n *nodeObject) string { return n.NodeName }).Replacing().Validate(nodeNameValidators()...),
	engine.StringField(attrHostIP, "IPv4 or IPv6 address of the node's host.",
		func(n *nodeObject) string { return n.HostIP }).Input().Validate(ipAddressValidator()).SameString(sameIP),
	engine.Int64Field(attrAgentPort, "Port of the node agent, 1 to 65535.",
		func(n *nodeObject) int64 { return n.AgentPort }).Input().ValidateInt64(portValidators()...),
	engine.StringField(attrNodeID, "The manager's `nodeId`, with which it modifies and deletes the node (the node's name where the manager reports none).",
		func(n *nodeObject) string { return n.NodeID }).In(engine.InResource | engine.InDetail),
	engine.StringField(attrStatus, "Status of the node as the manager reports it, for example `running`.",
		func(n *nodeObject) string { return n.Status }).In(engine.Observed),
	engine.ListField("servers", "The servers on the node.", nodeServerFields, func(n *nodeObject) []apm.NodeServer { return n.Servers }).In(engine.InDetail),
}

var nodeServerFields = []engine.Field[apm.NodeServer]{
	engine.StringField(attrServerID, "Identifier of the server on the node.", func(s *apm.NodeServer) string { return s.ServerID }),
	engine.StringField(attrServerType, "Kind of server as the manager reports it.", func(s *apm.NodeServer) string { return s.ServerType }),
	engine.StringField(attrStatus, "Status of the server, for example `running` or `stopped`.", func(s *apm.NodeServer) string { return s.Status }),
}

var newNodeResource = engine.NewResource(nodeType)

var nodeType = resourceType[nodeObject]{
	Name: "node",
	Description: "A node of a system: a host whose agent the manager talks to. Creating it registers the node (scale-out); destroying it removes the node (scale-in), " +
		"waiting until the servers on it are gone. Its system is referred to by id, so renaming the system leaves the node alone.",
	Fields: nodeFields,
	ImportID: importID{
		Parts: []idPart{
			{
				Attr: attrSystemID, Form: "<system>", Accepts: "the system's name or id",
				Resolve: func(ctx context.Context, c *conn, ref string) (string, error) { return c.resolveSystem(ctx, ref) },
			},
			{Attr: attrName, Form: "<name>"},
		},
		Example: "shop/web-01",
	},
	REST:          &engine.RESTObject{Path: "/rest/nodes/{nodeName}/systems/{systemName}", ImportID: "{systemName}/{nodeName}"},
	DeleteTimeout: 10 * time.Minute,
	Describe: func(a engine.Attrs) string {
		return fmt.Sprintf("node %q of system %s", a.Str(attrName), a.Str(attrSystemID))
	},
	DescribeWith: describeNode,
	Create: func(ctx context.Context, c *conn, plan engine.Attrs) error {
		return c.onSystem(ctx, plan.Str(attrSystemID), func(systemName string) error {
			return c.CreateNode(ctx, apm.CreateNodeRequest{
				NodeName: plan.Str(attrName), SystemName: systemName,
				HostIP: plan.Str(attrHostIP), AgentPort: plan.Int64(attrAgentPort),
			})
		})
	},
	Read:       readNode,
	References: []reference{refersTo(attrSystemID, systemParent)},
	Update: func(ctx context.Context, c *conn, plan, state engine.Attrs) error {
		return c.onNode(ctx, state, func(systemName, nodeID string) error {
			return c.UpdateNode(ctx, systemName, nodeID, apm.UpdateNodeRequest{HostIP: plan.Str(attrHostIP), AgentPort: plan.Int64(attrAgentPort)})
		})
	},
	Delete: func(ctx context.Context, c *conn, state engine.Attrs) error {
		return c.onNode(ctx, state, func(systemName, nodeID string) error { return c.DeleteNode(ctx, systemName, nodeID) })
	},
	Blockers: func(ctx context.Context, c *conn, state engine.Attrs) ([]engine.Blocker, error) {
		n, err := readNode(ctx, c, state)
		if err != nil {
			return nil, err
		}
		held := make([]engine.Blocker, 0, len(n.Servers))
		for _, s := range n.Servers {
			// The node's listing does not say which kind of server resource manages it.
			held = append(held, engine.HeldBy(fmt.Sprintf("server %q (%s, %s)", s.ServerID, s.ServerType, s.Status),
				state.Str(attrSystemID)+"/"+state.Str(attrName)+"/"+s.ServerID, "apm_was_server", "apm_web_server", "apm_session_server"))
		}
		return held, nil
	},
}

// describeNode names a node's system by the name this process last saw for its id (the
// list of systems read at start, or any read since): with two managers, whose systems may
// have the same ids, only the name tells them apart. A system not seen is named by its id.
func describeNode(c *conn, a engine.Attrs) string {
	if name, ok := c.systems.cached(a.Str(attrSystemID)); ok {
		return fmt.Sprintf("node %q of system %q", a.Str(attrName), name)
	}
	return fmt.Sprintf("node %q of system %s", a.Str(attrName), a.Str(attrSystemID))
}

// readNode reads the node that state identifies: one GET when its system's name is known.
func readNode(ctx context.Context, c *conn, state engine.Attrs) (*nodeObject, error) {
	var node *apm.Node
	err := c.onSystem(ctx, state.Str(attrSystemID), func(systemName string) (err error) {
		node, err = c.GetNode(ctx, systemName, state.Str(attrName))
		return err
	})
	if err != nil {
		return nil, err
	}
	return &nodeObject{Node: *node, SystemID: state.Str(attrSystemID)}, nil
}

// onNode runs a write addressed by nodeId. A node recorded without its nodeId (its read
// back failed) is read first.
func (c *conn) onNode(ctx context.Context, state engine.Attrs, call func(systemName, nodeID string) error) error {
	return c.onSystem(ctx, state.Str(attrSystemID), func(systemName string) error {
		nodeID := state.Str(attrNodeID)
		if nodeID == "" {
			n, err := c.GetNode(ctx, systemName, state.Str(attrName))
			if err != nil {
				return err
			}
			nodeID = n.NodeID
		}
		return call(systemName, nodeID)
	})
}

var newNodeDataSource = engine.NewDataSource(dataSourceType[nodeObject]{
	Name:        "node",
	Description: "Reads one node of a system, with the servers on it.",
	Fields:      nodeFields,
	Keys:        []string{attrSystemName, attrName},
	Read: func(ctx context.Context, c *conn, config engine.Attrs) (*nodeObject, error) {
		systemName := config.Str(attrSystemName)
		system, err := c.systemNamed(ctx, systemName)
		if err != nil {
			return nil, err
		}
		node, err := c.GetNode(ctx, systemName, config.Str(attrName))
		if err != nil {
			return nil, err
		}
		return &nodeObject{Node: *node, SystemID: system.SystemID}, nil
	},
})

var newNodesDataSource = engine.NewListDataSource(listDataSourceType[nodeObject]{
	Name:            "nodes",
	Description:     "Lists the nodes of the manager, or of one system, sorted by system and node name. Naming a system that does not exist lists nothing, with a warning.",
	ListName:        "nodes",
	ListDescription: "The nodes.",
	Fields:          nodeFields,
	Filters:         map[string]dschema.Attribute{attrSystemName: optionalString("Only list the nodes of this system.", systemNameValidators()...)},
	List:            listNodes,
	Imports:         nodeType.Target(),
})

// listNodes lists the nodes (one GET) with their systems' ids (one more).
func listNodes(ctx context.Context, c *conn, config engine.Attrs) ([]nodeObject, error) {
	only := config.Str(attrSystemName)
	ids, err := c.systemIDs(ctx, only)
	if err != nil {
		return nil, err
	}
	nodes, err := c.ListNodes(ctx)
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
