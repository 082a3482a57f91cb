package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var _ datasource.DataSourceWithConfigure = (*nodeDataSource)(nil)

func newNodeDataSource() datasource.DataSource { return &nodeDataSource{} }

// nodeDataSource reads one node and the servers on it (one GET of the node detail).
type nodeDataSource struct {
	dataSourceBase
}

type nodeDataModel struct {
	ID         types.String     `tfsdk:"id"`
	NodeID     types.String     `tfsdk:"node_id"`
	Name       types.String     `tfsdk:"name"`
	SystemName types.String     `tfsdk:"system_name"`
	HostIP     types.String     `tfsdk:"host_ip"`
	AgentPort  types.Int64      `tfsdk:"agent_port"`
	Status     types.String     `tfsdk:"status"`
	Servers    []nodeServerItem `tfsdk:"servers"`
}

type nodeServerItem struct {
	ServerID   types.String `tfsdk:"server_id"`
	ServerType types.String `tfsdk:"server_type"`
	Status     types.String `tfsdk:"status"`
}

func (d *nodeDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_node"
}

func (d *nodeDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	attributes := nodeItemAttributes()
	attributes["system_name"] = schema.StringAttribute{
		MarkdownDescription: "Name of the node's system.",
		Required:            true,
		Validators:          systemNameValidators(),
	}
	attributes["name"] = schema.StringAttribute{
		MarkdownDescription: "Name of the node to read.",
		Required:            true,
		Validators:          nodeNameValidators(),
	}
	attributes["servers"] = schema.ListNestedAttribute{
		MarkdownDescription: "The servers on the node.",
		Computed:            true,
		NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
			"server_id":   schema.StringAttribute{MarkdownDescription: "Identifier of the server on the node.", Computed: true},
			"server_type": schema.StringAttribute{MarkdownDescription: "Kind of server as the manager reports it.", Computed: true},
			"status":      schema.StringAttribute{MarkdownDescription: "Status of the server, for example `running` or `stopped`.", Computed: true},
		}},
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Reads one node of a system, with the servers on it. Fails when the node does not exist.",
		Attributes:          attributes,
	}
}

func (d *nodeDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	cfg, client, ok := prepare[nodeDataModel](ctx, d.data, req.Config.Get, &resp.Diagnostics)
	if !ok {
		return
	}
	node, err := client.GetNode(ctx, cfg.SystemName.ValueString(), cfg.Name.ValueString())
	if err != nil {
		id := nodeID(cfg.SystemName.ValueString(), cfg.Name.ValueString())
		resp.Diagnostics.Append(callError(fmt.Sprintf("read node %q", id), err))
		return
	}
	item := nodeItemFrom(node)
	out := nodeDataModel{
		ID: types.StringValue(nodeID(cfg.SystemName.ValueString(), cfg.Name.ValueString())), NodeID: item.NodeID,
		Name: cfg.Name, SystemName: cfg.SystemName,
		HostIP: item.HostIP, AgentPort: item.AgentPort, Status: item.Status,
		Servers: make([]nodeServerItem, 0, len(node.Servers)),
	}
	for _, s := range node.Servers {
		out.Servers = append(out.Servers, nodeServerItem{
			ServerID: types.StringValue(s.ServerID), ServerType: types.StringValue(s.ServerType), Status: types.StringValue(s.Status),
		})
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, out)...)
}
