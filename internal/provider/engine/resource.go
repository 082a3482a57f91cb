package engine

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
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
)

// ResourceType declares a managed resource: its fields, its identity and its calls on
// the manager. The engine (Resource) owns the flow around the calls: decoding,
// recording a created object before reading it back, 404 on read and delete, 409 on
// create, waiting out dependants on delete, import, and the wording of diagnostics.
type ResourceType[T, C any] struct {
	Name        string // without the provider prefix: "system" for apm_system
	Noun        string // in descriptions, such as "WAS server"; the name with spaces when empty
	Description string
	Fields      []Field[T]
	ImportID    ImportID[C]
	// DeleteTimeout, when set, makes delete wait while the manager refuses it with 409
	// because other objects (children) still depend on this one, by default this long.
	DeleteTimeout time.Duration
	// Describe names the object in diagnostics, such as `system "shop"`.
	Describe func(a Attrs) string
	// DescribeWith, when set, names the object once the provider is configured, with
	// what only the connection knows (a node's system by its name, where Describe has its
	// id); Describe stays for what runs before (validation). Optional (describe.go).
	DescribeWith func(m C, a Attrs) string

	// Create writes a new object from the plan; the engine then reads it back with read.
	Create func(ctx context.Context, m C, plan Attrs) error
	// IdempotentCreate says that sending create twice does what sending it once does (it
	// sets a part of an existing object). A create whose answer was lost is then sent
	// again, within max_retries, rather than judged by a look-up: that the object reads
	// back proves nothing when it existed before.
	IdempotentCreate bool
	// Read returns the object that state (or a plan after a write) identifies; an error
	// that isGone means it no longer exists.
	Read func(ctx context.Context, m C, state Attrs) (*T, error)
	// Update changes the object in place from state to plan.
	Update func(ctx context.Context, m C, plan, state Attrs) error
	// Delete removes the object; an error that isGone counts as done.
	Delete func(ctx context.Context, m C, state Attrs) error
	// Blockers lists the objects that still hold this one when delete keeps conflicting,
	// so that the wait can tell whether this run deletes them (blockers.go).
	Blockers func(ctx context.Context, m C, state Attrs) ([]Blocker, error)
	// CheckPlan rejects at plan what the provider can know to be wrong (a reference to a
	// system that does not exist, say). prior is the state (empty for a create). Its ctx
	// knows the walk: which objects the configuration declares (PlannedObject) and whether
	// plan may ask the manager (LookupsSkipped). Optional.
	CheckPlan func(ctx context.Context, m C, plan, prior Attrs, diags *diag.Diagnostics)
	// References are the attributes that name a parent by its id: plan looks each new
	// known value up, and fails naming it when the manager has no such object
	// (references.go). Optional.
	References []Reference[C]
	// Validators check the configuration as a whole (one of two attributes, say). Optional.
	Validators []resource.ConfigValidator
	// Exclusives names what the object a plan declares holds that no other object can (a
	// port of its node, say): two resources of one configuration that declare the same
	// fail at plan (plan.go). Optional.
	Exclusives func(plan Attrs) []Exclusive
	// NoLookupAtPlan says that Read cannot tell from a plan whether the object exists (it
	// reports an object that the manager's answer does not show to be absent), so plan
	// does not look up the object of a create: the create's 409 tells at apply. Plan looks
	// it up otherwise (plan.go).
	NoLookupAtPlan bool
	// ExistingIsTaken says that an object the plan of a create finds in the manager is
	// someone else's although the create would go through over it (a grant given twice
	// succeeds): plan refuses it as for any other type, IdempotentCreate notwithstanding,
	// so that two configurations never own one object.
	ExistingIsTaken bool

	// Settle brings the object, once created or updated, to what the plan declares beyond
	// the values the calls above write (a server's running state), waiting for the
	// manager within the operation's timeout. Optional.
	Settle func(ctx context.Context, m C, plan Attrs) error
	// BeforeDelete prepares the object for its delete (stops a server), within the delete
	// timeout. Optional.
	BeforeDelete func(ctx context.Context, m C, state Attrs) error
	// SchemaVersion is the version of the resource's schema, 0 until a release changes
	// the schema in a way that old states must be upgraded for; UpgradeState then holds
	// one upgrader for each earlier version (the framework's StateUpgrader: the prior
	// schema and a function from the old state to the current one). Optional.
	SchemaVersion int64
	UpgradeState  map[int64]resource.StateUpgrader
	// DeleteWarning, when set, is said on every delete (an object the manager cannot
	// remove, whose delete only forgets it). Optional.
	DeleteWarning string

	// SetAside and Restore let an object be replaced under its own identity while other
	// objects hold it (see recreate.go). When the delete of such a replacement is refused
	// with 409, SetAside releases the holders, remembers them in C and names them; Restore,
	// after the create of the new object (and after a delete that failed anyway), takes
	// back what was remembered for the identity that a names, and does nothing when
	// nothing was. Its error names what it could not take back and how to. Optional,
	// together.
	SetAside func(ctx context.Context, m C, state Attrs) (released []string, err error)
	Restore  func(ctx context.Context, m C, a Attrs) error

	// REST is where the manager keeps the object, for moved blocks from restapi_object
	// and restful_resource (move_state.go). Optional: nil refuses such moves.
	REST *RESTObject
}

// NewResource registers a declared type with the framework.
func NewResource[T, C any](t ResourceType[T, C]) func() resource.Resource {
	return func() resource.Resource { return &Resource[T, C]{Type: &t} }
}

var (
	_ resource.ResourceWithConfigure   = (*Resource[struct{}, struct{}])(nil)
	_ resource.ResourceWithImportState = (*Resource[struct{}, struct{}])(nil)
	_ resource.ResourceWithModifyPlan  = (*Resource[struct{}, struct{}])(nil)

	_ resource.ResourceWithConfigValidators = (*Resource[struct{}, struct{}])(nil)
	_ resource.ResourceWithUpgradeState     = (*Resource[struct{}, struct{}])(nil)
)

// UpgradeState upgrades states written under an earlier schema version.
func (r *Resource[T, C]) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	return r.Type.UpgradeState
}

func (r *Resource[T, C]) ConfigValidators(context.Context) []resource.ConfigValidator {
	return append([]resource.ConfigValidator{timeoutsValidator{}}, r.Type.Validators...)
}

// Resource is the one implementation of resource.Resource.
type Resource[T, C any] struct {
	Type *ResourceType[T, C]
	data *Configured[C]
	// inFlight is the registry of the deletes that this process runs, nil for the
	// process's own (deleting); blockedGrace is how long a refused delete whose blockers
	// none of them releases keeps trying, 0 for DefaultBlockedGrace. Tests set both.
	inFlight     *deletesInFlight
	blockedGrace time.Duration
}

func (r *Resource[T, C]) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_" + r.Type.Name
}

func (r *Resource[T, C]) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	noun := r.Type.Noun
	if noun == "" {
		noun = strings.ReplaceAll(r.Type.Name, "_", " ")
	}
	attributes := resourceAttributes(r.Type.Fields, noun)
	deleteDescription := fmt.Sprintf("How long a delete may take, retries included, as a duration such as `30s` or `5m`. Defaults to `%s`.", FormatDuration(r.DefaultTimeouts().Delete))
	if r.Type.DeleteTimeout > 0 {
		stop := ""
		if r.Type.BeforeDelete != nil {
			stop = "the stop that comes first and "
		}
		deleteDescription = fmt.Sprintf("How long a delete may take, %sthe wait while the manager refuses it because other objects still depend on this one included, "+
			"as a duration such as `30s` or `5m`. Defaults to `%s`.", stop, FormatDuration(r.DefaultTimeouts().Delete))
	}
	lookup, waits := " and the look-up that follows an answer lost on the way back", ""
	if r.Type.Settle != nil {
		lookup, waits = ", the look-up that follows an answer lost on the way back", ", and the wait until the manager reports the declared state"
	}
	attributes["timeouts"] = describedTimeouts(ctx, timeouts.Opts{
		Create: true, Update: true, Delete: true,
		CreateDescription: fmt.Sprintf("How long a create may take: its requests with their retries%s%s. "+
			"A create already sent finishes within this bound even when the run is interrupted. Defaults to `%s`.", lookup, waits, FormatDuration(r.DefaultTimeouts().Create)),
		UpdateDescription: fmt.Sprintf("How long an update may take, retries included%s; an update already sent finishes within this bound even when the run is interrupted. Defaults to `%s`.",
			waits, FormatDuration(r.DefaultTimeouts().Update)),
		DeleteDescription: deleteDescription + " A delete uses the value in the state: a changed value takes effect once an apply has recorded it, " +
			"so an object replaced or removed in the same run is deleted within its old value.",
	})
	resp.Schema = rschema.Schema{MarkdownDescription: r.Type.Description, Attributes: attributes, Version: r.Type.SchemaVersion}
}

func (r *Resource[T, C]) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = configured[C](req.ProviderData, &resp.Diagnostics)
	r.bindDescribe()
}

// ModifyPlan fails the plan, rather than the apply, when the provider cannot work or the
// type knows the plan cannot.
func (r *Resource[T, C]) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || r.unreadMove(ctx, req.Private, &resp.Diagnostics) {
		return // destroy, or a move that no refresh finished
	}
	plan, err := AttrsOf(req.Plan.Raw)
	if err != nil {
		resp.Diagnostics.AddError("Invalid plan", err.Error())
		return
	}
	checkTimeouts(plan, &resp.Diagnostics)
	prior, err := AttrsOf(req.State.Raw)
	if err != nil {
		resp.Diagnostics.AddError("Invalid state", err.Error())
		return
	}
	r.markRecreation(ctx, req.State.Raw.IsNull(), prior, plan, resp.Private, &resp.Diagnostics)
	if r.data == nil {
		return // validation before configure
	}
	resp.Diagnostics.Append(r.data.requireKey()...)
	replaced := r.claimPlanned(ctx, req, resp, plan, prior)
	if len(prior) == 0 && replaced == "" {
		r.planDerived(ctx, plan, resp)
	}
	if !r.data.connected || resp.Diagnostics.HasError() {
		return
	}
	var checks diag.Diagnostics
	r.checkReferences(ctx, plan, prior, &checks)
	if r.Type.CheckPlan != nil && !checks.HasError() {
		r.Type.CheckPlan(r.data.planned.forCheck(ctx, r.data.skipLookups, replaced), r.data.conn, plan, prior, &checks)
	}
	if len(prior) == 0 && replaced == "" {
		checks = r.worldMoved(checks, plan)
	}
	resp.Diagnostics.Append(checks...)
	if len(prior) == 0 && !resp.Diagnostics.HasError() {
		r.lookUpCreated(ctx, plan, replaced, &resp.Diagnostics)
	}
}

// planDerived shows in the plan of a create the values the manager will set that are
// made of the plan's inputs (a node's id, <system_id>/<name>), once those are known: a
// reviewer sees the id, and resources that refer to it plan with it. Not for the create
// of a replacement: its id reads the same as the old object's, and only while it is
// unknown do the resources that refer to it plan to follow the new object (parts of a
// replaced server are replaced with it).
func (r *Resource[T, C]) planDerived(ctx context.Context, plan Attrs, resp *resource.ModifyPlanResponse) {
	for _, f := range r.Type.Fields {
		if f.derive == nil || f.views&InResource == 0 {
			continue
		}
		if v, ok := plan[f.name]; !ok || v.IsKnown() {
			continue
		}
		if value, ok := f.derive(plan); ok {
			resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root(f.name), value)...)
		}
	}
}

func (r *Resource[T, C]) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	defer r.identify(ctx, resp.Identity, &resp.State.Raw)
	m, plan, ok := r.begin(req.Plan.Raw, &resp.Diagnostics)
	plan = r.withWriteOnly(plan, req.Config.Raw, &resp.Diagnostics)
	if !ok || resp.Diagnostics.HasError() {
		return
	}
	wctx, cancel, ok := r.writeContext(ctx, req.Plan.Raw, "create", r.DefaultTimeouts().Create, &resp.Diagnostics)
	defer cancel()
	if !ok {
		return
	}
	// Plan refuses twins whose import IDs it knows; this catches the others (an ID known
	// only once another object exists) before they send anything.
	key := r.claimKey(plan)
	if !r.data.creating.claim(key) {
		resp.Diagnostics.Append(r.duplicateError(plan, "creates it in this run"))
		return
	}
	typ := typeOf(req.Plan.Raw)
	state, diags := r.create(wctx, m, typ, plan)
	resp.Diagnostics.Append(diags...)
	r.restoreAfterCreate(wctx, m, plan, !state.IsNull() && !diags.HasError(), &resp.Diagnostics)
	clearRecreation(ctx, resp.Private, &resp.Diagnostics)
	if state.IsNull() {
		r.data.creating.release(key)
		return
	}
	if !diags.HasError() {
		state = r.settled(ctx, wctx, m, typ, plan, state, "create", &resp.Diagnostics)
	}
	resp.State.Raw = state
}

// settled runs the type's settle after a write, waiting under the request's context (an
// interrupted run stops waiting) within the write's bound, then records the object as it
// stands. state is what the write recorded, kept when the object cannot be read.
func (r *Resource[T, C]) settled(ctx, wctx context.Context, m C, typ tftypes.Object, plan Attrs, state tftypes.Value, op string, diags *diag.Diagnostics) tftypes.Value {
	if r.Type.Settle == nil {
		return state
	}
	if deadline, ok := wctx.Deadline(); ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, deadline)
		defer cancel()
	}
	settleErr := r.Type.Settle(ctx, m, plan)
	switch {
	case settleErr != nil && errors.Is(ctx.Err(), context.Canceled):
		return r.unfinishedSettle(ctx, m, typ, plan, state, "Interrupted while waiting for "+r.Type.Describe(plan),
			fmt.Sprintf("The %s went through, but the run was interrupted before the manager reported the declared state.", op), diags)
	case settleErr != nil && op == "create" && managerOutOfReach(settleErr):
		// An error here would taint an object the manager has, and the next apply would
		// replace it: uninstall and reinstall a healthy server after an outage.
		return r.unfinishedSettle(ctx, m, typ, plan, state, "Lost the manager while waiting for "+r.Type.Describe(plan),
			fmt.Sprintf("The create went through, but then the manager could not be reached or could not answer: %v.", settleErr), diags)
	}
	if settleErr != nil {
		if bound, ok := wctx.Value(boundKey{}).(time.Duration); ok && errors.As(settleErr, new(*apm.TimeoutError)) {
			settleErr = fmt.Errorf("%w; timeouts.%s is %s", settleErr, op, FormatDuration(bound))
		}
		diags.Append(callError(op+" "+r.Type.Describe(plan), settleErr))
	}
	rctx, cancel := finishing(ctx, deleteCallBound)
	defer cancel()
	obj, err := r.Type.Read(rctx, m, plan)
	switch {
	case err == nil:
		return Flatten(typ, r.Type.Fields, obj, plan)
	case settleErr != nil:
		return state
	}
	diags.Append(readBackWarning(upperFirst(op)+"d", r.Type.Describe(plan), err))
	return r.settledAsPlanned(typ, state, plan)
}

// unfinishedSettle records an object whose write went through but whose wait did not
// end (the run was interrupted, or the manager went out of reach): as planned in what the
// settle was to bring about, so that the CLI neither reports an inconsistent result nor
// taints an object that exists, and with a warning (summary, and what happened). The next
// refresh reads what the manager has, and the next apply only finishes the settle (starts
// the server) instead of replacing the object.
func (r *Resource[T, C]) unfinishedSettle(ctx context.Context, m C, typ tftypes.Object, plan Attrs, state tftypes.Value, summary, what string, diags *diag.Diagnostics) tftypes.Value {
	diags.AddWarning(summary, what+" The next plan shows what the manager has, and the next apply finishes the change without replacing the object.")
	rctx, cancel := finishing(ctx, deleteCallBound)
	defer cancel()
	if obj, err := r.Type.Read(rctx, m, plan); err == nil {
		state = Flatten(typ, r.Type.Fields, obj, plan)
	}
	return r.settledAsPlanned(typ, state, plan)
}

// settledAsPlanned is state with the values that a successful settle brought about (a
// running state) taken from the plan: what the manager has, when it cannot be read.
func (r *Resource[T, C]) settledAsPlanned(typ tftypes.Object, state tftypes.Value, plan Attrs) tftypes.Value {
	a, err := AttrsOf(state)
	if err != nil {
		return state
	}
	for _, f := range r.Type.Fields {
		if v, ok := plan[f.name]; f.bySettle && ok && v.IsFullyKnown() {
			a[f.name] = v
		}
	}
	return tftypes.NewValue(typ, map[string]tftypes.Value(a))
}

// withWriteOnly adds the write-only inputs, which only the configuration carries, to a
// plan, for the calls to send.
func (r *Resource[T, C]) withWriteOnly(plan Attrs, config tftypes.Value, diags *diag.Diagnostics) Attrs {
	var cfg Attrs
	for _, f := range r.Type.Fields {
		if !f.writeOnly {
			continue
		}
		if cfg == nil {
			var err error
			if cfg, err = AttrsOf(config); err != nil {
				diags.AddError("Invalid configuration", err.Error())
				return plan
			}
		}
		plan = plan.With(f.name, cfg[f.name])
	}
	return plan
}

func (r *Resource[T, C]) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	defer r.identify(ctx, resp.Identity, &resp.State.Raw, &req.State.Raw)
	m, state, ok := r.begin(req.State.Raw, &resp.Diagnostics)
	if !ok {
		return
	}
	state, err := r.takeOverMoved(ctx, m, state, resp.Private, &resp.Diagnostics)
	var obj *T
	if err == nil {
		obj, err = r.Type.Read(ctx, m, state)
	}
	if GoneWithParent(err) {
		// Deleted outside Terraform: the next plan creates it again.
		r.data.planned.readGone(r.Type.Name, r.claimKey(state))
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		resp.Diagnostics.Append(callError("read "+r.Type.Describe(state), err))
		return
	}
	// A plan of this walk that creates the same object replaces this one (it is tainted).
	r.data.planned.read(r.claimKey(state))
	resp.State.Raw = flattenAs(typeOf(req.State.Raw), r.Type.Fields, obj, state, imported(ctx, req.Private))
}

func (r *Resource[T, C]) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	defer r.identify(ctx, resp.Identity, &resp.State.Raw)
	m, plan, ok := r.begin(req.Plan.Raw, &resp.Diagnostics)
	state, err := AttrsOf(req.State.Raw)
	if err != nil {
		resp.Diagnostics.AddError("Invalid state", err.Error())
	}
	if !ok || err != nil {
		return
	}
	// The first apply after an import records the inputs the manager does not report; the
	// mark that plan left for a replacement has served.
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, importedKey, nil)...)
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, replacingKey, nil)...)
	clearRecreation(ctx, resp.Private, &resp.Diagnostics)
	if !r.managedChange(plan, state) {
		// Only the timeouts changed, or inputs that are only recorded: nothing to send.
		resp.State.Raw = req.Plan.Raw
		return
	}
	plan = r.withWriteOnly(plan, req.Config.Raw, &resp.Diagnostics)
	wctx, cancel, ok := r.writeContext(ctx, req.Plan.Raw, "update", r.DefaultTimeouts().Update, &resp.Diagnostics)
	defer cancel()
	if !ok || resp.Diagnostics.HasError() {
		return
	}
	if err := r.Type.Update(wctx, m, plan, state); err != nil {
		resp.Diagnostics.Append(callError("update "+r.Type.Describe(state), err))
		return
	}
	typ := typeOf(req.Plan.Raw)
	if r.Type.Settle != nil {
		resp.State.Raw = r.settled(ctx, wctx, m, typ, plan, recorded(typ, r.Type.Fields, plan), "update", &resp.Diagnostics)
		return
	}
	obj, err := r.Type.Read(wctx, m, plan)
	if err != nil {
		// The update was carried out: keep it, and let the next refresh fill in the rest.
		resp.State.Raw = recorded(typ, r.Type.Fields, plan)
		resp.Diagnostics.Append(readBackWarning("Updated", r.Type.Describe(plan), err))
		return
	}
	resp.State.Raw = Flatten(typ, r.Type.Fields, obj, plan)
}

// managedChange reports whether the plan changes a field of the managed resource that
// the manager holds. An unread input set for the first time after an import (its state
// is null) is only recorded.
func (r *Resource[T, C]) managedChange(plan, state Attrs) bool {
	for _, f := range r.Type.Fields {
		if f.views&InResource == 0 || plan[f.name].Equal(state[f.name]) || (f.unread && state[f.name].IsNull()) {
			continue
		}
		return true
	}
	return false
}

// begin is the common start of a CRUD method: the manager and the request's attributes.
func (r *Resource[T, C]) begin(raw tftypes.Value, diags *diag.Diagnostics) (C, Attrs, bool) {
	m, d := r.data.Conn()
	diags.Append(d...)
	a, err := AttrsOf(raw)
	if err != nil {
		diags.AddError("Invalid request data", err.Error())
	}
	return m, a, !diags.HasError()
}

// typeOf is the object type of a plan or state value, which is the schema's: cheaper
// than building it from the schema on every call of a refresh.
func typeOf(v tftypes.Value) tftypes.Object {
	return v.Type().(tftypes.Object) //nolint:forcetypeassert // a resource's value is always an object
}

// objectTypeOf is the Terraform type of a schema's object.
func objectTypeOf(ctx context.Context, s interface{ Type() attr.Type }) tftypes.Object {
	return s.Type().TerraformType(ctx).(tftypes.Object) //nolint:forcetypeassert // a schema is always an object
}

// FormatDuration prints durations as users write them: 10m rather than 10m0s.
func FormatDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
