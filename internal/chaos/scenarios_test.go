//go:build chaos

package chaos

import (
	"strings"
	"testing"
)

const (
	// maxFaultRuns bounds the applies under faults: each run retries what the last one
	// left, so runs converge unless failures stick (an object created whose answer was
	// lost, then a 409 forever). Most runs converge at once; a run fails when a request
	// meets a fault on all five attempts (the default max_retries), about one run in
	// three at these rates, so ten runs make a false failure about one in 50,000.
	maxFaultRuns = 10
	// signalAt is the object count at which an apply is interrupted: a third of the way
	// in, with about ten creates in flight, so that the signal lands mid-apply.
	signalAt = 35
	// minFaults is the fewest faults a faults scenario must meet: the rules fire on about
	// 50 of the 250 or so requests of even a run that converges at once.
	minFaults = 20
)

// Baseline: the fleet applies in one run with no faults, and the harness's census and plan
// find it clean. When this fails the harness or the provider is broken outright, and the
// other scenarios' failures say nothing about faults.
func TestChaosBaseline(t *testing.T) {
	sc := newScenario(t, "baseline")
	r := sc.apply()
	c := sc.measure()
	if r.exit != 0 {
		t.Errorf("apply without faults exited %d, want 0", r.exit)
	}
	sc.expectConverged(c)
}

// Faults: 5xx and resets on a quarter of the creates, half of them after the manager made
// the change. Repeated applies must converge, with every object created exactly once and
// in the state.
func TestChaosFaults(t *testing.T) {
	sc := newScenario(t, "faults")
	sc.sim.setFaults(t, faultRules)
	converged := sc.applyUntilSuccess(maxFaultRuns)
	sc.expectFaultsFired()
	c := sc.measure()
	if !converged {
		t.Errorf("no apply exited 0 within %d runs under faults", maxFaultRuns)
	}
	sc.expectConverged(c)
}

// SIGINT: Ctrl-C mid-apply reaches the CLI and the provider. The CLI stops gracefully; the
// next apply, without faults, must finish the job without orphans or duplicates.
func TestChaosInterrupt(t *testing.T) {
	sc := newScenario(t, "sigint")
	in := sc.interruptedApply(signalAt, interrupt)
	t.Logf("SIGINT at %d objects in apmsim; %d once the CLI exited", in.atSignal, in.afterExit)
	if in.run.exit == 0 || in.run.signal != 0 {
		t.Errorf("the interrupted apply %s; want the CLI to stop on its own with an error", ended(in.run))
	}
	sc.census()
	r := sc.apply()
	c := sc.measure()
	if r.exit != 0 {
		t.Errorf("the apply after the interruption exited %d, want 0", r.exit)
	}
	sc.expectConverged(c)
}

// SIGKILL with adoption: the CLI dies without saving the objects created since its last
// state snapshot. With adopt_existing the next apply takes them over instead of failing.
func TestChaosKillAdopt(t *testing.T) {
	sc := newScenario(t, "sigkill-adopt")
	sc.killMidApply()
	r := sc.apply(envAdoptExisting)
	c := sc.measure()
	if r.exit != 0 {
		t.Errorf("the apply with %s after the kill exited %d, want 0", envAdoptExisting, r.exit)
	}
	sc.expectConverged(c)
}

// SIGKILL without adoption: the next apply must refuse to take over the unrecorded objects:
// a 409 whose message gives the import command, and no second copy of anything.
func TestChaosKillNoAdopt(t *testing.T) {
	sc := newScenario(t, "sigkill-no-adopt")
	before := sc.killMidApply()
	r := sc.apply()
	c := sc.measure()
	if r.exit == 0 {
		t.Errorf("the apply without adoption exited 0 over %d orphans; want it to fail with 409", len(before.orphans))
	}
	ids := importIDs(conflicts(diagnostics(r.output)))
	t.Logf("import IDs offered: %s", head(ids, 6))
	if len(ids) == 0 {
		t.Errorf("no 409 diagnostic offers `terraform import apm_...`")
	}
	for _, id := range ids {
		if !namesOrphan(before.orphans, id) {
			t.Errorf("the import ID %q names no object the kill left out of the state", id)
		}
	}
	if len(c.duplicates) > 0 {
		t.Errorf("%d duplicates: %s", len(c.duplicates), head(c.duplicates, 8))
	}
}

// killMidApply kills the CLI mid-apply and checks that the kill left objects out of the
// state: without such orphans the scenario after it would prove nothing.
func (sc *scenario) killMidApply() census {
	sc.t.Helper()
	in := sc.interruptedApply(signalAt, killCLI)
	sc.t.Logf("SIGKILL at %d objects in apmsim; %d once the CLI and its provider were gone", in.atSignal, in.afterExit)
	c := sc.census()
	if len(c.orphans) == 0 {
		sc.t.Fatalf("harness: the state holds every object after the kill; there is nothing to recover")
	}
	return c
}

// expectFaultsFired logs how often each fault rule fired, to read the runs' errors against,
// and fails the test when the faults cannot have been met: a rule with times=N that never
// fired (its path matches none of the provider's requests), or hardly any faults at all.
func (sc *scenario) expectFaultsFired() {
	sc.t.Helper()
	counts, err := sc.sim.faultCounts()
	if err != nil {
		sc.t.Fatalf("harness: reading the fault counters: %v", err)
	}
	var total int64
	for _, c := range counts {
		sc.t.Logf("fault %-48s fired %3d of %4d", c.Rule, c.Fired, c.Matched)
		total += c.Fired
		if strings.Contains(c.Rule, " times=") && c.Fired == 0 {
			sc.t.Errorf("the fault %q never fired", c.Rule)
		}
	}
	if total < minFaults {
		sc.t.Errorf("only %d faults fired, want at least %d: the scenario met too few to prove anything", total, minFaults)
	}
}

// conflicts are the diagnostics of 409 answers.
func conflicts(blocks []string) []string {
	var out []string
	for _, b := range blocks {
		if strings.Contains(strings.Join(strings.Fields(b), " "), "409 CONFLICT") {
			out = append(out, b)
		}
	}
	return out
}

// namesOrphan reports whether an import ID ("apm_node SYS-0001/s1-n1", "apm_system
// chaos-s1") names one of the orphans (as census describes them) by its name.
func namesOrphan(orphans []string, typeAndID string) bool {
	typ, id, _ := strings.Cut(typeAndID, " ")
	name := id[strings.LastIndexByte(id, '/')+1:]
	for _, o := range orphans {
		switch {
		case typ == "apm_system" && strings.HasPrefix(o, "system "+name+" "),
			typ == "apm_node" && strings.HasPrefix(o, "node ") && strings.HasSuffix(o, "/"+name):
			return true
		}
	}
	return false
}
