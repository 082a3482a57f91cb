//go:build chaos

package chaos

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	tfjson "github.com/hashicorp/terraform-json"
)

// outageLength is how long the manager stays down: the lower bound of 20 s, more
// than twice the client's longest retries (four, waiting at most 0.5 + 1 + 2 + 4 s), so
// that every request sent in it fails for good, the creates' look-ups after a lost answer
// included. A longer outage adds only wall time.
const outageLength = 20 * time.Second

// outagePlanFile is the plan made after the outage, which the next apply applies.
const outagePlanFile = "after-outage.tfplan"

// outage is how the apply went in which the manager went down.
type outage struct {
	atDown        managerView   // apmsim when it went down
	downAt        time.Duration // since the apply started
	downFor       time.Duration
	cut           int // the connections cut
	run           procResult
	recovered     int      // creates whose answer the outage cut, found and recorded once the manager was back
	lostWaits     int      // waits after a create (a server's start) that the outage ended, recorded untainted
	tainted, held []string // the resources tainted after the apply, and those of them the manager has
	plan          planCounts
	after         managerView // apmsim once the apply ended and it stood still
}

// Outage: the manager goes down for outageLength in the middle of an apply of the whole
// fleet, amid the servers' installs and starts (creates and waits in flight, their
// connections cut), and comes back with its state. The apply may fail or succeed; either
// way nothing the manager has is tainted, orphaned or there twice, the next plan replaces
// and deletes nothing, it applies at once, and the plan after it is empty.
func TestChaosOutage(t *testing.T) {
	var fr *front
	sc := newScenario(t, "outage", func(s *simEnv) { fr = s.putFront(t) })
	o := sc.applyThroughOutage(fr, atServers(signalAtServers))
	c := sc.census()
	if len(c.orphans) > 0 || len(c.duplicates) > 0 {
		t.Errorf("after the outage: %d orphans (%s), %d duplicates (%s)", len(c.orphans), head(c.orphans, 8), len(c.duplicates), head(c.duplicates, 8))
	}
	s, err := readState(sc.ws.statePath())
	if err != nil {
		t.Fatalf("harness: %v", err)
	}
	o.tainted, o.held = s.tainted, taintedHeld(o.after, s)
	if len(o.held) > 0 {
		t.Errorf("%d resources tainted whose object the manager has: %s", len(o.held), head(o.held, 8))
	}
	o.plan = sc.savedPlan()
	sc.reportOutage(o)
	if o.plan.replacements > 0 || o.plan.deletes > 0 {
		t.Errorf("the plan after the outage replaces %d and deletes %d objects, want none: %s",
			o.plan.replacements, o.plan.deletes, head(o.plan.destroys, 8))
	}
	sc.fig.runs++
	r := sc.ws.run(nil, append(slices.Clone(applyArgs), outagePlanFile)...)
	sc.logRun(fmt.Sprintf("apply %d (the plan after the outage)", sc.fig.runs), r)
	c = sc.measure()
	if r.exit != 0 {
		t.Errorf("the apply after the outage exited %d, want 0", r.exit)
	}
	sc.expectConverged(c)
}

// applyThroughOutage starts an apply with at's slow writes, takes the manager down once
// apmsim reaches at, brings it back outageLength later, and waits for the apply's end and
// for apmsim to stand still. Every error of the apply must be the outage's.
func (sc *scenario) applyThroughOutage(fr *front, at signalPoint) outage {
	sc.t.Helper()
	sc.sim.setFaults(sc.t, at.slow)
	sc.fig.runs = max(sc.fig.runs, 0) + 1
	p := sc.ws.start(nil, applyArgs...)
	var o outage
	o.atDown = sc.waitFor(p, at)
	o.downAt, o.cut = time.Since(p.started), fr.down()
	down := time.Now()
	sc.t.Logf("the manager went down %.1fs into the apply, at %s in apmsim; %d connections cut", o.downAt.Seconds(), o.atDown.summary(), o.cut)
	if o.cut == 0 {
		sc.t.Errorf("harness: the outage cut no connection; no request was in flight")
	}
	time.Sleep(outageLength)
	sc.sim.faultsOff(sc.t) // back at full speed
	if err := fr.up(); err != nil {
		sc.t.Fatalf("harness: bringing the manager back: %v", err)
	}
	o.downFor = time.Since(down)
	o.run = sc.ws.finish(p)
	sc.logRun(fmt.Sprintf("apply %d (the manager down for %.1fs from %.1fs)", sc.fig.runs, o.downFor.Seconds(), o.downAt.Seconds()), o.run)
	o.recovered = warnings(o.run.output, "Recovered the create of ")
	o.lostWaits = warnings(o.run.output, "Lost the manager while waiting for ")
	for _, e := range diagnostics(o.run.output) {
		if !outageCaused(e) {
			sc.t.Errorf("the apply through the outage failed for another reason than the outage:\n%s", firstLines(e, 12))
		}
	}
	o.after = sc.settle()
	return o
}

// warnings counts the warnings of a run whose summary starts with prefix.
func warnings(out, prefix string) int {
	n := 0
	for line := range strings.SplitSeq(unbox(out), "\n") {
		if strings.HasPrefix(line, "Warning: "+prefix) {
			n++
		}
	}
	return n
}

// outageCaused reports whether a diagnostic is the failure of a request that met the
// outage: refused, or its connection cut.
func outageCaused(block string) bool {
	return faultCaused(block) || strings.Contains(strings.Join(strings.Fields(block), " "), "connection refused")
}

// planCounts is what a plan does to the resources; destroys lists the addresses of those
// it replaces or deletes.
type planCounts struct {
	creates, updates, replacements, deletes int
	destroys                                []string
}

// savedPlan plans into outagePlanFile and counts what the plan does.
func (sc *scenario) savedPlan() planCounts {
	sc.t.Helper()
	plan := sc.ws.run(nil, "plan", "-input=false", "-no-color", "-parallelism=10", "-out="+outagePlanFile)
	sc.logRun("plan -out", plan)
	if plan.exit != 0 {
		sc.t.Fatalf("the plan after the outage exited %d, want 0", plan.exit)
	}
	show := sc.ws.run(nil, "show", "-json", "-no-color", outagePlanFile)
	var p tfjson.Plan
	// The CLI may warn before the JSON (a development override of the provider).
	if err := json.Unmarshal([]byte(show.output[max(strings.Index(show.output, "{"), 0):]), &p); show.exit != 0 || err != nil {
		sc.t.Fatalf("harness: show -json of the plan (%s): %v\n%s", ended(show), err, tail(show.output, 10))
	}
	return countPlan(&p)
}

// countPlan counts a plan's changes by action.
func countPlan(p *tfjson.Plan) planCounts {
	var c planCounts
	for _, rc := range p.ResourceChanges {
		a := rc.Change.Actions
		switch {
		case a.Replace():
			c.replacements++
			c.destroys = append(c.destroys, rc.Address+" replaced")
		case a.Create():
			c.creates++
		case a.Update():
			c.updates++
		case a.Delete():
			c.deletes++
			c.destroys = append(c.destroys, rc.Address+" deleted")
		}
	}
	return c
}

// reportOutage prints the outage's figures, like report the scenario's: when the manager
// went down (since the apply started), for how long, how many connections it cut, how the
// apply ended, how many of its creates and waits met the outage and were recorded all the
// same, how many resources it left tainted (of them, held by the manager), and what the
// next plan plans.
func (sc *scenario) reportOutage(o outage) {
	line := fmt.Sprintf("chaos %-16s down_at=%.1fs down_for=%.1fs cut=%d apply=%s recovered=%d lost_waits=%d tainted=%d held_tainted=%d "+
		"plan: creates=%d updates=%d replacements=%d deletes=%d",
		sc.name+"/down", o.downAt.Seconds(), o.downFor.Seconds(), o.cut, strings.ReplaceAll(ended(o.run), " ", "_"), o.recovered, o.lostWaits,
		len(o.tainted), len(o.held), o.plan.creates, o.plan.updates, o.plan.replacements, o.plan.deletes)
	sc.t.Log(line)
	fmt.Println(line)
}
