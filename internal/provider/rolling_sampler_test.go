package provider

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
)

// rollSampler watches the manager of testdata/rolling/cluster.tf while a roll runs, as a
// load balancer's traffic would see it: it reads the web servers' workers, the WAS
// servers' states and their applications' states over and over, and records what a roll
// must never do and what it did.
//
// Reads are not atomic, so one sample reads the workers, then the states, then the
// workers again: a server counts as forwarded to only when both reads have it (a drain
// or a put-back between them is not a violation), and as drained only when neither has
// it.
type rollSampler struct {
	t     *testing.T
	env   *accEnv
	was   []apm.ServerRef
	webs  []apm.ServerRef
	start map[apm.ServerRef][]apm.Worker // each web server's workers before the roll
	stop  context.CancelFunc
	done  chan struct{}

	mu         sync.Mutex
	samples    int
	violations []string
	maxOut     int
	downs      map[string]int // how often each WAS server went out of service
	order      []string       // WAS servers in the order they first went out of service
	out        map[string]bool
	lastStates map[string]string
	began      time.Time
	timeline   []string // when each server went out of service and came back, and in what state
}

// rollingRefs are the servers of testdata/rolling/cluster.tf.
func rollingRefs() (was, webs []apm.ServerRef) {
	for _, id := range []string{"was-1", "was-2", "was-3", "was-4"} {
		was = append(was, apm.ServerRef{Kind: apm.KindWAS, ServerID: id, NodeName: "app-01", SystemName: "shop"})
	}
	for _, id := range []string{"web-1", "web-2"} {
		webs = append(webs, apm.ServerRef{Kind: apm.KindWeb, ServerID: id, NodeName: "app-01", SystemName: "shop"})
	}
	return was, webs
}

// watchRoll starts sampling; finish stops it and returns what it saw. The workers the
// web servers have now are what every roll must leave.
func watchRoll(t *testing.T, env *accEnv) *rollSampler {
	t.Helper()
	was, webs := rollingRefs()
	waitHealthy(t, env, was)
	start := map[apm.ServerRef][]apm.Worker{}
	for _, web := range webs {
		srv, err := env.admin.GetServer(t.Context(), web)
		env.must(err)
		if start[web] = srv.Workers; len(srv.Workers) != len(was) {
			t.Fatalf("%s balances to %d WAS servers before the roll, want %d", web.ServerID, len(srv.Workers), len(was))
		}
	}
	return sampling(t, env, start)
}

// waitHealthy waits until every server is healthy: right after an apply that created
// them, their applications may still deploy, which a roll's samples would count as out
// of service.
func waitHealthy(t *testing.T, env *accEnv, was []apm.ServerRef) {
	t.Helper()
	s := &rollSampler{t: t, env: env}
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		healthy := 0
		for _, ref := range was {
			_, state, err := s.state(t.Context(), ref)
			env.must(err)
			if state == "healthy" {
				healthy++
			}
		}
		if healthy == len(was) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d WAS servers healthy after 30s", healthy, len(was))
		}
	}
}

// again starts sampling the next roll, which must leave the workers that the first
// roll sampled had at its start.
func (s *rollSampler) again() *rollSampler { return sampling(s.t, s.env, s.start) }

func sampling(t *testing.T, env *accEnv, start map[apm.ServerRef][]apm.Worker) *rollSampler {
	was, webs := rollingRefs()
	s := &rollSampler{t: t, env: env, was: was, webs: webs, start: start, done: make(chan struct{}),
		downs: map[string]int{}, out: map[string]bool{}, lastStates: map[string]string{}, began: time.Now()}
	ctx, stop := context.WithCancel(context.Background())
	s.stop = stop
	go s.loop(ctx)
	// A test that fails before finish must not leave the sampler reporting into it.
	t.Cleanup(func() { stop(); <-s.done })
	return s
}

// sampled is a state check that runs check: the samplers' checks after an apply, which
// plugin-testing's Check cannot run (it fails on for_each instances).
type sampled func()

func (check sampled) CheckState(context.Context, statecheck.CheckStateRequest, *statecheck.CheckStateResponse) {
	check()
}

func (s *rollSampler) loop(ctx context.Context) {
	defer close(s.done)
	for ctx.Err() == nil {
		s.sample(ctx)
		select {
		case <-ctx.Done():
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// workers reads a web server's workers.
func (s *rollSampler) workers(web apm.ServerRef) []apm.Worker {
	srv, err := s.env.admin.GetServer(context.Background(), web)
	if err != nil {
		s.t.Errorf("sampling %s: %v", web.ServerID, err)
		return nil
	}
	return srv.Workers
}

// state is "healthy" for a WAS server that runs with every application running, else
// what it is.
func (s *rollSampler) state(ctx context.Context, ref apm.ServerRef) (status, state string, err error) {
	srv, err := s.env.admin.GetServer(ctx, ref)
	if err != nil {
		return "", "", err
	}
	if srv.Status != stateRunning {
		return srv.Status, "server " + srv.Status, nil
	}
	apps, err := s.env.admin.ApplicationStatuses(ctx, ref)
	if err != nil {
		return "", "", err
	}
	if len(apps) == 0 {
		return srv.Status, "no application", nil
	}
	for _, a := range apps {
		if a.Status != stateRunning {
			return srv.Status, "application " + a.Status, nil
		}
	}
	return srv.Status, "healthy", nil
}

func (s *rollSampler) sample(ctx context.Context) {
	before := map[apm.ServerRef][]apm.Worker{}
	for _, web := range s.webs {
		before[web] = s.workers(web)
	}
	status, state := map[string]string{}, map[string]string{}
	for _, ref := range s.was {
		st, health, err := s.state(ctx, ref)
		if err != nil {
			if ctx.Err() == nil {
				s.t.Errorf("sampling %s: %v", ref.ServerID, err)
			}
			return
		}
		status[ref.ServerID], state[ref.ServerID] = st, health
	}
	after := map[apm.ServerRef][]apm.Worker{}
	for _, web := range s.webs {
		after[web] = s.workers(web)
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	s.samples++
	out := map[string]bool{}
	for _, ref := range s.was {
		if state[ref.ServerID] != "healthy" {
			out[ref.ServerID] = true
		}
	}
	for _, web := range s.webs {
		for _, ref := range s.was {
			inBefore, inAfter := hasWorker(before[web], ref), hasWorker(after[web], ref)
			if inBefore && inAfter && status[ref.ServerID] != stateRunning {
				s.violations = append(s.violations, fmt.Sprintf("%s forwards to %s, which is %s", web.ServerID, ref.ServerID, status[ref.ServerID]))
			}
			if !inBefore && !inAfter {
				out[ref.ServerID] = true
			}
		}
	}
	s.maxOut = max(s.maxOut, len(out))
	for _, ref := range s.was {
		id := ref.ServerID
		if out[id] != s.out[id] || out[id] && state[id] != s.lastStates[id] {
			s.timeline = append(s.timeline, fmt.Sprintf("%6.2fs %s %s (%s, %d web servers forward to it)", time.Since(s.began).Seconds(), id,
				map[bool]string{true: "out of service", false: "serving"}[out[id]], state[id], forwarders(after, ref)))
		}
		if out[id] && !s.out[id] {
			s.downs[id]++
			if !slices.Contains(s.order, id) {
				s.order = append(s.order, id)
			}
		}
		s.lastStates[id] = state[id]
	}
	s.out = out
}

// forwarders counts the web servers whose workers have ref.
func forwarders(workers map[apm.ServerRef][]apm.Worker, ref apm.ServerRef) int {
	n := 0
	for _, ws := range workers {
		if hasWorker(ws, ref) {
			n++
		}
	}
	return n
}

func hasWorker(workers []apm.Worker, ref apm.ServerRef) bool {
	return slices.ContainsFunc(workers, func(w apm.Worker) bool { return sameWAS(w, ref) })
}

// finish stops sampling, takes a last sample and checks what every roll must hold:
// no worker forwarded to a server that was not running, and never more than batch
// servers were out of service at once.
func (s *rollSampler) finish(batch int) *rollSampler {
	s.t.Helper()
	s.stop()
	<-s.done
	s.sample(context.Background())
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.samples < 10 {
		s.t.Errorf("only %d samples of the manager: too few to tell what the roll did", s.samples)
	}
	for _, v := range slices.Compact(s.violations) {
		s.t.Errorf("drain broken: %s", v)
	}
	if s.maxOut > batch {
		s.t.Errorf("%d servers were out of service at once, want at most batch_size = %d", s.maxOut, batch)
	}
	s.t.Logf("%d samples; servers out of service in the order %v, each %v times; at most %d at once; timeline:\n%s",
		s.samples, s.order, s.downs, s.maxOut, strings.Join(s.timeline, "\n"))
	return s
}

// rolledEach checks that every server went out of service exactly once, in the roll's
// order, and that every web server's workers and every application are as before.
func (s *rollSampler) rolledEach() {
	s.t.Helper()
	want := make([]string, len(s.was))
	for i, ref := range s.was {
		want[i] = ref.ServerID
		if n := s.downs[ref.ServerID]; n != 1 {
			s.t.Errorf("%s went out of service %d times, want once", ref.ServerID, n)
		}
	}
	if !slices.Equal(s.order, want) {
		s.t.Errorf("servers went out of service in the order %v, want %v", s.order, want)
	}
	s.servingAsBefore(s.was...)
}

// servingAsBefore checks that each of refs is healthy and back in every web server's
// workers where it stood, with its settings.
func (s *rollSampler) servingAsBefore(refs ...apm.ServerRef) {
	s.t.Helper()
	for _, ref := range refs {
		if st := s.lastStates[ref.ServerID]; st != "healthy" {
			s.t.Errorf("%s is %s at the end, want healthy", ref.ServerID, st)
		}
	}
	for _, web := range s.webs {
		got := s.workers(web)
		for _, ref := range refs {
			i := slices.IndexFunc(s.start[web], func(w apm.Worker) bool { return sameWAS(w, ref) })
			j := slices.IndexFunc(got, func(w apm.Worker) bool { return sameWAS(w, ref) })
			if j < 0 || got[j] != s.start[web][i] || j != i {
				s.t.Errorf("%s's worker for %s is %+v at %d at the end, want %+v at %d", web.ServerID, ref.ServerID, workerAt(got, j), j, s.start[web][i], i)
			}
		}
	}
}

func workerAt(ws []apm.Worker, i int) string {
	if i < 0 {
		return "missing"
	}
	return fmt.Sprintf("%+v", ws[i])
}

// leftOut checks that ref is out of every web server's workers.
func (s *rollSampler) leftOut(ref apm.ServerRef) {
	s.t.Helper()
	for _, web := range s.webs {
		if hasWorker(s.workers(web), ref) {
			s.t.Errorf("%s still forwards to %s, which failed its start", web.ServerID, ref.ServerID)
		}
	}
}

// rolledOnce checks that each of refs went out of service exactly once.
func (s *rollSampler) rolledOnce(refs ...apm.ServerRef) {
	s.t.Helper()
	for _, ref := range refs {
		if n := s.downs[ref.ServerID]; n != 1 {
			s.t.Errorf("%s went out of service %d times, want once", ref.ServerID, n)
		}
	}
}

// untouched checks that refs never went out of service.
func (s *rollSampler) untouched(refs ...apm.ServerRef) {
	s.t.Helper()
	for _, ref := range refs {
		if n := s.downs[ref.ServerID]; n != 0 {
			s.t.Errorf("%s went out of service %d times, want never (the roll stopped before it)", ref.ServerID, n)
		}
	}
}
