package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
)

var (
	_ resource.ResourceWithConfigure   = (*systemResource)(nil)
	_ resource.ResourceWithImportState = (*systemResource)(nil)
)

func newSystemResource() resource.Resource { return &systemResource{} }

// systemResource manages a system: a named group of nodes. The manager knows a system
// by its name, so a rename is a PUT on the old name; the systemId survives it.
type systemResource struct {
	resourceBase
}

type systemModel struct {
	ID           types.String `tfsdk:"id"`
	Name         types.String `tfsdk:"name"`
	NodeCount    types.Int64  `tfsdk:"node_count"`
	WebCount     types.Int64  `tfsdk:"web_count"`
	AppCount     types.Int64  `tfsdk:"app_count"`
	SessionCount types.Int64  `tfsdk:"session_count"`
	CacheCount   types.Int64  `tfsdk:"cache_count"`
}

func (r *systemResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_system"
}

func (r *systemResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "A system: a named group of nodes and the servers on them. Changing `name` renames the system in place.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				MarkdownDescription: "The manager's `systemId`. It stays the same when the system is renamed.",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"name": schema.StringAttribute{
				MarkdownDescription: "Name of the system: 1 to 20 letters, digits, `-` or `_`. Renamed in place.",
				Required:            true,
				Validators:          systemNameValidators(),
			},
			"node_count":    countAttribute("Number of nodes in the system."),
			"web_count":     countAttribute("Number of web servers in the system."),
			"app_count":     countAttribute("Number of WAS (application) servers in the system."),
			"session_count": countAttribute("Number of session servers in the system."),
			"cache_count":   countAttribute("Number of cache servers in the system."),
		},
	}
}

// countAttribute is a count the manager maintains; other resources change it, so no
// plan modifier may pretend to know it before apply.
func countAttribute(description string) schema.Int64Attribute {
	return schema.Int64Attribute{MarkdownDescription: description, Computed: true}
}

func (r *systemResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	plan, client, ok := prepare[systemModel](ctx, r.data, req.Plan.Get, &resp.Diagnostics)
	if !ok {
		return
	}
	name := plan.Name.ValueString()
	if err := client.CreateSystem(ctx, name); err != nil {
		resp.Diagnostics.Append(createError(fmt.Sprintf("create system %q", name), "apm_system", name, err))
		return
	}
	// Record the system before reading it back: if the read fails, Terraform still knows
	// the system exists (as tainted) instead of leaving it orphaned.
	resp.Diagnostics.Append(resp.State.Set(ctx, systemModel{Name: plan.Name})...)
	resp.Diagnostics.Append(r.readInto(ctx, client, name, &resp.State)...)
}

func (r *systemResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	state, client, ok := prepare[systemModel](ctx, r.data, req.State.Get, &resp.Diagnostics)
	if !ok {
		return
	}
	system, err := client.GetSystem(ctx, state.Name.ValueString())
	if apm.IsNotFound(err) {
		// Deleted (or renamed) outside Terraform: plan to create it again.
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		resp.Diagnostics.Append(callError(fmt.Sprintf("read system %q", state.Name.ValueString()), err))
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, systemModelFrom(system))...)
}

func (r *systemResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	state, client, ok := prepare[systemModel](ctx, r.data, req.State.Get, &resp.Diagnostics)
	var plan systemModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if !ok || resp.Diagnostics.HasError() {
		return
	}
	oldName, newName := state.Name.ValueString(), plan.Name.ValueString()
	if oldName != newName {
		if err := client.RenameSystem(ctx, oldName, newName); err != nil {
			resp.Diagnostics.Append(callError(fmt.Sprintf("rename system %q to %q", oldName, newName), err))
			return
		}
	}
	resp.Diagnostics.Append(r.readInto(ctx, client, newName, &resp.State)...)
}

func (r *systemResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	state, client, ok := prepare[systemModel](ctx, r.data, req.State.Get, &resp.Diagnostics)
	if !ok {
		return
	}
	err := client.DeleteSystem(ctx, state.Name.ValueString())
	if err != nil && !apm.IsNotFound(err) {
		resp.Diagnostics.Append(callError(fmt.Sprintf("delete system %q", state.Name.ValueString()), err))
	}
}

// ImportState takes the system name: terraform import apm_system.example prod.
func (r *systemResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resource.ImportStatePassthroughID(ctx, path.Root("name"), req, resp)
}

// readInto reads the system back after a write and stores what the manager reports.
func (r *systemResource) readInto(ctx context.Context, client *apm.Client, name string, state stateSetter) diag.Diagnostics {
	system, err := client.GetSystem(ctx, name)
	if err != nil {
		return diag.Diagnostics{callError(fmt.Sprintf("read system %q after writing it", name), err)}
	}
	return state.Set(ctx, systemModelFrom(system))
}

func systemModelFrom(s *apm.System) systemModel {
	nodeCount := s.NodeCount
	if nodeCount == 0 && len(s.Nodes) > 0 {
		// A manager whose detail view omits the counts still lists the nodes.
		nodeCount = int64(len(s.Nodes))
	}
	return systemModel{
		ID:           types.StringValue(s.SystemID),
		Name:         types.StringValue(s.SystemName),
		NodeCount:    types.Int64Value(nodeCount),
		WebCount:     types.Int64Value(s.WebCount),
		AppCount:     types.Int64Value(s.AppCount),
		SessionCount: types.Int64Value(s.SessionCount),
		CacheCount:   types.Int64Value(s.CacheCount),
	}
}
