package provider

import (
	"context"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
)

var _ datasource.DataSourceWithConfigure = (*nodesDataSource)(nil)

func newNodesDataSource() datasource.DataSource { return &nodesDataSource{} }

// nodesDataSource lists nodes, optionally of one system (one GET /rest/nodes).
type nodesDataSource struct {
	dataSourceBase
}

type nodesDataModel struct {
	SystemName types.String `tfsdk:"system_name"`
	Nodes      []nodeItem   `tfsdk:"nodes"`
}

// nodeItem is a node as the list view reports it.
type nodeItem struct {
	ID         types.String `tfsdk:"id"`
	NodeID     types.String `tfsdk:"node_id"`
	Name       types.String `tfsdk:"name"`
	SystemName types.String `tfsdk:"system_name"`
	HostIP     types.String `tfsdk:"host_ip"`
	AgentPort  types.Int64  `tfsdk:"agent_port"`
	Status     types.String `tfsdk:"status"`
}

func (d *nodesDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_nodes"
}

func (d *nodesDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists the nodes of the manager, sorted by system and node name.",
		Attributes: map[string]schema.Attribute{
			"system_name": schema.StringAttribute{
				MarkdownDescription: "Only list the nodes of this system.",
				Optional:            true,
				Validators:          systemNameValidators(),
			},
			"nodes": schema.ListNestedAttribute{
				MarkdownDescription: "The nodes.",
				Computed:            true,
				NestedObject:        schema.NestedAttributeObject{Attributes: nodeItemAttributes()},
			},
		},
	}
}

// nodeItemAttributes describes a node as the list and detail views report it.
func nodeItemAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"id":          schema.StringAttribute{MarkdownDescription: "`<system_name>/<name>`, as `apm_node` uses it.", Computed: true},
		"node_id":     schema.StringAttribute{MarkdownDescription: "The manager's `nodeId`.", Computed: true},
		"name":        schema.StringAttribute{MarkdownDescription: "Name of the node.", Computed: true},
		"system_name": schema.StringAttribute{MarkdownDescription: "Name of the node's system.", Computed: true},
		"host_ip":     schema.StringAttribute{MarkdownDescription: "IP address of the node's host.", Computed: true},
		"agent_port":  schema.Int64Attribute{MarkdownDescription: "Port of the node agent.", Computed: true},
		"status":      schema.StringAttribute{MarkdownDescription: "Status of the node.", Computed: true},
	}
}

func (d *nodesDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	cfg, client, ok := prepare[nodesDataModel](ctx, d.data, req.Config.Get, &resp.Diagnostics)
	if !ok {
		return
	}
	nodes, err := client.ListNodes(ctx)
	if err != nil {
		resp.Diagnostics.Append(callError("list nodes", err))
		return
	}
	slices.SortFunc(nodes, func(a, b apm.Node) int {
		return strings.Compare(nodeID(a.SystemName, a.NodeName), nodeID(b.SystemName, b.NodeName))
	})
	cfg.Nodes = make([]nodeItem, 0, len(nodes))
	for i := range nodes {
		if cfg.SystemName.IsNull() || nodes[i].SystemName == cfg.SystemName.ValueString() {
			cfg.Nodes = append(cfg.Nodes, nodeItemFrom(&nodes[i]))
		}
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, cfg)...)
}

func nodeItemFrom(n *apm.Node) nodeItem {
	return nodeItem{
		ID:         types.StringValue(nodeID(n.SystemName, n.NodeName)),
		NodeID:     types.StringValue(n.NodeID),
		Name:       types.StringValue(n.NodeName),
		SystemName: types.StringValue(n.SystemName),
		HostIP:     types.StringValue(n.HostIP),
		AgentPort:  types.Int64Value(n.AgentPort),
		Status:     types.StringValue(n.Status),
	}
}
