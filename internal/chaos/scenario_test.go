//go:build chaos

package chaos

import (
	"fmt"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// A scenario is one test's manager, workspace and figures. Its summary line is printed to
// stdout as well as logged, so that CI logs show every scenario's figures in one place,
// also when the scenario stopped half-way.

type scenario struct {
	t       *testing.T
	name    string
	sim     *simEnv
	ws      *workspace
	fleet   fleet // the configuration in the workspace
	started time.Time
	fig     figures
}

// figures are the reported measurements; -1 means not measured (the scenario stopped
// first, or has no destroy). left is what a destroy left: objects in the manager and
// resources in the state.
type figures struct {
	runs, orphans, duplicates, mismatches, objects, planExit, left int
}

// newScenario starts the scenario's manager and workspace; setups change the manager
// before the workspace is made (a front before it, which the CLI then reaches it through).
func newScenario(t *testing.T, name string, setups ...func(*simEnv)) *scenario {
	t.Helper()
	tl := setupTools(t)
	sc := &scenario{t: t, name: name, fleet: initialFleet, started: time.Now(), fig: figures{-1, -1, -1, -1, -1, -1, -1}}
	sc.sim = startSim(t)
	for _, setup := range setups {
		setup(sc.sim)
	}
	sc.ws = newWorkspace(t, tl, sc.sim, sc.fleet.config())
	cert, key := testCert(t)
	sc.ws.write(certFile, cert)
	sc.ws.write(keyFile, key)
	t.Cleanup(sc.summary)
	return sc
}

// reconfigure replaces the workspace's configuration with f's.
func (sc *scenario) reconfigure(f fleet) {
	sc.fleet = f
	sc.ws.write("main.tf", f.config())
}

func (sc *scenario) summary() { sc.report(sc.name) }

// report prints the figures so far under label: the scenario's name, or a stage of it
// ("faults/scale-in").
func (sc *scenario) report(label string) {
	verdict := "PASS"
	if sc.t.Failed() {
		verdict = "FAIL"
	}
	f := sc.fig
	line := fmt.Sprintf("chaos %-16s %s runs=%s orphans=%s duplicates=%s mismatches=%s objects=%s plan_exit=%s left=%s wall=%.1fs",
		label, verdict, figure(f.runs), figure(f.orphans), figure(f.duplicates), figure(f.mismatches), figure(f.objects),
		figure(f.planExit), figure(f.left), time.Since(sc.started).Seconds())
	sc.t.Log(line)
	fmt.Println(line)
}

func figure(n int) string {
	if n < 0 {
		return "?"
	}
	return strconv.Itoa(n)
}

// apply runs one apply and logs how it went; extraEnv is added to the CLI's environment.
func (sc *scenario) apply(extraEnv ...string) procResult {
	sc.t.Helper()
	sc.fig.runs = max(sc.fig.runs, 0) + 1
	r := sc.ws.run(extraEnv, applyArgs...)
	sc.logRun(fmt.Sprintf("apply %d", sc.fig.runs), r)
	return r
}

// applyUntilSuccess applies until an apply exits 0, at most limit times. Each failed run
// must have failed because of the faults (expectOnlyFaults).
func (sc *scenario) applyUntilSuccess(limit int) bool {
	sc.t.Helper()
	for range limit {
		r := sc.apply()
		if r.exit == 0 {
			return true
		}
		sc.expectOnlyFaults(r)
	}
	return false
}

// expectOnlyFaults fails the test when a run under faults failed for another reason: an
// error that names no injected fault and no broken connection is the provider's (a lost
// answer it did not reconcile, an object it did not expect gone), and the next run, which
// starts from a refreshed state, would hide it. So would a run that failed without an error.
func (sc *scenario) expectOnlyFaults(r procResult) {
	sc.t.Helper()
	errs := diagnostics(r.output)
	if len(errs) == 0 {
		sc.t.Errorf("a run under faults %s without an error diagnostic", ended(r))
	}
	for _, e := range errs {
		if !faultCaused(e) {
			sc.t.Errorf("a run under faults failed for another reason than the faults:\n%s", firstLines(e, 12))
		}
	}
}

// destroy runs one destroy, with extraArgs added to its arguments, and logs how it went.
func (sc *scenario) destroy(extraArgs ...string) procResult {
	sc.t.Helper()
	sc.fig.runs = max(sc.fig.runs, 0) + 1
	r := sc.ws.run(nil, append(slices.Clone(destroyArgs), extraArgs...)...)
	sc.logRun(fmt.Sprintf("destroy (run %d)", sc.fig.runs), r)
	return r
}

// destroyUntilSuccess destroys until a destroy exits 0, at most limit times. Each failed
// run must have failed because of the faults (expectOnlyFaults).
func (sc *scenario) destroyUntilSuccess(limit int, extraArgs ...string) bool {
	sc.t.Helper()
	for range limit {
		r := sc.destroy(extraArgs...)
		if r.exit == 0 {
			return true
		}
		sc.expectOnlyFaults(r)
	}
	return false
}

// expectDestroyed turns the faults off and asserts that the destroys left nothing: no
// object in the manager (a server stopped but not uninstalled, a node or system whose
// delete seemed to fail) and no resource in the state.
func (sc *scenario) expectDestroyed() {
	sc.t.Helper()
	sc.sim.faultsOff(sc.t)
	m, err := sc.sim.detailedView(sc.t.Context())
	if err != nil {
		sc.t.Fatalf("harness: listing the manager: %v", err)
	}
	s, err := readState(sc.ws.statePath())
	if err != nil {
		sc.t.Fatalf("harness: %v", err)
	}
	c := takeCensus(m, s)
	sc.fig.left = c.objects + c.inState
	sc.t.Logf("after destroy: %d objects in apmsim (%d servers), %d resources in state", c.objects, c.servers, c.inState)
	if c.objects > 0 {
		sc.t.Errorf("the destroy left %d objects in apmsim: %s", c.objects, head(c.orphans, 8))
	}
	if c.inState > 0 {
		sc.t.Errorf("the destroy left %d resources in the state: %s", c.inState, head(c.missing, 8))
	}
}

// logRun logs the end of a run, the manager's object count and the run's errors by kind
// with the first few in full, which is what tells a provider gap from a fault.
func (sc *scenario) logRun(what string, r procResult) {
	sc.t.Helper()
	objects, err := sc.sim.objects(sc.t.Context())
	if err != nil {
		sc.t.Logf("harness: listing the manager: %v", err)
	}
	sc.t.Logf("%s: %s in %.1fs; %d objects in apmsim", what, ended(r), r.wall.Seconds(), objects)
	errs := diagnostics(r.output)
	if len(errs) > 0 {
		sc.t.Logf("  %d errors: %s", len(errs), kinds(errs))
	}
	for _, e := range errs[:min(len(errs), 3)] {
		sc.t.Logf("  %s", firstLines(e, 6))
	}
	if r.exit != 0 && len(errs) == 0 {
		sc.t.Logf("  output ends:\n%s", tail(r.output, 15))
	}
}

// ended says how a run ended.
func ended(r procResult) string {
	s := "exit " + strconv.Itoa(r.exit)
	if r.signal != 0 {
		s = fmt.Sprintf("ended by signal %d (%s)", int(r.signal), r.signal)
	}
	if r.leftovers {
		s += " (leftover provider processes killed)"
	}
	return s
}

// measure turns the faults off, takes the census and runs the final plan, recording the
// figures. Faults off first: the measurement is of what the applies left, not of the faults.
func (sc *scenario) measure() census {
	sc.t.Helper()
	sc.sim.faultsOff(sc.t)
	c := sc.census()
	plan := sc.ws.run(nil, planArgs...)
	sc.fig.planExit = plan.exit
	sc.t.Logf("plan -detailed-exitcode: %s in %.1fs", ended(plan), plan.wall.Seconds())
	if lines := planLines(plan.output); plan.exit != 0 && len(lines) > 0 {
		sc.t.Logf("  plan: %s", head(lines, 12))
	}
	if errs := diagnostics(plan.output); len(errs) > 0 {
		sc.t.Logf("  plan errors: %s; first: %s", kinds(errs), firstLines(errs[0], 6))
	}
	return c
}

// census compares manager and state now and records the figures.
func (sc *scenario) census() census {
	sc.t.Helper()
	m, err := sc.sim.detailedView(sc.t.Context())
	if err != nil {
		sc.t.Fatalf("harness: listing the manager: %v", err)
	}
	s, err := readState(sc.ws.statePath())
	if err != nil {
		sc.t.Fatalf("harness: %v", err)
	}
	c := takeCensus(m, s)
	sc.fig.objects, sc.fig.orphans, sc.fig.duplicates, sc.fig.mismatches = c.objects, len(c.orphans), len(c.duplicates), len(c.mismatches)
	sc.t.Logf("census: %d objects in apmsim (%d servers, %d running), %d in state; %d orphans, %d missing, %d duplicates, %d mismatches",
		c.objects, c.servers, c.running, c.inState, len(c.orphans), len(c.missing), len(c.duplicates), len(c.mismatches))
	for _, l := range []struct {
		name string
		list []string
	}{{"orphans", c.orphans}, {"missing", c.missing}, {"duplicates", c.duplicates}, {"mismatches", c.mismatches}} {
		if len(l.list) > 0 {
			sc.t.Logf("  %s: %s", l.name, head(l.list, 8))
		}
	}
	return c
}

// expectConverged asserts the end state of a scenario that must heal: every object once,
// all of them in the state, every server with its port and declared running state, every
// part with its value, and nothing left to do.
func (sc *scenario) expectConverged(c census) {
	sc.t.Helper()
	if len(c.orphans) > 0 {
		sc.t.Errorf("%d orphans (in apmsim, not in the state): %s", len(c.orphans), head(c.orphans, 8))
	}
	if len(c.missing) > 0 {
		sc.t.Errorf("%d missing (in the state, not in apmsim): %s", len(c.missing), head(c.missing, 8))
	}
	if len(c.duplicates) > 0 {
		sc.t.Errorf("%d duplicates: %s", len(c.duplicates), head(c.duplicates, 8))
	}
	if len(c.mismatches) > 0 {
		sc.t.Errorf("%d objects differ between state and apmsim: %s", len(c.mismatches), head(c.mismatches, 8))
	}
	// Every WAS server and every server of a topology runs; the other session servers are
	// installed stopped, and none of them is started.
	if f := sc.fleet; c.servers != f.servers() || c.running != f.running() {
		sc.t.Errorf("apmsim holds %d servers, %d of them running; want %d, %d running", c.servers, c.running, f.servers(), f.running())
	}
	if c.objects != sc.fleet.objects() || c.inState != sc.fleet.objects() {
		sc.t.Errorf("apmsim holds %d objects and the state %d resources, want the %d of the configuration", c.objects, c.inState, sc.fleet.objects())
	}
	if sc.fig.planExit != 0 {
		sc.t.Errorf("plan -detailed-exitcode exited %d, want 0 (no changes)", sc.fig.planExit)
	}
}

// interruption is how an interrupted apply went.
type interruption struct {
	atSignal, afterExit managerView // apmsim when the signal was sent, and once all settled
	run                 procResult
}

// signalPoint is the moment of an apply to interrupt it at, as apmsim sees it, and the
// slow writes that make the apply last until then with writes in flight.
type signalPoint struct {
	what    string // "40 objects", for the logs
	reached func(managerView) bool
	slow    []string
}

// atObjects is the moment apmsim holds n objects, every write slowed down.
func atObjects(n int) signalPoint {
	return signalPoint{fmt.Sprintf("%d objects", n), func(v managerView) bool { return v.objects() >= n }, slowWrites}
}

// atServers is the moment apmsim holds n servers, the servers' writes slowed down: the
// nodes are made, and other servers are being installed or started.
func atServers(n int) signalPoint {
	return signalPoint{fmt.Sprintf("%d servers", n), func(v managerView) bool { return len(v.servers) >= n }, slowServerWrites}
}

// interruptedApply starts an apply with at's slow writes, and once apmsim reaches at
// stops it with stop.
func (sc *scenario) interruptedApply(at signalPoint, stop func(*proc) error) interruption {
	sc.t.Helper()
	sc.sim.setFaults(sc.t, at.slow)
	sc.fig.runs = max(sc.fig.runs, 0) + 1
	p := sc.ws.start(nil, applyArgs...)
	var in interruption
	in.atSignal = sc.waitFor(p, at)
	if err := stop(p); err != nil {
		sc.t.Fatalf("harness: signalling the CLI: %v", err)
	}
	in.run = sc.ws.finish(p)
	sc.logRun(fmt.Sprintf("apply %d (signalled at %s)", sc.fig.runs, in.atSignal.summary()), in.run)
	sc.sim.faultsOff(sc.t)
	in.afterExit = sc.settle()
	return in
}

// settle waits until apmsim has stood still (its objects, parts included, and its servers'
// statuses) for longer than the slowest write takes, and returns what it holds. The
// creates, starts and stops a dead client had in flight may still complete in the manager
// (Go's HTTP/1 server notices a closed connection only once the handler has read the
// request body, and the latency fault waits before that), and the next step must see the
// world they leave, not a world still changing.
func (sc *scenario) settle() managerView {
	sc.t.Helper()
	const quiet, limit = 600 * time.Millisecond, 10 * time.Second
	last, since, deadline := "", time.Now(), time.Now().Add(limit)
	for time.Now().Before(deadline) {
		v, err := sc.sim.detailedView(sc.t.Context())
		if err != nil {
			sc.t.Fatalf("harness: listing the manager: %v", err)
		}
		if s := v.summary(); s != last {
			last, since = s, time.Now()
		} else if time.Since(since) >= quiet {
			return v
		}
		time.Sleep(50 * time.Millisecond)
	}
	sc.t.Fatalf("harness: apmsim still changed %s after the CLI ended (%s)", limit, last)
	return managerView{}
}

// waitFor polls apmsim until it reaches at, and fails the test when the apply ends first:
// then nothing was interrupted and the scenario would prove nothing.
func (sc *scenario) waitFor(p *proc, at signalPoint) managerView {
	sc.t.Helper()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-p.done:
			r := sc.ws.finish(p)
			sc.logRun("apply (before any signal)", r)
			sc.t.Fatalf("harness: the apply ended (%s) before apmsim held %s; nothing was interrupted", ended(r), at.what)
		case <-tick.C:
			v, err := sc.sim.view(sc.t.Context())
			if err != nil {
				sc.t.Fatalf("harness: listing the manager: %v", err)
			}
			if at.reached(v) {
				return v
			}
		}
	}
}

// Ways to stop an apply.
var (
	// interrupt is Ctrl-C: SIGINT to the CLI and the provider alike.
	interrupt = func(p *proc) error { return p.signalGroup(syscall.SIGINT) }
	// killCLI is a crash of the CLI alone; the provider it leaves behind is killed once the
	// CLI is gone (procResult.leftovers), before the next step.
	killCLI = func(p *proc) error { return p.signalLeader(syscall.SIGKILL) }
)
