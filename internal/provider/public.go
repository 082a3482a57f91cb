package provider

import (
	"context"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
)

// The calls under /rest/public need no API key: these data sources work without one,
// which also makes them a check that the endpoint is reachable.

var publicNodeFields = []field[apm.PublicNode]{
	stringField("node_id", "Node identifier.", func(n *apm.PublicNode) string { return n.NodeID }),
	stringField("name", "Node name.", func(n *apm.PublicNode) string { return n.NodeName }),
	stringField("system_name", "System name.", func(n *apm.PublicNode) string { return n.SystemName }),
	stringField("connection_status", "`connected` or `disconnected`.", func(n *apm.PublicNode) string { return n.ConnectionStatus }),
	stringField("ip_address", "IP address.", func(n *apm.PublicNode) string { return n.IPAddress }),
}

var newPublicNodesDataSource = NewListDataSource(listDataSourceType[apm.PublicNode]{
	name: "public_nodes",
	description: "Reads the manager's public node list, which needs no API key. The manager documents it as dummy data for testing, " +
		"not for production use: use it to check connectivity, and `apm_nodes` for real data.",
	listName: "nodes",
	listDesc: "The nodes of the public list.",
	fields:   publicNodeFields,
	public:   true,
	list: func(ctx context.Context, m *manager, _ attrs) ([]apm.PublicNode, error) {
		return m.ListPublicNodes(ctx)
	},
})

var managerInfoFields = []field[apm.ManagerInfo]{
	stringField("version", "Version of the manager.", func(i *apm.ManagerInfo) string { return i.Version }),
	stringField("patch_version", "Patch level of the manager.", func(i *apm.ManagerInfo) string { return i.PatchVersion }),
	stringField("status", "Status of the manager, for example `running`.", func(i *apm.ManagerInfo) string { return i.Status }),
	boolField("ha_mode", "Whether the manager runs in high-availability mode.", func(i *apm.ManagerInfo) bool { return i.HAMode }),
}

var newManagerInfoDataSource = NewDataSource(dataSourceType[apm.ManagerInfo]{
	name:        "manager_info",
	description: "Reads the manager's version and status. Needs no API key, so it also checks that the endpoint is reachable.",
	fields:      managerInfoFields,
	public:      true,
	read: func(ctx context.Context, m *manager, _ attrs) (*apm.ManagerInfo, error) {
		return m.ManagerInfo(ctx)
	},
})
