package engine

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
)

// watchKey keys, in the context that a type's BeforeDelete gets, how its resource judges
// blockers (blockedWatch), for WaitWhileHeld.
type watchKey struct{}

// withWatch is ctx for a BeforeDelete: WaitWhileHeld judges as the delete would.
func (r *Resource[T, C]) withWatch(ctx context.Context) context.Context {
	return context.WithValue(ctx, watchKey{}, r.blockedWatch)
}

// WaitWhileHeld waits before a delete until list finds nothing holding the object that
// what names, for a type that must not send the delete while anything does (a WAS server
// is stopped only once its delete can go through). It waits as a refused delete does:
// while this provider process deletes one of the holders, or while they change; once the
// same ones stay for the grace with none being deleted here, it fails naming them. A
// timeout or an interrupt (ctx, which BeforeDelete gets within the delete timeout) names
// them too.
func WaitWhileHeld(ctx context.Context, what string, list func(context.Context) ([]Blocker, error)) error {
	const free, held = "held by nothing", "held"
	watch := newBlockedWatch(deleting, 0)
	if w, ok := ctx.Value(watchKey{}).(func() *blockedWatch); ok {
		watch = w()
	}
	errHopeless := errors.New("held from outside")
	_, err := apm.Poll[struct{}]{
		What:    what,
		Pending: []string{held},
		Target:  []string{free},
		Refresh: func(ctx context.Context) (struct{}, string, error) {
			blockers, err := list(ctx)
			switch {
			case err != nil:
				return struct{}{}, "", err
			case len(blockers) == 0:
				return struct{}{}, free, nil
			case watch.hopeless(time.Now(), blockers):
				return struct{}{}, "", errHopeless
			}
			tflog.Info(ctx, "Waiting until nothing holds "+what, map[string]any{"held_by": watch.list()})
			return struct{}{}, held, nil
		},
	}.Wait(ctx)
	var timedOut *apm.TimeoutError
	switch {
	case errors.Is(err, errHopeless):
		return fmt.Errorf("%s is held by %s, and nothing in this run deletes them (the same for %s).\n\n%s",
			what, watch.list(), FormatDuration(watch.grace), heldAdvice)
	case errors.Is(err, context.Canceled) && len(watch.last) > 0:
		return fmt.Errorf("%s is still held by %s: %w", what, watch.list(), err)
	case errors.As(err, &timedOut) && len(watch.last) > 0:
		return fmt.Errorf("%s is still held by %s (%w). Delete or move those first, or raise timeouts.delete "+
			"(a delete uses the value in the state: apply once with the new value, then delete)", what, watch.list(), err)
	}
	return err
}
