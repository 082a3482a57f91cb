package engine

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// heldUntil lists heldByServer until gone is set.
func heldUntil(gone *atomic.Bool) func(context.Context) ([]Blocker, error) {
	return func(context.Context) ([]Blocker, error) {
		if gone.Load() {
			return nil, nil
		}
		return []Blocker{heldByServer}, nil
	}
}

// The wait before a delete (a WAS server's for its parts) lasts while this process deletes
// a holder, and fails after the grace, naming the holders, when nothing here does.
func TestWaitWhileHeldJudgesAsARefusedDelete(t *testing.T) {
	registry, gone := newDeletesInFlight(), &atomic.Bool{}
	r := &Resource[testNode, struct{}]{inFlight: registry, blockedGrace: 300 * time.Millisecond}
	done := registry.start(serverKey)
	go func() {
		time.Sleep(time.Second) // longer than the grace
		gone.Store(true)
		done()
	}()
	if err := WaitWhileHeld(r.withWatch(context.Background()), `node "app-01"`, heldUntil(gone)); err != nil {
		t.Fatalf("a holder that this process deletes is waited for: %v", err)
	}
	err := WaitWhileHeld(r.withWatch(context.Background()), `node "app-01"`, heldUntil(&atomic.Bool{}))
	for _, want := range []string{`node "app-01" is held by server "was-1" (id S1/app-01/was-1)`, "nothing in this run deletes them", "terraform state list -id="} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v, want it to say %q", err, want)
		}
	}
}
