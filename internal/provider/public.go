package provider

import (
	"context"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
)

// The calls under /rest/public need no API key: these data sources work without one,
// which also makes them a check that the endpoint is reachable.

var publicNodeFields = []engine.Field[apm.PublicNode]{
	engine.StringField(attrNodeID, "Node identifier.", func(n *apm.PublicNode) string { return n.NodeID }),
	engine.StringField(attrName, "Node name.", func(n *apm.PublicNode) string { return n.NodeName }),
	engine.StringField(attrSystemName, "System name.", func(n *apm.PublicNode) string { return n.SystemName }),
	engine.StringField("connection_status", "`connected` or `disconnected`.", func(n *apm.PublicNode) string { return n.ConnectionStatus }),
	engine.StringField("ip_address", "IP address.", func(n *apm.PublicNode) string { return n.IPAddress }),
}

var newPublicNodesDataSource = engine.NewListDataSource(listDataSourceType[apm.PublicNode]{
	Name: "public_nodes",
	Description: "Reads the manager's public node list, which needs no API key. The manager documents it as dummy data for testing, " +
		"not for production use: use it to check connectivity, and `apm_nodes` for real data.",
	ListName:        "nodes",
	ListDescription: "The nodes of the public list.",
	Fields:          publicNodeFields,
	Public:          true,
	List: func(ctx context.Context, c *conn, _ engine.Attrs) ([]apm.PublicNode, error) {
		return c.ListPublicNodes(ctx)
	},
})

var managerInfoFields = []engine.Field[apm.ManagerInfo]{
	engine.StringField("version", "Version of the manager.", func(i *apm.ManagerInfo) string { return i.Version }),
	engine.StringField("patch_version", "Patch level of the manager.", func(i *apm.ManagerInfo) string { return i.PatchVersion }),
	engine.StringField(attrStatus, "Status of the manager, for example `running`.", func(i *apm.ManagerInfo) string { return i.Status }),
	engine.BoolField("ha_mode", "Whether the manager runs in high-availability mode.", func(i *apm.ManagerInfo) bool { return i.HAMode }),
}

var newManagerInfoDataSource = engine.NewDataSource(dataSourceType[apm.ManagerInfo]{
	Name:        "manager_info",
	Description: "Reads the manager's version and status. Needs no API key, so it also checks that the endpoint is reachable.",
	Fields:      managerInfoFields,
	Public:      true,
	Read: func(ctx context.Context, c *conn, _ engine.Attrs) (*apm.ManagerInfo, error) {
		return c.ManagerInfo(ctx)
	},
})
