package provider

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
)

// resourceType declares a managed resource: its fields, its identity and its calls on
// the manager. The engine (engineResource) owns the flow around the calls: decoding,
// recording a created object before reading it back, 404 on read and delete, 409 on
// create, waiting out dependants on delete, import, and the wording of diagnostics.
type resourceType[T any] struct {
	name        string // without the provider prefix: "system" for apm_system
	description string
	fields      []field[T]
	identity    identity
	// deleteTimeout, when set, gives the resource a timeouts attribute with delete, and
	// makes delete wait while the manager refuses it with 409 because other objects
	// (children) still depend on this one.
	deleteTimeout time.Duration
	// describe names the object in diagnostics, such as `system "shop"`.
	describe func(a attrs) string

	// create writes a new object from the plan; the engine then reads it back with read.
	create func(ctx context.Context, m *manager, plan attrs) error
	// read returns the object that state (or a plan after a write) identifies; an error
	// that isGone means it no longer exists.
	read func(ctx context.Context, m *manager, state attrs) (*T, error)
	// update changes the object in place from state to plan.
	update func(ctx context.Context, m *manager, plan, state attrs) error
	// delete removes the object; an error that isGone counts as done.
	delete func(ctx context.Context, m *manager, state attrs) error
	// blockers names the objects that still hold this one when delete keeps conflicting.
	blockers func(ctx context.Context, m *manager, state attrs) ([]string, error)
	// checkPlan rejects at plan what the provider already knows to be wrong, without a
	// request (a reference to a system that does not exist, say). Optional.
	checkPlan func(m *manager, plan attrs, diags *diag.Diagnostics)
}

// newResource registers a declared type with the framework.
func newResource[T any](t resourceType[T]) func() resource.Resource {
	return func() resource.Resource { return &engineResource[T]{t: &t} }
}

var (
	_ resource.ResourceWithConfigure   = (*engineResource[struct{}])(nil)
	_ resource.ResourceWithImportState = (*engineResource[struct{}])(nil)
	_ resource.ResourceWithModifyPlan  = (*engineResource[struct{}])(nil)
)

// engineResource is the one implementation of resource.Resource.
type engineResource[T any] struct {
	t    *resourceType[T]
	data *providerData
}

func (r *engineResource[T]) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_" + r.t.name
}

func (r *engineResource[T]) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	attributes := resourceAttributes(r.t.fields, r.t.name)
	if r.t.deleteTimeout > 0 {
		attributes["timeouts"] = describedTimeouts(ctx, timeouts.Opts{
			Delete: true,
			DeleteDescription: fmt.Sprintf("How long a delete may wait while the manager refuses it because other objects still depend on this one, "+
				"as a duration such as `30s` or `5m`. Defaults to `%s`.", formatDuration(r.t.deleteTimeout)),
		})
	}
	resp.Schema = rschema.Schema{MarkdownDescription: r.t.description, Attributes: attributes}
}

func (r *engineResource[T]) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = configureData(req.ProviderData, &resp.Diagnostics)
}

// ModifyPlan fails the plan, rather than the apply, when the provider cannot work or the
// type knows the plan cannot.
func (r *engineResource[T]) ModifyPlan(_ context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if r.data == nil {
		return // validation before configure
	}
	resp.Diagnostics.Append(r.data.requireKey()...)
	if r.t.checkPlan == nil || r.data.m == nil || req.Plan.Raw.IsNull() {
		return
	}
	plan, err := attrsOf(req.Plan.Raw)
	if err != nil {
		resp.Diagnostics.AddError("Invalid plan", err.Error())
		return
	}
	r.t.checkPlan(r.data.m, plan, &resp.Diagnostics)
}

func (r *engineResource[T]) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	m, plan, ok := r.begin(req.Plan.Raw, &resp.Diagnostics)
	if !ok {
		return
	}
	typ := objectTypeOf(ctx, resp.State.Schema)
	if err := r.t.create(ctx, m, plan); err != nil {
		resp.Diagnostics.Append(r.createError(plan, err))
		return
	}
	// Record the object before reading it back: if the read fails, Terraform still knows
	// it exists (tainted) instead of leaving it orphaned in the manager.
	resp.State.Raw = recorded(typ, plan)
	obj, err := r.t.read(ctx, m, plan)
	if err != nil {
		resp.Diagnostics.Append(callError("read "+r.t.describe(plan)+" after creating it", err))
		return
	}
	resp.State.Raw = flatten(typ, r.t.fields, obj, plan)
}

func (r *engineResource[T]) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	m, state, ok := r.begin(req.State.Raw, &resp.Diagnostics)
	if !ok {
		return
	}
	obj, err := r.t.read(ctx, m, state)
	if isGone(err) {
		// Deleted outside Terraform: the next plan creates it again.
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		resp.Diagnostics.Append(callError("read "+r.t.describe(state), err))
		return
	}
	resp.State.Raw = flatten(objectTypeOf(ctx, resp.State.Schema), r.t.fields, obj, state)
}

func (r *engineResource[T]) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	m, plan, ok := r.begin(req.Plan.Raw, &resp.Diagnostics)
	state, err := attrsOf(req.State.Raw)
	if err != nil {
		resp.Diagnostics.AddError("Invalid state", err.Error())
	}
	if !ok || err != nil {
		return
	}
	if !r.managedChange(plan, state) {
		// Only the timeouts changed: nothing to send.
		resp.State.Raw = req.Plan.Raw
		return
	}
	if err := r.t.update(ctx, m, plan, state); err != nil {
		resp.Diagnostics.Append(callError("update "+r.t.describe(state), err))
		return
	}
	obj, err := r.t.read(ctx, m, plan)
	if err != nil {
		resp.Diagnostics.Append(callError("read "+r.t.describe(plan)+" after updating it", err))
		return
	}
	resp.State.Raw = flatten(objectTypeOf(ctx, resp.State.Schema), r.t.fields, obj, plan)
}

func (r *engineResource[T]) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	m, state, ok := r.begin(req.State.Raw, &resp.Diagnostics)
	if !ok {
		return
	}
	timeout, diags := r.deleteWait(ctx, req.State)
	resp.Diagnostics.Append(diags...)
	if diags.HasError() {
		return
	}
	if err := r.deleteWaiting(ctx, m, state, timeout); err != nil {
		resp.Diagnostics.Append(callError("delete "+r.t.describe(state), err))
	}
}

// describedTimeouts is the timeouts attribute with a description of its own (the module
// leaves the attribute itself undescribed).
func describedTimeouts(ctx context.Context, opts timeouts.Opts) rschema.Attribute {
	a := timeouts.Attributes(ctx, opts)
	if nested, ok := a.(rschema.SingleNestedAttribute); ok {
		nested.MarkdownDescription = "Time limits of the operations that wait."
		return nested
	}
	return a
}

// managedChange reports whether the plan changes a field of the managed resource.
func (r *engineResource[T]) managedChange(plan, state attrs) bool {
	for _, f := range r.t.fields {
		if f.views&inResource != 0 && !plan[f.name].Equal(state[f.name]) {
			return true
		}
	}
	return false
}

// deleteWait is the configured delete timeout, or the type's default; 0 when the type
// does not wait.
func (r *engineResource[T]) deleteWait(ctx context.Context, state tfsdk.State) (time.Duration, diag.Diagnostics) {
	if r.t.deleteTimeout == 0 {
		return 0, nil
	}
	var tv timeouts.Value
	diags := state.GetAttribute(ctx, path.Root("timeouts"), &tv)
	if diags.HasError() {
		return 0, diags
	}
	return tv.Delete(ctx, r.t.deleteTimeout)
}

// deleteWaiting deletes, and while the manager answers 409 (objects that depend on this
// one are still going away, typically deleted by the same apply in parallel) tries again
// until the timeout. The error then names what still holds the object.
func (r *engineResource[T]) deleteWaiting(ctx context.Context, m *manager, state attrs, timeout time.Duration) error {
	const deleted, blocked = "deleted", "blocked by dependent objects"
	var lastConflict error
	wait := apm.Poll[struct{}]{
		What:    r.t.describe(state),
		Pending: []string{blocked},
		Target:  []string{deleted},
		Timeout: timeout,
		Refresh: func(ctx context.Context) (struct{}, string, error) {
			err := r.t.delete(ctx, m, state)
			switch {
			case err == nil || isGone(err):
				return struct{}{}, deleted, nil
			case apm.IsConflict(err) && timeout > 0:
				lastConflict = err
				return struct{}{}, blocked, nil
			default:
				return struct{}{}, "", err
			}
		},
	}
	_, err := wait.Wait(ctx)
	var timedOut *apm.TimeoutError
	if lastConflict == nil || !errors.As(err, &timedOut) {
		return err
	}
	return r.blockedError(ctx, m, state, timeout, lastConflict)
}

// blockedError explains a delete that the manager kept refusing.
func (r *engineResource[T]) blockedError(ctx context.Context, m *manager, state attrs, timeout time.Duration, conflict error) error {
	held := "other objects still depend on it"
	if r.t.blockers != nil {
		// The wait has used up ctx's time only if ctx had a deadline; give the look its own.
		lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		defer cancel()
		if names, err := r.t.blockers(lctx, m, state); err == nil && len(names) > 0 {
			held = "still held by " + strings.Join(names, ", ")
		}
	}
	return fmt.Errorf("gave up after %s: %s (%w). Delete or move those first, or raise timeouts.delete",
		formatDuration(timeout), held, conflict)
}

func (r *engineResource[T]) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	title := "Invalid import ID for apm_" + r.t.name
	pieces, err := r.t.identity.parse(req.ID)
	if err != nil {
		resp.Diagnostics.AddError(title, "Expected "+strings.TrimPrefix(err.Error(), "expected "))
		return
	}
	m, diags := r.data.manager()
	resp.Diagnostics.Append(diags...)
	if diags.HasError() {
		return
	}
	for i, p := range r.t.identity.parts {
		value := pieces[i]
		if p.resolve != nil {
			if value, err = p.resolve(ctx, m, value); err != nil {
				resp.Diagnostics.AddError("Cannot import apm_"+r.t.name+" "+req.ID, explain(err))
				return
			}
		}
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root(p.attr), value)...)
	}
}

// begin is the common start of a CRUD method: the manager and the request's attributes.
func (r *engineResource[T]) begin(raw tftypes.Value, diags *diag.Diagnostics) (*manager, attrs, bool) {
	m, d := r.data.manager()
	diags.Append(d...)
	a, err := attrsOf(raw)
	if err != nil {
		diags.AddError("Invalid request data", err.Error())
	}
	return m, a, !diags.HasError()
}

// createError explains a failed create. A conflict means the object exists already;
// the way out is to import it, with an import ID that works.
func (r *engineResource[T]) createError(plan attrs, err error) diag.Diagnostic {
	action := "create " + r.t.describe(plan)
	id := r.t.identity.importID(plan)
	if !apm.IsConflict(err) || id == "" {
		return callError(action, err)
	}
	typeName := "apm_" + r.t.name
	return diag.NewErrorDiagnostic("Failed to "+action, fmt.Sprintf(
		"%s\n\nThe object already exists in the manager. To manage it with Terraform, import it instead of creating it:\n"+
			"  terraform import %s.<name> %s\n"+
			"or add an import block:\n"+
			"  import {\n    to = %s.<name>\n    id = %q\n  }",
		explain(err), typeName, id, typeName, id))
}

// objectTypeOf is the Terraform type of a schema's object.
func objectTypeOf(ctx context.Context, s interface{ Type() attr.Type }) tftypes.Object {
	return s.Type().TerraformType(ctx).(tftypes.Object) //nolint:forcetypeassert // a schema is always an object
}

// formatDuration prints durations as users write them: 10m rather than 10m0s.
func formatDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
