package provider

import (
	"context"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
)

var _ datasource.DataSourceWithConfigure = (*systemsDataSource)(nil)

func newSystemsDataSource() datasource.DataSource { return &systemsDataSource{} }

// systemsDataSource lists every system with its counts (one GET /rest/systems).
type systemsDataSource struct {
	dataSourceBase
}

type systemsDataModel struct {
	// Elements have the attributes of apm_system, so they share its model.
	Systems []systemModel `tfsdk:"systems"`
}

func (d *systemsDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_systems"
}

func (d *systemsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists every system of the manager, sorted by name, with its node and server counts.",
		Attributes: map[string]schema.Attribute{
			"systems": schema.ListNestedAttribute{
				MarkdownDescription: "The systems.",
				Computed:            true,
				NestedObject:        schema.NestedAttributeObject{Attributes: systemSummaryAttributes()},
			},
		},
	}
}

// systemSummaryAttributes describes a system as the list and detail views report it.
func systemSummaryAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"id":            schema.StringAttribute{MarkdownDescription: "The manager's `systemId`.", Computed: true},
		"name":          schema.StringAttribute{MarkdownDescription: "Name of the system.", Computed: true},
		"node_count":    schema.Int64Attribute{MarkdownDescription: "Number of nodes.", Computed: true},
		"web_count":     schema.Int64Attribute{MarkdownDescription: "Number of web servers.", Computed: true},
		"app_count":     schema.Int64Attribute{MarkdownDescription: "Number of WAS (application) servers.", Computed: true},
		"session_count": schema.Int64Attribute{MarkdownDescription: "Number of session servers.", Computed: true},
		"cache_count":   schema.Int64Attribute{MarkdownDescription: "Number of cache servers.", Computed: true},
	}
}

func (d *systemsDataSource) Read(ctx context.Context, _ datasource.ReadRequest, resp *datasource.ReadResponse) {
	client, diags := d.data.apiClient()
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	systems, err := client.ListSystems(ctx)
	if err != nil {
		resp.Diagnostics.Append(callError("list systems", err))
		return
	}
	slices.SortFunc(systems, func(a, b apm.System) int { return strings.Compare(a.SystemName, b.SystemName) })
	out := systemsDataModel{Systems: make([]systemModel, 0, len(systems))}
	for i := range systems {
		out.Systems = append(out.Systems, systemModelFrom(&systems[i]))
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, out)...)
}
