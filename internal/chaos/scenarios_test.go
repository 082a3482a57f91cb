//go:build chaos

package chaos

import (
	"slices"
	"strings"
	"testing"
)

const (
	// maxFaultRuns bounds the applies (and the destroys) under faults: each run retries
	// what the last one left, so runs converge unless failures stick (an object created
	// whose answer was lost, then a 409 forever). Most runs converge at once; a run fails
	// when a request meets a fault on all five attempts (the default max_retries), or a
	// start or stop loses its answer three times, up to one run in three at these rates,
	// so ten runs make a false failure about one in 50,000.
	maxFaultRuns = 10
	// signalAt is the object count at which an apply is interrupted amid its nodes: a
	// quarter of the way in, with about ten creates in flight, so that the signal lands
	// mid-apply.
	signalAt = 40
	// signalAtServers is the server count at which an apply is interrupted amid its
	// servers: the CLI starts them once nearly all nodes are made, so at 40 objects there
	// is none yet; at 5 others are being installed, and WAS servers started.
	signalAtServers = 5
	// minFaults is the fewest faults the applies of a faults scenario must meet: the rules
	// fire on about 130 of the 600 or so requests of even a run that converges at once.
	minFaults = 20
	// minDestroyFaults is the fewest faults its destroys must meet: the rules fire on about
	// 60 of the 250 or so requests to servers and their parts of a destroy that succeeds
	// at once.
	minDestroyFaults = 10
	// minDayTwoFaults is the fewest faults a day-two change must meet: its apply reads
	// every object first, and the rules fire on about 75 of the 330 or so requests of a
	// change that succeeds at once.
	minDayTwoFaults = 20
)

// Baseline: the fleet applies in one run with no faults, and the harness's census and plan
// find it clean; one destroy then leaves nothing. When this fails the harness or the
// provider is broken outright, and the other scenarios' failures say nothing about faults.
func TestChaosBaseline(t *testing.T) {
	sc := newScenario(t, "baseline")
	r := sc.apply()
	c := sc.measure()
	if r.exit != 0 {
		t.Errorf("apply without faults exited %d, want 0", r.exit)
	}
	sc.expectConverged(c)
	if r := sc.destroy(); r.exit != 0 {
		t.Errorf("destroy without faults exited %d, want 0", r.exit)
	}
	sc.expectDestroyed()
}

// Faults: 5xx and resets on a quarter of the requests, half of them after the manager made
// the change. Repeated applies must converge, with every object created exactly once and
// in the state, every server on its node with its port, running where it should, and
// every part as declared. Then day two, under the same rates (dayTwo). Repeated destroys,
// with the servers' requests under the same rates, must then leave nothing: no server
// stopped but still installed, no part, node or system left behind.
func TestChaosFaults(t *testing.T) {
	sc := newScenario(t, "faults")
	sc.sim.setFaults(t, faultRules)
	converged := sc.applyUntilSuccess(maxFaultRuns)
	sc.expectFaultsFired(minFaults)
	c := sc.measure()
	if !converged {
		t.Errorf("no apply exited 0 within %d runs under faults", maxFaultRuns)
	}
	sc.expectConverged(c)
	if t.Failed() {
		return // day two, or a destroy, of a fleet that did not converge would prove nothing
	}
	sc.dayTwo()
	if t.Failed() {
		return
	}
	// Without a refresh: the plan has just read the fleet, and the destroys' own reads (a
	// server's status before its stop, the polls through "stopping") meet the faults.
	sc.sim.setFaults(t, destroyFaults)
	destroyed := sc.destroyUntilSuccess(maxFaultRuns, "-refresh=false")
	sc.expectFaultsFired(minDestroyFaults)
	if !destroyed {
		t.Errorf("no destroy exited 0 within %d runs under faults", maxFaultRuns)
	}
	sc.expectDestroyed()
}

// dayTwo makes two changes to a converged fleet, each applied under faults (again until
// an apply succeeds): a scale-in that removes each topology's second WAS server together
// with its worker entry and its parts, then a replacement of each topology's first WAS
// server, which its web server balances to (server_type Standard, then Enterprise). The
// provider takes a WAS server out of its load balancers before deleting it, and puts the
// one created in its place back. After each change the census must find every object
// once, in the state, the parts as declared (the workers: the remaining WAS server, the
// replaced one included), every server running, and the plan empty. Each change prints
// its own line ("faults/scale-in").
func (sc *scenario) dayTwo() {
	sc.t.Helper()
	for _, change := range []struct {
		name   string
		fleet  fleet
		faults []string
	}{
		{"scale-in", scaledInFleet, scaleInFaults},
		{"replace", replacedFleet, replaceFaults},
	} {
		sc.reconfigure(change.fleet)
		sc.sim.setFaults(sc.t, change.faults)
		converged := sc.applyUntilSuccess(maxFaultRuns)
		sc.expectFaultsFired(minDayTwoFaults)
		c := sc.measure()
		if !converged {
			sc.t.Errorf("%s: no apply exited 0 within %d runs under faults", change.name, maxFaultRuns)
		}
		sc.expectConverged(c)
		sc.report(sc.name + "/" + change.name)
		if sc.t.Failed() {
			return // the next change would start from a fleet that did not converge
		}
	}
}

// SIGINT: Ctrl-C mid-apply, amid the servers' installs and starts, reaches the CLI and the
// provider. The CLI stops gracefully; the next apply, without faults, must finish the job
// without orphans or duplicates, every WAS server running.
func TestChaosInterrupt(t *testing.T) {
	sc := newScenario(t, "sigint")
	in := sc.interruptedApply(atServers(signalAtServers), interrupt)
	t.Logf("SIGINT at %s in apmsim; %s once the CLI exited", in.atSignal.summary(), in.afterExit.summary())
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

// SIGKILL with adoption: the CLI dies amid the servers' installs and starts, without saving
// the objects created since its last state snapshot. With adopt_existing the next apply
// takes them over instead of failing, and starts the WAS servers the kill left stopped or
// starting.
func TestChaosKillAdopt(t *testing.T) {
	sc := newScenario(t, "sigkill-adopt")
	before := sc.killMidApply(atServers(signalAtServers))
	if !slices.ContainsFunc(before.orphans, func(o string) bool { return strings.Contains(o, " server ") }) {
		t.Fatalf("harness: no server among the orphans of the kill; there is no server to adopt")
	}
	r := sc.apply(envAdoptExisting)
	c := sc.measure()
	if r.exit != 0 {
		t.Errorf("the apply with %s after the kill exited %d, want 0", envAdoptExisting, r.exit)
	}
	sc.expectConverged(c)
}

// SIGKILL without adoption: the next apply must refuse to take over the unrecorded objects:
// its plan finds them (or, where that look-up failed, a 409 does) with a message that gives
// the import command, and no second copy of anything. The kill comes amid the nodes: the
// refusals are the systems', databases', users' and roles' (their dependants are not
// tried), so a later kill would prove nothing more.
func TestChaosKillNoAdopt(t *testing.T) {
	sc := newScenario(t, "sigkill-no-adopt")
	before := sc.killMidApply(atObjects(signalAt))
	r := sc.apply()
	c := sc.measure()
	if r.exit == 0 {
		t.Errorf("the apply without adoption exited 0 over %d orphans; want it to refuse them", len(before.orphans))
	}
	ids := importIDs(conflicts(diagnostics(r.output)))
	t.Logf("import IDs offered: %s", head(ids, 6))
	if len(ids) == 0 {
		t.Errorf("no diagnostic of an existing object offers `terraform import apm_...`")
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

// killMidApply kills the CLI mid-apply at at and checks that the kill left objects out of
// the state: without such orphans the scenario after it would prove nothing.
func (sc *scenario) killMidApply(at signalPoint) census {
	sc.t.Helper()
	in := sc.interruptedApply(at, killCLI)
	sc.t.Logf("SIGKILL at %s in apmsim; %s once the CLI and its provider were gone", in.atSignal.summary(), in.afterExit.summary())
	c := sc.census()
	if len(c.orphans) == 0 {
		sc.t.Fatalf("harness: the state holds every object after the kill; there is nothing to recover")
	}
	return c
}

// expectFaultsFired logs how often each fault rule fired, to read the runs' errors against,
// and fails the test when the faults cannot have been met: a rule with times=N that never
// fired (its path matches none of the provider's requests), or fewer than least faults.
func (sc *scenario) expectFaultsFired(least int64) {
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
	if total < least {
		sc.t.Errorf("only %d faults fired, want at least %d: the scenario met too few to prove anything", total, least)
	}
}

// conflicts are the diagnostics of objects that exist already: plan's, whose look-up found
// the object, and those of 409 answers (a create whose look-up at plan failed).
func conflicts(blocks []string) []string {
	var out []string
	for _, b := range blocks {
		if flat := strings.Join(strings.Fields(b), " "); strings.Contains(flat, "409 CONFLICT") || strings.Contains(flat, "The manager already has") {
			out = append(out, b)
		}
	}
	return out
}

// namedObjects are the resource types whose import ID is the object's name, and the word
// the census describes such an object with.
var namedObjects = map[string]string{"apm_database": "database", "apm_datasource": "datasource", "apm_user": "user", "apm_role": "role"}

// namesOrphan reports whether an import ID ("apm_node SYS-0001/s1-n1", "apm_system
// chaos-s1", "apm_was_server SYS-0001/s1-n1/was-1", "apm_user chaos-s1") names one of the
// orphans (as census describes them) by its name: a node by its name, a server by its
// node's and its own.
func namesOrphan(orphans []string, typeAndID string) bool {
	typ, id, _ := strings.Cut(typeAndID, " ")
	name := id[strings.LastIndexByte(id, '/')+1:]
	server, isServer := serverTypes[typ]
	word, isNamed := namedObjects[typ]
	for _, o := range orphans {
		switch {
		case isNamed && o == word+" "+id,
			typ == "apm_system" && strings.HasPrefix(o, "system "+name+" "),
			typ == "apm_node" && strings.HasPrefix(o, "node ") && strings.HasSuffix(o, "/"+name):
			return true
		case isServer && strings.Count(id, "/") == 2:
			node := id[strings.IndexByte(id, '/'):] // "/<node>/<server_id>"
			if strings.HasPrefix(o, string(server.kind)+" server ") && strings.HasSuffix(o, node) {
				return true
			}
		}
	}
	return false
}
