package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var _ datasource.DataSourceWithConfigure = (*publicNodesDataSource)(nil)

func newPublicNodesDataSource() datasource.DataSource { return &publicNodesDataSource{} }

// publicNodesDataSource reads /rest/public/nodes, which needs no API key. The manager
// documents its content as dummy data for testing connectivity.
type publicNodesDataSource struct {
	dataSourceBase
}

type publicNodesDataModel struct {
	Nodes []publicNodeItem `tfsdk:"nodes"`
}

type publicNodeItem struct {
	NodeID           types.String `tfsdk:"node_id"`
	Name             types.String `tfsdk:"name"`
	SystemName       types.String `tfsdk:"system_name"`
	ConnectionStatus types.String `tfsdk:"connection_status"`
	IPAddress        types.String `tfsdk:"ip_address"`
}

func (d *publicNodesDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_public_nodes"
}

func (d *publicNodesDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Reads the manager's public node list, which needs no API key. The manager documents it as dummy data for testing, not for production use: use it to check connectivity, and `apm_nodes` for real data.",
		Attributes: map[string]schema.Attribute{
			"nodes": schema.ListNestedAttribute{
				MarkdownDescription: "The nodes of the public list.",
				Computed:            true,
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"node_id":           schema.StringAttribute{MarkdownDescription: "Node identifier.", Computed: true},
					"name":              schema.StringAttribute{MarkdownDescription: "Node name.", Computed: true},
					"system_name":       schema.StringAttribute{MarkdownDescription: "System name.", Computed: true},
					"connection_status": schema.StringAttribute{MarkdownDescription: "`connected` or `disconnected`.", Computed: true},
					"ip_address":        schema.StringAttribute{MarkdownDescription: "IP address.", Computed: true},
				}},
			},
		},
	}
}

func (d *publicNodesDataSource) Read(ctx context.Context, _ datasource.ReadRequest, resp *datasource.ReadResponse) {
	client, diags := d.data.apiClient()
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	nodes, err := client.ListPublicNodes(ctx)
	if err != nil {
		resp.Diagnostics.Append(callError("list public nodes", err))
		return
	}
	out := publicNodesDataModel{Nodes: make([]publicNodeItem, 0, len(nodes))}
	for _, n := range nodes {
		out.Nodes = append(out.Nodes, publicNodeItem{
			NodeID:           types.StringValue(n.NodeID),
			Name:             types.StringValue(n.NodeName),
			SystemName:       types.StringValue(n.SystemName),
			ConnectionStatus: types.StringValue(n.ConnectionStatus),
			IPAddress:        types.StringValue(n.IPAddress),
		})
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, out)...)
}
