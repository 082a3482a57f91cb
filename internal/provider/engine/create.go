package engine

import (
	"context"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
)

// A create must leave no object behind that Terraform does not know of. The manager may
// carry out a POST whose answer never arrives (a gateway times out, the connection
// breaks, the manager restarts): the engine then looks the object up by its identity
// before it reports anything, and records what it finds. With adopt_existing, a create
// that finds the object there already (409) takes it over when it matches.

// create writes the object and returns the state to record: null when nothing was
// created, the object otherwise (with a warning when it could not be read back).
func (r *Resource[T, C]) create(ctx context.Context, m C, typ tftypes.Object, plan Attrs) (tftypes.Value, diag.Diagnostics) {
	var lost error // the last attempt whose answer was lost, after which the object was not there
	for resend := 0; ; resend++ {
		err := r.Type.Create(ctx, m, plan)
		switch {
		case err == nil:
			return r.readBack(ctx, m, typ, plan)
		case apm.IsConflict(err) && lost != nil:
			// The earlier attempt took effect after all, late: that object is ours.
			obj, rerr := r.lookUp(ctx, m, plan)
			if rerr != nil {
				return r.unknownOutcome(typ, plan, lost, rerr)
			}
			return r.recover(typ, plan, obj, lost)
		case apm.ConflictOf(err) == apm.ConflictExists && r.data.adopt:
			return r.adopt(ctx, m, typ, plan, err)
		case !apm.OutcomeUnknown(err):
			return tftypes.NewValue(typ, nil), diag.Diagnostics{r.CreateError(plan, err)}
		case r.Type.IdempotentCreate:
			if resend >= r.data.maxRetries || apm.Sleep(ctx, resendPause<<resend) != nil {
				return tftypes.NewValue(typ, nil), diag.Diagnostics{r.CreateError(plan, err)}
			}
			lost = err
			continue
		}
		state, diags, absent := r.reconcile(ctx, m, typ, plan, err)
		if !absent || resend >= r.data.maxRetries || ctx.Err() != nil {
			return state, diags
		}
		// The manager does not have the object, so sending the create again cannot make
		// a second one; it gets the same budget as any retried request, and a pause
		// first, as a failing manager needs time.
		lost = err
		if sleepErr := apm.Sleep(ctx, resendPause<<resend); sleepErr != nil {
			return state, diags
		}
	}
}

// resendPause is the pause before the first re-send of a create; it doubles per re-send.
const resendPause = 500 * time.Millisecond

// readBack records a created object as the manager reads it back. When that read fails,
// the object is recorded from the plan (untainted), so that it is neither orphaned nor
// replaced; the next refresh fills in what only the manager knows.
//
// Its identity cannot wait for that refresh: the CLI fixes an object's identity at its
// create and refuses a different one later, and the framework refuses a create without
// one. So when a part of the identity is a value only the manager knows (a system's id),
// the read is tried again until it succeeds or the create's time is up; only then does
// the create fail, with the object recorded (tainted).
func (r *Resource[T, C]) readBack(ctx context.Context, m C, typ tftypes.Object, plan Attrs) (tftypes.Value, diag.Diagnostics) {
	var diags diag.Diagnostics
	obj, err := r.Type.Read(ctx, m, plan)
	if err == nil {
		return Flatten(typ, r.Type.Fields, obj, plan), diags
	}
	state := recorded(typ, r.Type.Fields, plan)
	unknown := r.Type.ImportID.missing(plan)
	if len(unknown) == 0 {
		diags.Append(readBackWarning("Created", r.Type.Describe(plan), err))
		return state, diags
	}
	if obj, err = r.readAgain(ctx, m, plan, err, func(error) bool { return true }); err == nil {
		return Flatten(typ, r.Type.Fields, obj, plan), diags
	}
	diags.AddError("Created "+r.Type.Describe(plan)+", but could not read it back", fmt.Sprintf(
		"%s\n\nThe object's %s, part of its identity, is known only to the manager, and reading it kept failing until timeouts.create ran out. "+
			"The object is recorded in the state, tainted: the next apply replaces it. To keep it instead, untaint it (terraform untaint, tofu untaint) "+
			"once the manager answers again; the next refresh then fills in what is missing.", Explain(err), strings.Join(unknown, ", ")))
	return state, diags
}

// readAgain reads the object again after a read that failed with err, pausing longer
// each time, while the last read's error is one to retry, until a read succeeds or ctx
// ends; it returns the last read's outcome.
func (r *Resource[T, C]) readAgain(ctx context.Context, m C, plan Attrs, err error, retry func(error) bool) (*T, error) {
	var obj *T
	for wait := time.Second; err != nil && retry(err); wait = min(2*wait, 30*time.Second) {
		if apm.Sleep(ctx, wait) != nil {
			break
		}
		obj, err = r.Type.Read(ctx, m, plan)
	}
	return obj, err
}

// lookUp looks for the object of a create whose answer was lost. While the manager is out
// of reach (down, or failing with 5xx beyond the client's retries) the create's outcome
// is unknown, and an object recorded so is tainted: after an outage, the next apply would
// replace the object the manager made (uninstall and reinstall a healthy server). So the
// look-up tries again until the manager answers or the create's time is up.
func (r *Resource[T, C]) lookUp(ctx context.Context, m C, plan Attrs) (*T, error) {
	obj, err := r.Type.Read(ctx, m, plan)
	if err != nil {
		return r.readAgain(ctx, m, plan, err, managerOutOfReach)
	}
	return obj, nil
}

// reconcile finds out what became of a create whose answer was lost. absent is true when
// the manager certainly does not have the object.
func (r *Resource[T, C]) reconcile(ctx context.Context, m C, typ tftypes.Object, plan Attrs, sendErr error) (state tftypes.Value, diags diag.Diagnostics, absent bool) {
	what := r.Type.Describe(plan)
	obj, err := r.lookUp(ctx, m, plan)
	switch {
	case err == nil:
		state, diags = r.recover(typ, plan, obj, sendErr)
		return state, diags, false
	case IsGone(err):
		diags.AddError("Failed to create "+what, Explain(sendErr)+
			"\n\nThe answer to the create was lost; looking for the object afterwards found that the manager does not have it, so the create did not take effect. Apply again.")
		return tftypes.NewValue(typ, nil), diags, true
	default:
		state, diags = r.unknownOutcome(typ, plan, sendErr, err)
		return state, diags, false
	}
}

// unknownOutcome reports a create whose answer was lost when looking for the object
// failed too. The object may exist, so it is recorded: with the error, Terraform keeps it
// as tainted, and the next apply reads it and replaces it if it exists, or creates it
// again if not. Not recording it would leave an orphan that every later apply trips on.
func (r *Resource[T, C]) unknownOutcome(typ tftypes.Object, plan Attrs, sendErr, lookErr error) (tftypes.Value, diag.Diagnostics) {
	return recorded(typ, r.Type.Fields, plan), diag.Diagnostics{diag.NewErrorDiagnostic("Outcome of the create of "+r.Type.Describe(plan)+" unknown", fmt.Sprintf(
		"%s\n\nThe request may have reached the manager, but its answer was lost, and looking for the object afterwards failed too: %s\n\n"+
			"The object may exist, so it is recorded in the state, marked tainted. The next apply looks for it: it replaces the object if it exists, "+
			"and creates it if it does not.",
		Explain(sendErr), lookErr))}
}

// recover records the object that a create whose answer was lost did make, if it
// matches the plan.
func (r *Resource[T, C]) recover(typ tftypes.Object, plan Attrs, obj *T, sendErr error) (tftypes.Value, diag.Diagnostics) {
	var diags diag.Diagnostics
	what := r.Type.Describe(plan)
	if diffs := r.differences(plan, obj); len(diffs) > 0 {
		diags.AddError("Failed to create "+what, fmt.Sprintf(
			"%s\n\nThe answer to the create was lost. Looking for the object afterwards found %s in the manager, but it differs from the configuration: %s. "+
				"Someone else may have created it. Check it in the manager; to manage it, import it (%s) and apply again.",
			Explain(sendErr), what, strings.Join(diffs, "; "), r.importHint(plan)))
		return tftypes.NewValue(typ, nil), diags
	}
	diags.AddWarning("Recovered the create of "+what, fmt.Sprintf(
		"The manager's answer to the create was lost (%s), but the object exists and matches the configuration, so it is recorded in the state.",
		sendErr))
	return Flatten(typ, r.Type.Fields, obj, plan), diags
}

// adopt takes over an object that a create found already there (adopt_existing).
func (r *Resource[T, C]) adopt(ctx context.Context, m C, typ tftypes.Object, plan Attrs, conflict error) (tftypes.Value, diag.Diagnostics) {
	var diags diag.Diagnostics
	what := r.Type.Describe(plan)
	obj, err := r.Type.Read(ctx, m, plan)
	switch {
	case err != nil:
		diags.AddError("Failed to create "+what, fmt.Sprintf("%s\n\nThe object exists already, and adopt_existing is on, but reading it failed: %s",
			Explain(conflict), Explain(err)))
	case len(r.differences(plan, obj)) > 0:
		diags.AddError("Failed to create "+what, fmt.Sprintf(
			"%s\n\nThe object exists already and adopt_existing is on, but it differs from the configuration, so it was not adopted: %s. "+
				"Change the configuration to match, or import it (%s) and let the next apply change it.",
			conflict, strings.Join(r.differences(plan, obj), "; "), r.importHint(plan)))
	default:
		diags.AddWarning("Adopted the existing "+what,
			"The object existed already and matches the configuration, so it is now managed by this configuration (adopt_existing is on). "+
				"If another configuration manages it too, remove it from one of them.")
		return Flatten(typ, r.Type.Fields, obj, plan), diags
	}
	return tftypes.NewValue(typ, nil), diags
}

// differences lists the configured values the manager's object does not have.
func (r *Resource[T, C]) differences(plan Attrs, obj *T) []string {
	var out []string
	for _, f := range r.Type.Fields {
		if f.views&InResource == 0 || f.role == roleComputed || f.unread || f.bySettle || !plan.Known(f.name) {
			continue
		}
		want, have := plan[f.name], f.value(obj)
		if want.Equal(have) || (f.same != nil && f.same(want, have)) {
			continue
		}
		out = append(out, fmt.Sprintf("%s is %s in the manager and %s in the configuration", f.name, valueText(have), valueText(want)))
	}
	return out
}

// valueText shows a primitive value as HCL would.
func valueText(v tftypes.Value) string {
	switch {
	case v.IsNull():
		return "null"
	case v.Type().Is(tftypes.String):
		s, _ := StringOf(v)
		return strconv.Quote(s)
	case v.Type().Is(tftypes.Number):
		var f big.Float
		if v.As(&f) == nil {
			return f.Text('f', -1)
		}
	case v.Type().Is(tftypes.Bool):
		var b bool
		if v.As(&b) == nil {
			return strconv.FormatBool(b)
		}
	}
	return v.String()
}

// claimKey names the object a plan or state describes, among all types.
func (r *Resource[T, C]) claimKey(a Attrs) string {
	return "apm_" + r.Type.Name + " " + r.Type.ImportID.importID(a)
}

// duplicateError refuses the second of two resources that declare one object; does says
// what the other one does with it.
func (r *Resource[T, C]) duplicateError(plan Attrs, does string) diag.Diagnostic {
	what := r.Type.Describe(plan)
	return diag.NewErrorDiagnostic("Duplicate declaration of "+what, fmt.Sprintf(
		"%s is declared by more than one resource in this configuration: another apm_%s block %s. "+
			"Each object must be declared once; remove or rename one of the blocks. Nothing was sent for this one.", what, r.Type.Name, does))
}

// readBackWarning reports a write that succeeded but whose object could not be read back.
func readBackWarning(done, what string, err error) diag.Diagnostic {
	return diag.NewWarningDiagnostic(fmt.Sprintf("%s %s, but could not read it back", done, what), Explain(err)+
		"\n\nThe object is recorded in the state; the values only the manager knows are left empty until the next refresh (plan or apply) fills them in.")
}

// CreateError explains a failed create. A conflict because the object exists already is
// answered with an import ID that works; other conflicts (a port in use) with their own
// advice, never with an import.
func (r *Resource[T, C]) CreateError(plan Attrs, err error) diag.Diagnostic {
	action := "create " + r.Type.Describe(plan)
	if apm.ConflictOf(err) != apm.ConflictExists || r.Type.ImportID.importID(plan) == "" {
		return callError(action, err)
	}
	return diag.NewErrorDiagnostic("Failed to "+action, Explain(err)+"\n\n"+r.existsAdvice(plan, false))
}

// existsAdvice says the way out of a create that finds its object already there. outside
// is true when the walk has shown that the object is no resource's of this configuration
// (plan.go: a refresh read the objects of the state, and not this one). Otherwise the
// object may be the one that the create replaces with create_before_destroy: Terraform's
// re-plan during apply, which runs before the old object's delete, is told neither the
// prior state nor what the plan replaces, so nothing tells the two apart; importing
// is then offered only for an object that the state does not list.
func (r *Resource[T, C]) existsAdvice(plan Attrs, outside bool) string {
	id := r.Type.ImportID.importID(plan)
	if outside {
		return "It was created outside this configuration. " + r.importAdvice(plan)
	}
	return fmt.Sprintf("If this resource replaces it with lifecycle { create_before_destroy = true } (a change that forces a "+
		"replacement, a taint or -replace), the object found is the one being replaced: the manager cannot hold the old and the new one "+
		"at once, since both are %s. Then remove create_before_destroy (the old one is then deleted first), or change the new one's %s.\n\n"+
		"Only if `terraform state list -id=%s` lists no resource was it created outside this configuration. %s",
		id, r.Type.ImportID.format(), id, r.importAdvice(plan))
}

// importAdvice says how to manage an object that a create finds already there.
func (r *Resource[T, C]) importAdvice(plan Attrs) string {
	return fmt.Sprintf("To manage it with Terraform, import it instead of creating it (%s), "+
		"or set adopt_existing = true in the provider to take it over when it matches the configuration.", r.importHint(plan))
}

// importHint shows both ways to import the object a plan describes.
func (r *Resource[T, C]) importHint(plan Attrs) string {
	typeName, id := "apm_"+r.Type.Name, r.Type.ImportID.importID(plan)
	return fmt.Sprintf("terraform import %s.<name> %s, or an import block:\n"+
		"  import {\n    to = %s.<name>\n    id = %q\n  }\n", typeName, id, typeName, id)
}
