package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
)

var (
	_ resource.ResourceWithConfigure   = (*nodeResource)(nil)
	_ resource.ResourceWithImportState = (*nodeResource)(nil)
)

func newNodeResource() resource.Resource { return &nodeResource{} }

// nodeResource manages a node of a system (scale-out on create, scale-in on delete).
// The manager reads a node by name but modifies and deletes it by its nodeId.
type nodeResource struct {
	resourceBase
}

type nodeModel struct {
	ID         types.String `tfsdk:"id"`
	SystemName types.String `tfsdk:"system_name"`
	Name       types.String `tfsdk:"name"`
	HostIP     types.String `tfsdk:"host_ip"`
	AgentPort  types.Int64  `tfsdk:"agent_port"`
	NodeID     types.String `tfsdk:"node_id"`
	Status     types.String `tfsdk:"status"`
}

func (r *nodeResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_node"
}

func (r *nodeResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "A node of a system: a host whose agent the manager talks to. Creating it registers the node (scale-out); destroying it removes the node (scale-in).",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				MarkdownDescription: "`<system_name>/<name>`, the form `terraform import` takes.",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"system_name": schema.StringAttribute{
				MarkdownDescription: "Name of the system the node belongs to. Changing it replaces the node.",
				Required:            true,
				Validators:          systemNameValidators(),
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"name": schema.StringAttribute{
				MarkdownDescription: "Name of the node: 1 to 63 letters, digits, `.`, `-` or `_`. Changing it replaces the node.",
				Required:            true,
				Validators:          nodeNameValidators(),
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"host_ip": schema.StringAttribute{
				MarkdownDescription: "IPv4 or IPv6 address of the node's host. Updated in place.",
				Required:            true,
				Validators:          []validator.String{ipAddressValidator{}},
			},
			"agent_port": schema.Int64Attribute{
				MarkdownDescription: "Port of the node agent, 1 to 65535. Updated in place.",
				Required:            true,
				Validators:          portValidators(),
			},
			"node_id": schema.StringAttribute{
				MarkdownDescription: "The manager's `nodeId`, used to modify and delete the node.",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"status": schema.StringAttribute{
				MarkdownDescription: "Status of the node as the manager reports it, for example `running`.",
				Computed:            true,
			},
		},
	}
}

func (r *nodeResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	plan, client, ok := prepare[nodeModel](ctx, r.data, req.Plan.Get, &resp.Diagnostics)
	if !ok {
		return
	}
	id := nodeID(plan.SystemName.ValueString(), plan.Name.ValueString())
	err := client.CreateNode(ctx, apm.CreateNodeRequest{
		NodeName:   plan.Name.ValueString(),
		SystemName: plan.SystemName.ValueString(),
		HostIP:     plan.HostIP.ValueString(),
		AgentPort:  plan.AgentPort.ValueInt64(),
	})
	if err != nil {
		resp.Diagnostics.Append(createError(fmt.Sprintf("create node %q", id), "apm_node", id, err))
		return
	}
	// Record the node before reading it back, so a failed read leaves it tainted in state
	// rather than orphaned in the manager.
	recorded := plan
	recorded.ID = types.StringValue(id)
	recorded.NodeID = types.StringNull()
	recorded.Status = types.StringNull()
	resp.Diagnostics.Append(resp.State.Set(ctx, recorded)...)
	resp.Diagnostics.Append(r.readInto(ctx, client, plan, &resp.State)...)
}

func (r *nodeResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	state, client, ok := prepare[nodeModel](ctx, r.data, req.State.Get, &resp.Diagnostics)
	if !ok {
		return
	}
	node, err := client.GetNode(ctx, state.SystemName.ValueString(), state.Name.ValueString())
	if apm.IsNotFound(err) {
		// Scaled in (or its system deleted) outside Terraform: plan to create it again.
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		resp.Diagnostics.Append(callError(fmt.Sprintf("read node %q", state.ID.ValueString()), err))
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, nodeModelFrom(node, state))...)
}

func (r *nodeResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	state, client, ok := prepare[nodeModel](ctx, r.data, req.State.Get, &resp.Diagnostics)
	var plan nodeModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if !ok || resp.Diagnostics.HasError() {
		return
	}
	err := client.UpdateNode(ctx, state.SystemName.ValueString(), state.NodeID.ValueString(), apm.UpdateNodeRequest{
		HostIP:    plan.HostIP.ValueString(),
		AgentPort: plan.AgentPort.ValueInt64(),
	})
	if err != nil {
		resp.Diagnostics.Append(callError(fmt.Sprintf("modify node %q", state.ID.ValueString()), err))
		return
	}
	resp.Diagnostics.Append(r.readInto(ctx, client, plan, &resp.State)...)
}

func (r *nodeResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	state, client, ok := prepare[nodeModel](ctx, r.data, req.State.Get, &resp.Diagnostics)
	if !ok {
		return
	}
	err := client.DeleteNode(ctx, state.SystemName.ValueString(), state.NodeID.ValueString())
	if err != nil && !apm.IsNotFound(err) {
		resp.Diagnostics.Append(callError(fmt.Sprintf("delete node %q", state.ID.ValueString()), err))
	}
}

// ImportState takes <system_name>/<name>: terraform import apm_node.web shop/web-01.
func (r *nodeResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	systemName, name, ok := strings.Cut(req.ID, "/")
	if !ok || systemName == "" || name == "" || strings.Contains(name, "/") {
		resp.Diagnostics.AddError("Invalid import ID for apm_node",
			fmt.Sprintf("Expected <system_name>/<name>, for example shop/web-01, got %q.", req.ID))
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), req.ID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("system_name"), systemName)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("name"), name)...)
}

// readInto reads the node back after a write and stores what the manager reports.
func (r *nodeResource) readInto(ctx context.Context, client *apm.Client, prior nodeModel, state stateSetter) diag.Diagnostics {
	node, err := client.GetNode(ctx, prior.SystemName.ValueString(), prior.Name.ValueString())
	if err != nil {
		id := nodeID(prior.SystemName.ValueString(), prior.Name.ValueString())
		return diag.Diagnostics{callError(fmt.Sprintf("read node %q after writing it", id), err)}
	}
	return state.Set(ctx, nodeModelFrom(node, prior))
}

func nodeID(systemName, name string) string { return systemName + "/" + name }

// nodeModelFrom converts the manager's view. prior supplies the identity and the user's
// spelling of the host address when the manager reports the same address differently.
func nodeModelFrom(n *apm.Node, prior nodeModel) nodeModel {
	hostIP := n.HostIP
	if sameIP(hostIP, prior.HostIP.ValueString()) {
		hostIP = prior.HostIP.ValueString()
	}
	// The node was looked up by system and name, so those come from the request; a
	// manager that leaves them out of the detail view must not blank them.
	return nodeModel{
		ID:         types.StringValue(nodeID(prior.SystemName.ValueString(), prior.Name.ValueString())),
		SystemName: prior.SystemName,
		Name:       prior.Name,
		HostIP:     types.StringValue(hostIP),
		AgentPort:  types.Int64Value(n.AgentPort),
		NodeID:     types.StringValue(n.NodeID),
		Status:     types.StringValue(n.Status),
	}
}
