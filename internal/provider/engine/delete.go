package engine

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-log/tflog"
)

func (r *Resource[T, C]) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	m, state, ok := r.begin(req.State.Raw, &resp.Diagnostics)
	if !ok {
		return
	}
	// Other deletes refused while this object holds them wait for it (deleteWaiting).
	defer r.deletes().start(r.claimKey(state))()
	timeout, diags := r.timeout(ctx, req.State.Raw, "delete", r.DefaultTimeouts().Delete)
	resp.Diagnostics.Append(diags...)
	if diags.HasError() {
		return
	}
	if r.Type.BeforeDelete != nil {
		pctx, cancel := context.WithTimeout(r.withWatch(ctx), timeout)
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
// one are still going away, typically deleted by the same apply in parallel) tries again.
// It stops at the timeout, or sooner when the objects that hold this one stay the same
// for the grace and this process deletes none of them (deletes_in_flight.go): they were
// made or are managed elsewhere, and waiting would not help. Either error names them. The
// delete of a replacement under the same identity (recreating) first sets the holders
// aside, and puts them back when the delete fails anyway; released names what a
// successful one set aside.
func (r *Resource[T, C]) deleteWaiting(ctx context.Context, m C, state Attrs, timeout time.Duration, recreating bool) (released []string, err error) {
	const deleted, blocked = "deleted", "blocked by dependent objects"
	var lastConflict, heldErr error
	what, started := r.Type.Describe(state), time.Now()
	watch := r.blockedWatch()
	canRelease, setAside := recreating && r.Type.SetAside != nil, false
	wait := apm.Poll[struct{}]{
		What:    what,
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
				if watch.hopeless(time.Now(), r.blockers(callCtx, m, state)) {
					heldErr = watch.heldOutside(what, err)
					return struct{}{}, "", heldErr
				}
				tflog.Info(ctx, "The manager refused the delete of "+what+" while other objects hold it; trying again", map[string]any{"held_by": watch.list()})
				return struct{}{}, blocked, nil
			default:
				return struct{}{}, "", err
			}
		},
	}
	_, err = wait.Wait(ctx)
	var timedOut *apm.TimeoutError
	switch {
	case heldErr != nil:
		err = heldErr
	case lastConflict != nil && errors.As(err, &timedOut):
		err = r.blockedError(timeout, lastConflict, watch)
	case lastConflict != nil && errors.Is(err, context.Canceled):
		err = watch.interrupted(what, time.Since(started), lastConflict)
	}
	if err != nil && setAside {
		return nil, r.putBack(ctx, m, state, err)
	}
	return released, err
}

// blockedWatch is the judge of one delete's refusals, over the process's deletes.
func (r *Resource[T, C]) blockedWatch() *blockedWatch {
	return newBlockedWatch(r.deletes(), r.blockedGrace)
}

// deletes is the registry of the deletes this process runs.
func (r *Resource[T, C]) deletes() *deletesInFlight {
	if r.inFlight != nil {
		return r.inFlight
	}
	return deleting
}

// blockers lists what holds the object; nil when the type cannot tell or the look fails
// (the wait then goes on, bounded by the timeout).
func (r *Resource[T, C]) blockers(ctx context.Context, m C, state Attrs) []Blocker {
	if r.Type.Blockers == nil {
		return nil
	}
	// The wait may have used up ctx's time; the look gets its own.
	lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	names, err := r.Type.Blockers(lctx, m, state)
	if err != nil {
		tflog.Warn(ctx, "Could not list what holds "+r.Type.Describe(state), map[string]any{"error": err.Error()})
		return nil
	}
	return names
}

// blockedError explains a delete that the manager kept refusing until the timeout, while
// this run was deleting what held it (or what held it could not be told).
func (r *Resource[T, C]) blockedError(timeout time.Duration, conflict error, watch *blockedWatch) error {
	held := "other objects still depend on it"
	if len(watch.last) > 0 {
		held = "still held by " + watch.list()
	}
	return fmt.Errorf("gave up after %s: %s (%w). Delete or move those first, or raise timeouts.delete "+
		"(a delete uses the value in the state: apply once with the new value, then delete)",
		FormatDuration(timeout), held, conflict)
}
