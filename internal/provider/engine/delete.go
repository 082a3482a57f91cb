package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/hashicorp/terraform-plugin-framework/resource"
)

func (r *Resource[T, C]) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	m, state, ok := r.begin(req.State.Raw, &resp.Diagnostics)
	if !ok {
		return
	}
	timeout, diags := r.timeout(ctx, req.State.Raw, "delete", r.DefaultTimeouts().Delete)
	resp.Diagnostics.Append(diags...)
	if diags.HasError() {
		return
	}
	if r.Type.BeforeDelete != nil {
		pctx, cancel := context.WithTimeout(ctx, timeout)
		err := r.Type.BeforeDelete(pctx, m, state)
		cancel()
		if err != nil && !GoneWithParent(err) {
			resp.Diagnostics.Append(callError("delete "+r.Type.Describe(state), err))
			return
		}
	}
	released, err := r.deleteWaiting(ctx, m, state, timeout, recreating(ctx, req.Private))
	if err != nil {
		resp.Diagnostics.Append(callError("delete "+r.Type.Describe(state), err))
		return
	}
	if len(released) > 0 {
		resp.Diagnostics.Append(releasedWarning(r.Type.Describe(state), released))
	}
	if r.Type.DeleteWarning != "" {
		resp.Diagnostics.AddWarning("Removed "+r.Type.Describe(state)+" from the state only", r.Type.DeleteWarning)
	}
	r.data.creating.release(r.claimKey(state))
}

// deleteCallBound bounds one delete call with its retries once sent.
const deleteCallBound = 2 * time.Minute

// deleteWaiting deletes, and while the manager answers 409 (objects that depend on this
// one are still going away, typically deleted by the same apply in parallel) tries again
// until the timeout. The error then names what still holds the object. The delete of a
// replacement under the same identity (recreating) first sets the holders aside, and
// puts them back when the delete fails anyway; released names what a successful one set
// aside.
func (r *Resource[T, C]) deleteWaiting(ctx context.Context, m C, state Attrs, timeout time.Duration, recreating bool) (released []string, err error) {
	const deleted, blocked = "deleted", "blocked by dependent objects"
	var lastConflict error
	canRelease, setAside := recreating && r.Type.SetAside != nil, false
	wait := apm.Poll[struct{}]{
		What:    r.Type.Describe(state),
		Pending: []string{blocked},
		Target:  []string{deleted},
		Timeout: timeout,
		Refresh: func(ctx context.Context) (struct{}, string, error) {
			// Waiting stops when the run is interrupted; a delete already sent finishes.
			callCtx, cancel := finishing(ctx, deleteCallBound)
			defer cancel()
			err := r.Type.Delete(callCtx, m, state)
			if canRelease && !setAside && apm.IsConflict(err) {
				setAside = true
				released, err = r.releaseAndDelete(callCtx, m, state)
			}
			var asideErr *setAsideError
			switch {
			case errors.As(err, &asideErr):
				return struct{}{}, "", err
			case err == nil || GoneWithParent(err):
				return struct{}{}, deleted, nil
			case apm.IsConflict(err) && r.Type.DeleteTimeout > 0:
				lastConflict = err
				return struct{}{}, blocked, nil
			default:
				return struct{}{}, "", err
			}
		},
	}
	_, err = wait.Wait(ctx)
	var timedOut *apm.TimeoutError
	if lastConflict != nil && errors.As(err, &timedOut) {
		err = r.blockedError(ctx, m, state, timeout, lastConflict)
	}
	if err != nil && setAside {
		return nil, r.putBack(ctx, m, state, err)
	}
	return released, err
}

// blockedError explains a delete that the manager kept refusing.
func (r *Resource[T, C]) blockedError(ctx context.Context, m C, state Attrs, timeout time.Duration, conflict error) error {
	held := "other objects still depend on it"
	if r.Type.Blockers != nil {
		// The wait has used up ctx's time only if ctx had a deadline; give the look its own.
		lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		defer cancel()
		if names, err := r.Type.Blockers(lctx, m, state); err == nil && len(names) > 0 {
			held = "still held by " + strings.Join(names, ", ")
		}
	}
	return fmt.Errorf("gave up after %s: %s (%w). Delete or move those first, or raise timeouts.delete "+
		"(a delete uses the value in the state: apply once with the new value, then delete)",
		FormatDuration(timeout), held, conflict)
}
