package engine

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"maps"
	"slices"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// OperationType declares the declarative twin of an action, for every CLI (OpenTofu and
// Terraform before 1.14 have no actions): a resource that manages no object of the
// manager but performs an operation. Creating it, and every change of its triggers (as
// terraform_data's triggers_replace), runs Run within its timeouts; nothing else does: a
// change of any other argument is recorded for the next run, and refresh reads nothing.
// Its state keeps what the last run did (last_outcome).
type OperationType[C any] struct {
	Name        string // without the provider prefix: "was_rollout"
	Description string
	// Fields are the arguments, as an action's are.
	Fields []Field[Attrs]
	// Timeout bounds a run where the resource's timeouts (or its deprecated timeout)
	// does not.
	Timeout    time.Duration
	Validators []resource.ConfigValidator
	// CheckPlan rejects at plan, for a plan that runs the operation, what a read of the
	// manager shows to be wrong. Optional.
	CheckPlan func(ctx context.Context, m C, config Attrs, diags *diag.Diagnostics)
	// Describe says what a run does, in diagnostics: `restart 4 WAS servers`.
	Describe func(config Attrs) string
	// Run performs the operation and says what it did, for last_outcome. progress goes
	// to the provider's log: a resource cannot show progress in the CLI. memo carries
	// what a failed run left for the next run of the same resource.
	Run func(ctx context.Context, m C, config Attrs, progress Progress, memo *Memo) (outcome string, err error)
}

// Memo is what a run that failed leaves for the next run of the same resource, so that
// it can carry on where the failed one stopped: Prior is what the last failed run left
// (nil after a run that succeeded, and at create), and a failing run sets Next. The
// engine keeps it in the resource's private state (never shown in a plan), which the
// state of a failed update keeps; a failed create records no state, so it leaves none.
type Memo struct {
	Prior, Next []byte
}

// memoKey is the private state key of a Memo.
const memoKey = "run_memo"

// OperationOutcomeAttr is the attribute in which an operation resource records what its
// last run did; every operation resource has it and no other resource does, so a
// schema tells an operation resource apart from one that manages an object.
const OperationOutcomeAttr = "last_outcome"

// ManagesAnObject reports whether a resource schema is of a resource that manages an
// object of the manager, rather than of an operation resource, which has no identity,
// import, list resource or discovery.
func ManagesAnObject(s *tfprotov6.Schema) bool {
	return !slices.ContainsFunc(s.Block.Attributes, func(a *tfprotov6.SchemaAttribute) bool { return a.Name == OperationOutcomeAttr })
}

// The other attributes every operation resource has besides its fields.
const (
	operationTriggers = "triggers"
	operationOutcome  = OperationOutcomeAttr
	operationID       = "id"
)

// NewOperation registers a declared operation resource with the framework.
func NewOperation[C any](t OperationType[C]) func() resource.Resource {
	return func() resource.Resource { return &Operation[C]{Type: &t} }
}

var (
	_ resource.ResourceWithConfigure        = (*Operation[struct{}])(nil)
	_ resource.ResourceWithModifyPlan       = (*Operation[struct{}])(nil)
	_ resource.ResourceWithConfigValidators = (*Operation[struct{}])(nil)
)

// Operation is the one implementation of an operation resource.
type Operation[C any] struct {
	Type *OperationType[C]
	data *Configured[C]
}

func (o *Operation[C]) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_" + o.Type.Name
}

func (o *Operation[C]) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	attributes := map[string]rschema.Attribute{
		operationID: rschema.StringAttribute{
			MarkdownDescription: "A random id given at create; it names nothing in the manager.",
			Computed:            true, PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
		},
		operationTriggers: rschema.MapAttribute{
			MarkdownDescription: "Values whose change runs the operation again, such as an artifact's version or a setting's value " +
				"(as `triggers_replace` of `terraform_data`). Nothing else runs it: changing another argument only records it for the next run.",
			ElementType: types.StringType, Optional: true,
		},
		operationOutcome: rschema.StringAttribute{
			MarkdownDescription: "What the last run did, such as `restarted 4 WAS servers in 2 batches of at most 2: \"was-1\", ...`.",
			Computed:            true,
		},
	}
	maps.Copy(attributes, o.boundAttributes(ctx))
	for _, f := range o.Type.Fields {
		f.role = roleInPlace
		attributes[f.name] = f.resourceAttribute(o.Type.Name)
	}
	resp.Schema = rschema.Schema{MarkdownDescription: o.Type.Description, Attributes: attributes}
}

func (o *Operation[C]) ConfigValidators(context.Context) []resource.ConfigValidator {
	return append(slices.Clone(o.Type.Validators), timeoutsValidator{}, timeoutSuperseded{})
}

func (o *Operation[C]) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	o.data = configured[C](req.ProviderData, &resp.Diagnostics)
}

// runs reports whether a plan from prior to plan runs the operation: a create, or a
// change of triggers.
func runs(prior, plan Attrs) bool {
	return len(prior) == 0 || !prior[operationTriggers].Equal(plan[operationTriggers])
}

// ModifyPlan shows last_outcome as known after apply exactly when the operation runs,
// and runs CheckPlan then.
func (o *Operation[C]) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || o.data == nil {
		return
	}
	resp.Diagnostics.Append(o.data.requireKey()...)
	prior, err := AttrsOf(req.State.Raw)
	if err != nil {
		resp.Diagnostics.AddError("Invalid state", err.Error())
		return
	}
	plan, err := AttrsOf(req.Plan.Raw)
	if err != nil {
		resp.Diagnostics.AddError("Invalid plan", err.Error())
		return
	}
	if !runs(prior, plan) {
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root(operationOutcome), types.StringValue(prior.Str(operationOutcome)))...)
		return
	}
	if o.Type.CheckPlan == nil || resp.Diagnostics.HasError() || o.data.skipLookups || !req.Config.Raw.IsFullyKnown() {
		return
	}
	m, diags := o.data.Conn()
	if diags.HasError() {
		return
	}
	// The plan, not the configuration: it holds the defaults of what is left out.
	o.Type.CheckPlan(ctx, m, plan, &resp.Diagnostics)
}

func (o *Operation[C]) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	plan, ok := o.attrs(req.Plan.Raw, &resp.Diagnostics)
	if !ok {
		return
	}
	outcome, ok := o.run(ctx, plan, "create", &Memo{}, &resp.Diagnostics)
	if !ok {
		// Nothing is recorded: the next apply creates it again, which runs the operation.
		return
	}
	id := make([]byte, 8)
	_, _ = rand.Read(id)
	plan = plan.With(operationID, tftypes.NewValue(tftypes.String, hex.EncodeToString(id)))
	o.set(ctx, &resp.State.Raw, plan.With(operationOutcome, tftypes.NewValue(tftypes.String, outcome)), req.Plan.Raw.Type(), &resp.Diagnostics)
}

func (o *Operation[C]) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	plan, ok := o.attrs(req.Plan.Raw, &resp.Diagnostics)
	prior, ok2 := o.attrs(req.State.Raw, &resp.Diagnostics)
	if !ok || !ok2 {
		return
	}
	if runs(prior, plan) {
		memo := &Memo{}
		memo.Prior, _ = req.Private.GetKey(ctx, memoKey)
		outcome, ok := o.run(ctx, plan, "update", memo, &resp.Diagnostics)
		// What the run left for the next one, or nothing once a run succeeded.
		resp.Diagnostics.Append(resp.Private.SetKey(ctx, memoKey, memo.Next)...)
		if !ok {
			// The prior state stays, triggers included: the next plan runs it again.
			resp.State.Raw = req.State.Raw
			return
		}
		plan = plan.With(operationOutcome, tftypes.NewValue(tftypes.String, outcome))
	}
	o.set(ctx, &resp.State.Raw, plan, req.Plan.Raw.Type(), &resp.Diagnostics)
}

// Read keeps the state: the resource stands for runs, which the manager does not record.
func (o *Operation[C]) Read(context.Context, resource.ReadRequest, *resource.ReadResponse) {}

// Delete forgets the resource: a run cannot be undone.
func (o *Operation[C]) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {}

// run runs the operation at op ("create" or "update") within its bound, logging its
// progress.
func (o *Operation[C]) run(ctx context.Context, config Attrs, op string, memo *Memo, diags *diag.Diagnostics) (string, bool) {
	m, d := o.data.Conn()
	diags.Append(d...)
	if d.HasError() {
		return "", false
	}
	bound, setting := o.bound(config, op)
	ctx, cancel := context.WithTimeout(ctx, bound)
	defer cancel()
	progress := func(message string) { tflog.Info(ctx, message) }
	outcome, err := o.Type.Run(ctx, m, config, progress, memo)
	if err != nil {
		diags.Append(o.runError(ctx, config, op, bound, setting, err))
		return "", false
	}
	return outcome, true
}

func (o *Operation[C]) attrs(v tftypes.Value, diags *diag.Diagnostics) (Attrs, bool) {
	a, err := AttrsOf(v)
	if err != nil {
		diags.AddError("Invalid "+o.Type.Name, err.Error())
		return nil, false
	}
	return a, true
}

// set writes a into the state as an object of typ.
func (o *Operation[C]) set(_ context.Context, state *tftypes.Value, a Attrs, typ tftypes.Type, diags *diag.Diagnostics) {
	v := tftypes.NewValue(typ, map[string]tftypes.Value(a))
	if err := tftypes.ValidateValue(typ, map[string]tftypes.Value(a)); err != nil {
		diags.AddError("Invalid "+o.Type.Name+" state", err.Error())
		return
	}
	*state = v
}
