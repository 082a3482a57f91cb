package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var _ datasource.DataSourceWithConfigure = (*managerInfoDataSource)(nil)

func newManagerInfoDataSource() datasource.DataSource { return &managerInfoDataSource{} }

// managerInfoDataSource reads /rest/public/managerInfo (no API key needed).
type managerInfoDataSource struct {
	dataSourceBase
}

type managerInfoDataModel struct {
	Version      types.String `tfsdk:"version"`
	PatchVersion types.String `tfsdk:"patch_version"`
	Status       types.String `tfsdk:"status"`
	HAMode       types.Bool   `tfsdk:"ha_mode"`
}

func (d *managerInfoDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_manager_info"
}

func (d *managerInfoDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Reads the manager's version and status. Needs no API key, so it also checks that the endpoint is reachable.",
		Attributes: map[string]schema.Attribute{
			"version":       schema.StringAttribute{MarkdownDescription: "Version of the manager.", Computed: true},
			"patch_version": schema.StringAttribute{MarkdownDescription: "Patch level of the manager.", Computed: true},
			"status":        schema.StringAttribute{MarkdownDescription: "Status of the manager, for example `running`.", Computed: true},
			"ha_mode":       schema.BoolAttribute{MarkdownDescription: "Whether the manager runs in high-availability mode.", Computed: true},
		},
	}
}

func (d *managerInfoDataSource) Read(ctx context.Context, _ datasource.ReadRequest, resp *datasource.ReadResponse) {
	client, diags := d.data.apiClient()
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	info, err := client.ManagerInfo(ctx)
	if err != nil {
		resp.Diagnostics.Append(callError("read manager information", err))
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, managerInfoDataModel{
		Version:      types.StringValue(info.Version),
		PatchVersion: types.StringValue(info.PatchVersion),
		Status:       types.StringValue(info.Status),
		HAMode:       types.BoolValue(info.HAMode),
	})...)
}
