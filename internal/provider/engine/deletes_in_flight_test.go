package engine

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
)

// serverKey is how the registry knows the delete of the blocker below.
const serverKey = "apm_was_server S1/app-01/was-1"

var heldByServer = HeldBy(`server "was-1"`, "S1/app-01/was-1", "apm_was_server", "apm_web_server")

// A refused delete hopes while this process deletes one of its blockers, and while they
// change; the same blockers, none of them deleted here, for the grace end the hope.
func TestBlockedWatchHopesOnlyWhileThisProcessDeletesABlocker(t *testing.T) {
	registry := newDeletesInFlight()
	w := &blockedWatch{inFlight: registry, grace: 10 * time.Second}
	t0 := time.Unix(0, 0)
	done := registry.start(serverKey)
	if w.hopeless(t0, []Blocker{heldByServer}) || w.hopeless(t0.Add(time.Minute), []Blocker{heldByServer}) {
		t.Fatal("a blocker that this process is deleting must be waited for, however long")
	}
	done()
	if w.hopeless(t0.Add(time.Minute+9*time.Second), []Blocker{heldByServer}) {
		t.Error("the grace runs from when the blocker's delete ended, not from when it was first seen")
	}
	if !w.hopeless(t0.Add(time.Minute+10*time.Second), []Blocker{heldByServer}) {
		t.Error("the same blocker, deleted by nothing here, for the grace: waiting cannot help")
	}
	other := HeldBy(`server "was-2"`, "S1/app-01/was-2", "apm_was_server")
	if w.hopeless(t0.Add(2*time.Minute), []Blocker{other}) {
		t.Error("blockers that changed restart the grace")
	}
	if w.hopeless(t0.Add(3*time.Minute), nil) {
		t.Error("a refusal whose blockers are unknown leaves the wait to its timeout")
	}
}

// Two deletes of one object (a replacement's, say) keep it registered until both end;
// another object's delete releases nothing.
func TestDeletesInFlightCountsEachDelete(t *testing.T) {
	registry := newDeletesInFlight()
	defer registry.start("apm_web_server S1/app-01/was-2")()
	if registry.releasing(heldByServer) {
		t.Error("the delete of another server releases nothing")
	}
	first, second := registry.start(serverKey), registry.start(serverKey)
	first()
	if !registry.releasing(heldByServer) {
		t.Error("one delete of the blocker still runs")
	}
	second()
	if registry.releasing(heldByServer) {
		t.Error("no delete of the blocker runs any more")
	}
}

// blockedNode is a node whose delete the manager refuses while serverGone is false.
func blockedNode(registry *deletesInFlight, serverGone *atomic.Bool) *Resource[testNode, struct{}] {
	return &Resource[testNode, struct{}]{inFlight: registry, blockedGrace: 300 * time.Millisecond, Type: &ResourceType[testNode, struct{}]{
		Name: "node", DeleteTimeout: time.Minute,
		Describe: func(Attrs) string { return `node "app-01"` },
		Delete: func(context.Context, struct{}, Attrs) error {
			if serverGone.Load() {
				return nil
			}
			return apm.NewConflict("Node app-01 still has 1 server(s); delete them first")
		},
		Blockers: func(context.Context, struct{}, Attrs) ([]Blocker, error) {
			if serverGone.Load() {
				return nil, nil
			}
			return []Blocker{heldByServer}, nil
		},
	}}
}

// A node whose server this process is deleting (a parallel destroy) waits past the grace
// until the server is gone, and is then deleted.
func TestRefusedDeleteWaitsForABlockerThisProcessDeletes(t *testing.T) {
	registry, gone := newDeletesInFlight(), &atomic.Bool{}
	done := registry.start(serverKey)
	go func() {
		time.Sleep(time.Second) // longer than the grace
		gone.Store(true)
		done()
	}()
	if _, err := blockedNode(registry, gone).deleteWaiting(context.Background(), struct{}{}, Attrs{}, time.Minute, false); err != nil {
		t.Fatalf("the node's delete must wait for its server's delete: %v", err)
	}
}

// A node held by a server that nothing in this process deletes fails after the grace,
// long before its timeout, naming the server, its id, how to find its resource and what
// to do.
func TestRefusedDeleteHeldFromOutsideFailsAfterTheGrace(t *testing.T) {
	start := time.Now()
	_, err := blockedNode(newDeletesInFlight(), &atomic.Bool{}).deleteWaiting(context.Background(), struct{}{}, Attrs{}, time.Minute, false)
	if elapsed := time.Since(start); elapsed > 20*time.Second {
		t.Errorf("took %s; the grace is 300ms", elapsed)
	}
	for _, want := range []string{`node "app-01" is held by`, `server "was-1" (id S1/app-01/was-1)`, "nothing in this run deletes them",
		"still has 1 server(s)", "destroy without -target", "terraform state list -id="} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v, want it to say %q", err, want)
		}
	}
	if !apm.IsConflict(err) {
		t.Errorf("the error wraps the manager's refusal: %v", err)
	}
}

// An interrupted wait names the blockers and says that the delete was sent and refused,
// never that it was cancelled before the request was sent.
func TestInterruptedBlockedDeleteNamesItsBlockers(t *testing.T) {
	registry := newDeletesInFlight()
	defer registry.start(serverKey)() // waited for: only the interrupt ends the wait
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(500*time.Millisecond, cancel)
	_, err := blockedNode(registry, &atomic.Bool{}).deleteWaiting(ctx, struct{}{}, Attrs{}, time.Minute, false)
	if errors.Is(err, context.Canceled) {
		t.Errorf("the interrupt is no error of the request: %v", err)
	}
	text := callError("delete node", err).Detail()
	for _, want := range []string{"interrupted after", "was sent", "refused", `server "was-1" (id S1/app-01/was-1, which this run is deleting)`} {
		if !strings.Contains(text, want) {
			t.Errorf("error %q, want it to say %q", text, want)
		}
	}
	if strings.Contains(text, "before the request was sent") {
		t.Errorf("requests were sent: %q", text)
	}
}
