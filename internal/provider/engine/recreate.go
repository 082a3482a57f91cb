package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// A replacement that keeps the object's identity (a database replaced for a new
// password keeps its resource_name) deletes the object and creates it again. The manager
// refuses the delete while other objects hold it (a datasource attached to a WAS server).
// Terraform replaces the holders it manages first when they refer to the object by a
// value that the replacement makes unknown (its id); it leaves alone those that name the
// object by a literal or by a value that stays known, and those it does not manage.
// Waiting for them is pointless: nothing in the run lets go. So a type with holders
// declares SetAside and Restore: when the delete of such a replacement is refused,
// SetAside releases the holders (detaches the datasource) and remembers them in the
// provider process, which serves the whole apply; once the new object exists, Restore
// takes them back. The holders are without the object only between the two, the least
// the manager allows, and a delete that fails anyway puts them back at once.
//
// Whether a delete is half of such a replacement is known only at plan: Terraform plans
// an existing object first (prior state set), and plans a replacement a second time as
// a create (prior state null), handing that plan the private data of the first. The
// first plan records the object's identity, the second marks the plan as a recreation
// when the identity is the same, and Terraform hands that private data to the delete
// half of the replacement. A plain destroy, whose private data is the state's, is never
// a recreation: it waits for the holders as before, and fails naming them.

// Private state keys of the recreation, both JSON as the framework requires.
const (
	priorIdentityKey = "prior_identity" // the identity of the object the first plan saw
	recreatingKey    = "recreating"     // true: the plan replaces the object under its own identity
)

// markRecreation keeps the private state keys of a plan. private is the plan's private
// data: on a second plan, what the first one left.
func (r *Resource[T, C]) markRecreation(ctx context.Context, priorNull bool, prior, plan Attrs, private privateStateRW, diags *diag.Diagnostics) {
	if r.Type.SetAside == nil {
		return
	}
	if !priorNull {
		identity, err := json.Marshal(r.Type.ImportID.importID(prior))
		if err != nil {
			diags.AddError("Invalid state", err.Error())
			return
		}
		diags.Append(private.SetKey(ctx, priorIdentityKey, identity)...)
		diags.Append(private.SetKey(ctx, recreatingKey, nil)...)
		return
	}
	raw, d := private.GetKey(ctx, priorIdentityKey)
	diags.Append(d...)
	var was string
	if len(raw) == 0 || json.Unmarshal(raw, &was) != nil || was == "" || was != r.Type.ImportID.importID(plan) {
		return
	}
	diags.Append(private.SetKey(ctx, recreatingKey, []byte("true"))...)
}

// privateStateRW is the private data of a plan or an apply (the framework's type is
// internal).
type privateStateRW interface {
	privateState
	SetKey(ctx context.Context, key string, value []byte) diag.Diagnostics
}

// clearRecreation drops the keys from the private data an apply records: they describe
// one plan only.
func clearRecreation(ctx context.Context, private privateStateRW, diags *diag.Diagnostics) {
	diags.Append(private.SetKey(ctx, priorIdentityKey, nil)...)
	diags.Append(private.SetKey(ctx, recreatingKey, nil)...)
}

// recreating reports whether a delete is half of a replacement under the same identity.
func recreating(ctx context.Context, p privateState) bool {
	v, _ := p.GetKey(ctx, recreatingKey)
	return string(v) == "true"
}

// releaseAndDelete sets aside what holds the object, whose delete the manager refused,
// and deletes again: what was set aside, and the result of that delete or the error of
// setting aside.
func (r *Resource[T, C]) releaseAndDelete(ctx context.Context, m C, state Attrs) ([]string, error) {
	released, err := r.Type.SetAside(ctx, m, state)
	if err != nil {
		return released, &setAsideError{fmt.Errorf("%s is being replaced under the same name, but releasing what holds it failed: %w", r.Type.Describe(state), err)}
	}
	return released, r.Type.Delete(ctx, m, state)
}

// releasedWarning says, on the delete of a replacement, what the provider released for
// it: the plan did not show it, and if the apply stops before the new object exists, the
// user must know what to restore.
func releasedWarning(what string, released []string) diag.Diagnostic {
	return diag.NewWarningDiagnostic("Released what held "+what+" for its replacement", fmt.Sprintf(
		"The manager refuses to delete %s while other objects hold it, and Terraform does not replace them with it (they name it by a literal "+
			"or by a value that stays known, or are not managed by this configuration), so the provider released: %s. "+
			"All of it is restored as soon as the new object is created in this apply. If the apply stops before that, apply again once the cause is fixed: "+
			"resources that declare what was released make it again; make the others again in the manager. To have the plan show them, refer to the object by its id.",
		what, strings.Join(released, "; ")))
}

// setAsideError ends the wait of a delete: it is no refusal that waiting could see end.
type setAsideError struct{ err error }

func (e *setAsideError) Error() string { return e.err.Error() }
func (e *setAsideError) Unwrap() error { return e.err }

// putBack restores what a delete set aside when the delete failed after all (deleteErr),
// within its own bound: the holders get the old object back. The error says what became
// of them.
func (r *Resource[T, C]) putBack(ctx context.Context, m C, state Attrs, deleteErr error) error {
	rctx, cancel := finishing(ctx, deleteCallBound)
	defer cancel()
	if err := r.Type.Restore(rctx, m, state); err != nil {
		return fmt.Errorf("%w\n\nThis delete was half of a replacement under the same name, and what it had released for it could not all be put back: %w", deleteErr, err)
	}
	return fmt.Errorf("%w\n\nThis delete was half of a replacement under the same name: what it had released for it was put back, and the old object is unchanged", deleteErr)
}

// restoreAfterCreate takes back, after the create of a replacement, what the delete of
// the object it replaces set aside in this provider process; nothing for other creates.
// The create stands either way: what could not be taken back is a warning (an error
// would taint the new object) that names it and says how to put it back.
func (r *Resource[T, C]) restoreAfterCreate(ctx context.Context, m C, plan Attrs, created bool, diags *diag.Diagnostics) {
	if r.Type.Restore == nil {
		return
	}
	err := r.Type.Restore(ctx, m, plan)
	switch {
	case err == nil:
	case created:
		diags.AddWarning("Created "+r.Type.Describe(plan)+", but could not restore all that held the object it replaces", err.Error())
	default:
		diags.AddError("Could not restore what held the replaced "+r.Type.Describe(plan),
			"The create failed, so what the delete of the old object released for the replacement could not be given back: "+err.Error())
	}
}
