package provider

import (
	"errors"
	"strings"
	"testing"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
)

// A stopped roll says what was done and what was not, and wraps its cause only where the
// cause's advice fits: a healthy_timeout is the roll's own wait, not the operation's
// timeout, whose advice (raise the timeout argument) would mislead.
func TestRollStoppedSaysWhatWasDone(t *testing.T) {
	refs := make([]apm.ServerRef, 4)
	for i, id := range []string{"was-1", "was-2", "was-3", "was-4"} {
		refs[i] = apm.ServerRef{Kind: apm.KindWAS, ServerID: id, NodeName: "app-01", SystemName: "shop"}
	}
	r := roll{servers: refs, batchSize: 2, op: rollRestart}
	batches := [][]apm.ServerRef{refs[:2], refs[2:]}

	timedOut := &apm.TimeoutError{What: "was-4", Target: []string{stateRunning}, LastState: "starting"}
	err := r.stopped(1, batches, &refs[3], "starting", timedOut)
	for _, want := range []string{`"was-4" on node "app-01" of system "shop" did not become healthy within healthy_timeout`, "last seen: starting",
		`Done: restarted "was-1", "was-2", "was-3", serving again.`, "left out of its load balancers"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q lacks %q", err, want)
		}
	}
	if strings.Contains(err.Error(), "Not done") || errors.As(err, &timedOut) {
		t.Errorf("%q: nothing is left undone, and the timeout must not be wrapped", err)
	}

	lost := errors.New("connection refused")
	err = r.stopped(0, batches, &refs[0], "", lost)
	if !strings.Contains(err.Error(), `Not done: "was-2", "was-3", "was-4", serving as before.`) || strings.Contains(err.Error(), "Done: ") || !errors.Is(err, lost) {
		t.Errorf("%q: want the cause wrapped, nothing done and the other three not done", err)
	}
}
