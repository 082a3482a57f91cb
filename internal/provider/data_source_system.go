package provider

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
)

var _ datasource.DataSourceWithConfigure = (*systemDataSource)(nil)

func newSystemDataSource() datasource.DataSource { return &systemDataSource{} }

// systemDataSource reads one system and the nodes in it (one GET /rest/systems/{name}).
type systemDataSource struct {
	dataSourceBase
}

type systemDataModel struct {
	ID           types.String     `tfsdk:"id"`
	Name         types.String     `tfsdk:"name"`
	NodeCount    types.Int64      `tfsdk:"node_count"`
	WebCount     types.Int64      `tfsdk:"web_count"`
	AppCount     types.Int64      `tfsdk:"app_count"`
	SessionCount types.Int64      `tfsdk:"session_count"`
	CacheCount   types.Int64      `tfsdk:"cache_count"`
	Nodes        []systemNodeItem `tfsdk:"nodes"`
}

type systemNodeItem struct {
	Name   types.String `tfsdk:"name"`
	HostIP types.String `tfsdk:"host_ip"`
	Status types.String `tfsdk:"status"`
}

func (d *systemDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_system"
}

func (d *systemDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	attributes := systemSummaryAttributes()
	attributes["name"] = schema.StringAttribute{
		MarkdownDescription: "Name of the system to read.",
		Required:            true,
		Validators:          systemNameValidators(),
	}
	attributes["nodes"] = schema.ListNestedAttribute{
		MarkdownDescription: "The nodes of the system.",
		Computed:            true,
		NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
			"name":    schema.StringAttribute{MarkdownDescription: "Name of the node.", Computed: true},
			"host_ip": schema.StringAttribute{MarkdownDescription: "IP address of the node's host.", Computed: true},
			"status":  schema.StringAttribute{MarkdownDescription: "Status of the node.", Computed: true},
		}},
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Reads one system by name, with its counts and nodes. Fails when the system does not exist.",
		Attributes:          attributes,
	}
}

func (d *systemDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	cfg, client, ok := prepare[systemDataModel](ctx, d.data, req.Config.Get, &resp.Diagnostics)
	if !ok {
		return
	}
	system, err := client.GetSystem(ctx, cfg.Name.ValueString())
	if err != nil {
		resp.Diagnostics.Append(callError(fmt.Sprintf("read system %q", cfg.Name.ValueString()), err))
		return
	}
	m := systemModelFrom(system)
	out := systemDataModel{
		ID: m.ID, Name: m.Name, NodeCount: m.NodeCount, WebCount: m.WebCount,
		AppCount: m.AppCount, SessionCount: m.SessionCount, CacheCount: m.CacheCount,
		Nodes: make([]systemNodeItem, 0, len(system.Nodes)),
	}
	// Sorted so that the list does not change with the manager's ordering.
	slices.SortFunc(system.Nodes, func(a, b apm.SystemNode) int { return strings.Compare(a.NodeName, b.NodeName) })
	for _, n := range system.Nodes {
		out.Nodes = append(out.Nodes, systemNodeItem{
			Name: types.StringValue(n.NodeName), HostIP: types.StringValue(n.HostIP), Status: types.StringValue(n.Status),
		})
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, out)...)
}
