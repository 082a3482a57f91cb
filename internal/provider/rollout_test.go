package provider

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/apmsim"
	"github.com/apmplatform/terraform-provider-apm/internal/apmsim/apmsimtest"
	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
)

// A stopped roll says what was done and what was not, and wraps its cause only where the
// cause's advice fits: a healthy_timeout is the roll's own wait, not the operation's
// timeout, whose advice (raise the timeout argument) would mislead.
func TestRollStoppedSaysWhatWasDone(t *testing.T) {
	refs := make([]apm.ServerRef, 4)
	for i, id := range []string{"was-1", "was-2", "was-3", "was-4"} {
		refs[i] = apm.ServerRef{Kind: apm.KindWAS, ServerID: id, NodeName: "app-01", SystemName: "shop"}
	}
	r := roll{servers: refs, batchSize: 2, op: rollRestart, memory: memoMemory{memo: &engine.Memo{}}}
	batches := [][]apm.ServerRef{refs[:2], refs[2:]}

	timedOut := &apm.TimeoutError{What: "was-4", Target: []string{stateRunning}, LastState: "starting"}
	err := r.stop(1, batches, rollFailure{server: &refs[3], last: "starting"}, timedOut)
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
	err = r.stop(0, batches, rollFailure{server: &refs[0]}, lost)
	if !strings.Contains(err.Error(), `Not done: "was-2", "was-3", "was-4", serving as before.`) || strings.Contains(err.Error(), "Done: ") || !errors.Is(err, lost) {
		t.Errorf("%q: want the cause wrapped, nothing done and the other three not done", err)
	}
}

// A roll carries on where the last run stopped: the server it left out goes first and
// back into the seats it stood in, the servers it finished are skipped when the roll
// does the same to each server, and rolled again when it does something else.
func TestRollCarriesOnWhereItStopped(t *testing.T) {
	refs := make([]apm.ServerRef, 4)
	for i, id := range []string{"was-1", "was-2", "was-3", "was-4"} {
		refs[i] = apm.ServerRef{Kind: apm.KindWAS, ServerID: id, NodeName: "app-01", SystemName: "shop"}
	}
	web := apm.ServerRef{Kind: apm.KindWeb, ServerID: "web-1", NodeName: "web-01", SystemName: "shop"}
	memo := &engine.Memo{}
	r := roll{servers: refs, batchSize: 1, op: rollRestart, fingerprint: "release 2", memory: memoMemory{memo: memo}}
	batches := slices.Collect(slices.Chunk(refs, 1))
	held := []seat{{web: web, index: 2, worker: apm.Worker{ServerID: "was-3", NodeName: "app-01", SystemName: "shop", LBFactor: 3}}}
	_ = r.stop(2, batches, rollFailure{server: &refs[2], last: "stopped", seats: held}, errors.New("start failed"))

	memo.Prior = memo.Next
	again, err := r.carryOn()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(again.servers, []apm.ServerRef{refs[2], refs[3]}) || !slices.Equal(again.skipped, refs[:2]) {
		t.Errorf("carries on with %v, skipping %v; want was-3 then was-4, skipping was-1 and was-2", again.servers, again.skipped)
	}
	if got := again.carried[refs[2]]; !slices.Equal(got, held) {
		t.Errorf("was-3 goes back into %+v, want %+v", got, held)
	}

	// Another release: every server rolls again, the one left out first.
	r.fingerprint = "release 3"
	again, _ = r.carryOn()
	if !slices.Equal(again.servers, []apm.ServerRef{refs[2], refs[0], refs[1], refs[3]}) || len(again.skipped) != 0 || len(again.carried[refs[2]]) != 1 {
		t.Errorf("a roll of another release carries on with %v, skipping %v; want was-3 first, then every other", again.servers, again.skipped)
	}

	// A roll of other servers is not this one's.
	other := roll{servers: refs[:2], batchSize: 1, op: rollRestart, fingerprint: "release 2", memory: r.memory}
	if again, _ = other.carryOn(); !slices.Equal(again.servers, refs[:2]) || again.carried != nil {
		t.Errorf("a roll of was-1 and was-2 took the journal of one that stopped at was-3: %v", again.servers)
	}
}

// An action's journal is a file named for the manager and the servers, removed once a
// roll finishes.
func TestRollJournalFile(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	refs := []apm.ServerRef{{Kind: apm.KindWAS, ServerID: "was-1", NodeName: "app-01", SystemName: "shop"}}
	m, err := newFileMemory("http://127.0.0.1:1", refs)
	if err != nil {
		t.Fatal(err)
	}
	if j, err := m.recall(); j != nil || err != nil {
		t.Fatalf("a roll never run recalls %v, %v", j, err)
	}
	want := rollJournal{Fingerprint: "f", Failed: &refs[0]}
	if err := m.keep(want); err != nil {
		t.Fatal(err)
	}
	other, _ := newFileMemory("http://127.0.0.1:2", refs)
	if j, _ := other.recall(); j != nil {
		t.Errorf("another manager's roll recalls %v", j)
	}
	if j, err := m.recall(); err != nil || j == nil || *j.Failed != refs[0] || j.Fingerprint != "f" {
		t.Errorf("recalled %+v, %v; want %+v", j, err, want)
	}
	if err := m.forget(); err != nil {
		t.Fatal(err)
	}
	if j, _ := m.recall(); j != nil {
		t.Errorf("a finished roll still recalls %v", j)
	}
}

// A drain that fails on one web server puts the server back into the web servers it had
// already left: the roll stops before the server goes out of service, so it must serve
// where it stood.
func TestRollFailedDrainPutsBack(t *testing.T) {
	sim, client, was, webs := newRollSim(t)
	ctx := t.Context()
	if err := sim.Sim.SetFaults(apmsim.FaultRule{Method: "PUT", Path: "/rest/web/servers/web-2/*/worker", Status: 400}); err != nil {
		t.Fatal(err)
	}
	r := roll{servers: []apm.ServerRef{was}, batchSize: 1, drain: true, op: rollRestart, memory: memoMemory{memo: &engine.Memo{}}, progress: func(string) {}}
	if _, err := newConn(client).run(ctx, r); err == nil {
		t.Fatal("the roll succeeded although web-2 refused to let was-1 go")
	}
	srv, err := client.GetServer(ctx, webs[0])
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(srv.Workers, func(w apm.Worker) bool { return sameWAS(w, was) }) {
		t.Errorf("web-1 no longer forwards to was-1 (workers %+v): the failed drain left it out", srv.Workers)
	}
}

// A roll cut short by its run's bound says so, not that the server's healthy_timeout ran
// out: the server was on its way back, and the advice that fits is the bound's.
func TestRollCutShortByItsBound(t *testing.T) {
	_, client, was, _ := newRollSim(t, apmsimtest.WithTransitionDelay(300*time.Millisecond))
	ctx, cancel := context.WithTimeout(t.Context(), 400*time.Millisecond)
	defer cancel()
	r := roll{servers: []apm.ServerRef{was}, batchSize: 1, drain: true, healthyTimeout: time.Minute, op: rollRestart,
		memory: memoMemory{memo: &engine.Memo{}}, progress: func(string) {}}
	_, err := newConn(client).run(ctx, r)
	if err == nil {
		t.Fatal("a restart that takes over a second finished within 400ms")
	}
	if !strings.Contains(err.Error(), `WAS server "was-1" on node "app-01" of system "shop" was not healthy yet when the run's time ran out; last seen: `) ||
		strings.Contains(err.Error(), "healthy_timeout") || strings.Contains(err.Error(), "Find out why") {
		t.Errorf("%q: want the run's time named as what ran out, and no word of healthy_timeout", err)
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("%q: want the deadline wrapped, for the bound's advice", err)
	}
}

// newRollSim is an apmsim with system shop, node app-01, WAS server was-1 and web
// servers web-1 and web-2 that forward to it.
func newRollSim(t *testing.T, opts ...func(*apmsim.Options)) (*apmsimtest.Server, *apm.Client, apm.ServerRef, []apm.ServerRef) {
	t.Helper()
	sim := apmsimtest.Start(t, opts...)
	ctx := t.Context()
	client, err := apm.New(apm.Config{Endpoint: sim.URL, APIKey: sim.AdminKey})
	if err != nil {
		t.Fatal(err)
	}
	was := apm.ServerRef{Kind: apm.KindWAS, ServerID: "was-1", NodeName: "app-01", SystemName: "shop"}
	webs := []apm.ServerRef{{Kind: apm.KindWeb, ServerID: "web-1", NodeName: "app-01", SystemName: "shop"}, {Kind: apm.KindWeb, ServerID: "web-2", NodeName: "app-01", SystemName: "shop"}}
	steps := []func() error{
		func() error { return client.CreateSystem(ctx, "shop") },
		func() error {
			return client.CreateNode(ctx, apm.CreateNodeRequest{NodeName: "app-01", SystemName: "shop", HostIP: "10.0.0.21", AgentPort: 7730})
		},
		func() error {
			return client.InstallServer(ctx, apm.KindWAS, apm.ServerSpec{ServerID: "was-1", NodeName: "app-01", SystemName: "shop", HTTPPort: 8080, AJPPort: 8009})
		},
	}
	for i, web := range webs {
		steps = append(steps,
			func() error {
				return client.InstallServer(ctx, apm.KindWeb, apm.ServerSpec{ServerID: web.ServerID, NodeName: "app-01", SystemName: "shop", HTTPPort: int64(80 + i)})
			},
			func() error {
				return client.SetWorkers(ctx, web, []apm.Worker{{ServerID: "was-1", NodeName: "app-01", SystemName: "shop"}})
			})
	}
	for _, step := range steps {
		if err := step(); err != nil {
			t.Fatal(err)
		}
	}
	return sim, client, was, webs
}
