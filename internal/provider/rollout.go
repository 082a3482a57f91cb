package provider

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
)

// A roll takes WAS servers through one operation (a restart, or a redeploy of one
// application) a batch at a time, because the manager has no rolling operation of its
// own. Before a server goes out of service it is drained: taken out of the workers of
// every web server that forwards to it, its place and settings remembered; once it is
// healthy again (running, and every application on it running) it is put back where it
// stood. So no web server forwards a request to a server that is not serving, and at
// most batchSize servers are out of service at once.
//
// A server that does not become healthy within healthyTimeout stops the roll: it stays
// out of its load balancers (it does not serve), the servers of its batch that did
// become healthy, or were not reached, are put back, and later batches are not touched.

// roll is one rolling operation, as an action's or an apm_was_rollout's arguments say.
type roll struct {
	servers        []apm.ServerRef // in order
	batchSize      int
	drain          bool
	healthyTimeout time.Duration
	pause          time.Duration
	op             rollOperation
	progress       engine.Progress
	// fingerprint is of what the roll does to each server, memory keeps its journal.
	fingerprint string
	memory      rollMemory
	// skipped are the servers the last run finished, and carried the seats of the server
	// it left out of its load balancers (carryOn).
	skipped []apm.ServerRef
	carried map[apm.ServerRef][]seat
}

// rollOperation is what a roll does to each server while it is out of service: down
// takes it out (a stop), up brings it back (a start), and the roll then waits until the
// server is healthy; up and that wait share healthy_timeout.
type rollOperation struct {
	done string // "restarted", in the roll's outcome
	down func(ctx context.Context, c *conn, ref apm.ServerRef, progress engine.Progress) error
	up   func(ctx context.Context, c *conn, ref apm.ServerRef, progress engine.Progress) error
}

// rollRestart stops each server and starts it again.
var rollRestart = rollOperation{
	done: "restarted",
	down: func(ctx context.Context, c *conn, ref apm.ServerRef, progress engine.Progress) error {
		return c.converge(ctx, ref, stateStopped, false, progress)
	},
	up: func(ctx context.Context, c *conn, ref apm.ServerRef, progress engine.Progress) error {
		return c.converge(ctx, ref, stateRunning, false, progress)
	},
}

// rollRedeploy undeploys the application d.ContextPath from each server (when it is
// deployed there) and deploys d again.
func rollRedeploy(d apm.Deployment) rollOperation {
	return rollOperation{
		done: fmt.Sprintf("redeployed %q on", d.ContextPath),
		down: func(ctx context.Context, c *conn, ref apm.ServerRef, progress engine.Progress) error {
			return undeployIfDeployed(ctx, c, ref, d.ContextPath, progress)
		},
		up: func(ctx context.Context, c *conn, ref apm.ServerRef, progress engine.Progress) error {
			progress.Say("Deploying %s at %q on %s.", d.SourcePath, d.ContextPath, serverNamed(ref))
			return c.DeployApplication(ctx, ref, d)
		},
	}
}

// run carries the roll out and says what it did: "restarted 4 WAS servers in 2 batches".
// It carries on where the last run of the same roll stopped, as its memory says, and
// leaves there where it stops in turn.
func (c *conn) run(ctx context.Context, r roll) (string, error) {
	webs, err := r.webServers(ctx, c)
	if err != nil {
		return "", err
	}
	if r, err = r.carryOn(); err != nil {
		return "", err
	}
	all := len(r.servers) + len(r.skipped)
	batches := slices.Collect(slices.Chunk(r.servers, r.batchSize))
	for i, batch := range batches {
		var failure rollFailure
		if i > 0 && r.pause > 0 {
			r.progress.Say("Pausing %s before the next batch.", engine.FormatDuration(r.pause))
			err = apm.Sleep(ctx, r.pause)
		}
		if err == nil {
			r.progress.Say("Batch %d of %d: %s.", i+1, len(batches), rolledIDs(batch))
			failure, err = r.settleOthers(ctx, c, batch)
		}
		if err == nil {
			failure, err = r.batch(ctx, c, webs, batch)
		}
		if err != nil {
			// The run's own end (its bound, or an interrupt) rather than the server's.
			failure.cut = apm.Ended(ctx)
			return "", r.stop(i, batches, failure, err)
		}
	}
	if err := r.memory.forget(); err != nil {
		r.progress.Say("The roll finished, but %v.", err)
	}
	return fmt.Sprintf("%s %d WAS servers in %d batches of at most %d: %s", r.op.done, all, len(batches), r.batchSize, rolledIDs(slices.Concat(r.skipped, r.servers))), nil
}

// carryOn orders the roll to carry on where the last run stopped, when it stopped.
func (r roll) carryOn() (roll, error) {
	j, err := r.memory.recall()
	if err != nil {
		return r, err
	}
	r.servers, r.skipped, r.carried = r.resume(j)
	if j != nil && j.Failed != nil && len(r.carried) > 0 {
		r.progress.Say("Carrying on the roll that stopped at %s: it goes first, and is put back into %s once healthy.", serverNamed(*j.Failed), seatsNamed(r.carried[*j.Failed]))
	}
	if len(r.skipped) > 0 {
		r.progress.Say("Left as the last run did them: %s.", rolledIDs(r.skipped))
	}
	return r, nil
}

// rollFailure is where a roll stopped: the server that failed, the last state it was
// seen in, the seats it was taken out of, and, when the run itself ended (its time ran
// out, or it was interrupted) rather than the server failing, why.
type rollFailure struct {
	server *apm.ServerRef
	last   string
	seats  []seat
	cut    error
}

// stop writes down where the roll stopped in batch i, for the next run, and returns
// the error that says so.
func (r roll) stop(i int, batches [][]apm.ServerRef, f rollFailure, cause error) error {
	done := slices.Concat(r.skipped, slices.Concat(batches[:i]...))
	if f.server != nil {
		done = append(done, batches[i][:max(0, slices.Index(batches[i], *f.server))]...)
	}
	err := r.stopped(i, batches, done, f, cause)
	if keepErr := r.memory.keep(r.journalOf(done, f)); keepErr != nil {
		return errors.Join(err, keepErr)
	}
	return err
}

// batch takes the servers out of service, operates on each, waits until each is
// healthy and puts them back. On failure it names the server that failed, the last
// state it was seen in and its seats, and puts back every other server of the batch.
func (r roll) batch(ctx context.Context, c *conn, webs []apm.ServerRef, batch []apm.ServerRef) (rollFailure, error) {
	held := map[apm.ServerRef][]seat{}
	defer func() {
		// Whatever happens, the servers still held are put back, even once ctx is done:
		// a server left out of its load balancers by an interrupt would serve nobody.
		restoreCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
		defer cancel()
		for _, ref := range slices.Backward(batch) {
			if seats, ok := held[ref]; ok {
				_ = r.putBack(restoreCtx, c, ref, seats)
			}
		}
	}()
	for _, ref := range batch {
		// A server that the last run left out goes back where it stood then.
		seats, err := r.takeOut(ctx, c, webs, ref)
		held[ref] = append(seats, r.carried[ref]...)
		if err != nil {
			return rollFailure{server: &ref}, err
		}
	}
	for _, ref := range batch {
		if last, err := r.cycle(ctx, c, ref); err != nil {
			seats := held[ref]
			delete(held, ref)
			return rollFailure{server: &ref, last: last, seats: seats}, err
		}
	}
	// In the reverse order of the drain: each seat's position was taken in the list that
	// the servers drained before it had left, so it is right once they are back.
	for _, ref := range slices.Backward(batch) {
		if err := r.putBack(ctx, c, ref, held[ref]); err != nil {
			return rollFailure{server: &ref}, err
		}
		delete(held, ref)
	}
	return rollFailure{}, nil
}

// settleOthers waits, within healthy_timeout each, until every server of the roll outside
// batch that is running or starting is healthy, so that taking the batch out never puts
// more than batchSize servers out of service (one that an apply has just started, say,
// whose applications still deploy). A stopped server is left for its own batch.
func (r roll) settleOthers(ctx context.Context, c *conn, batch []apm.ServerRef) (rollFailure, error) {
	for _, ref := range slices.Concat(r.skipped, r.servers) {
		if slices.Contains(batch, ref) {
			continue
		}
		srv, err := c.GetServer(ctx, ref)
		if err != nil {
			return rollFailure{server: &ref}, err
		}
		if status := strings.ToLower(srv.Status); status == stateStopped || status == "stopping" {
			continue
		}
		waitCtx, cancel := context.WithTimeout(ctx, r.healthyTimeout)
		last, err := r.waitHealthy(waitCtx, c, ref, true)
		cancel()
		if err != nil {
			return rollFailure{server: &ref, last: last}, err
		}
	}
	return rollFailure{}, nil
}

// webServers lists the web servers whose workers a drain reads, once per roll; none
// when the roll does not drain.
func (r roll) webServers(ctx context.Context, c *conn) ([]apm.ServerRef, error) {
	if !r.drain {
		return nil, nil
	}
	webs, err := c.ListServers(ctx, apm.KindWeb)
	if err != nil {
		return nil, fmt.Errorf("listing the web servers that may forward to the roll's WAS servers: %w", err)
	}
	out := make([]apm.ServerRef, 0, len(webs))
	for _, w := range webs {
		out = append(out, apm.ServerRef{Kind: apm.KindWeb, ServerID: w.ServerID, NodeName: w.NodeName, SystemName: w.SystemName})
	}
	return out, nil
}

// takeOut drains ref from every web server that forwards to it and returns its seats.
func (r roll) takeOut(ctx context.Context, c *conn, webs []apm.ServerRef, ref apm.ServerRef) ([]seat, error) {
	var seats []seat
	for _, web := range webs {
		s, err := c.takeOutOf(ctx, ref, web)
		if err != nil {
			return seats, err
		}
		if s != nil {
			seats = append(seats, *s)
		}
	}
	if r.drain {
		r.progress.Say("Drained %s: taken out of %s.", serverNamed(ref), seatsNamed(seats))
	}
	return seats, nil
}

// putBack puts ref back into the workers it was taken out of, where it stood.
func (r roll) putBack(ctx context.Context, c *conn, ref apm.ServerRef, seats []seat) error {
	for _, s := range seats {
		if err := c.rejoinLoadBalancer(ctx, ref, s); err != nil {
			return err
		}
	}
	if len(seats) > 0 {
		r.progress.Say("Put %s back into %s.", serverNamed(ref), seatsNamed(seats))
	}
	return nil
}

// cycle takes ref down and brings it back, then waits until it is healthy; bringing it
// back and the wait share healthyTimeout. It returns the last state seen, for the
// error of a roll it stops.
func (r roll) cycle(ctx context.Context, c *conn, ref apm.ServerRef) (string, error) {
	if err := r.op.down(ctx, c, ref, r.progress); err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(ctx, r.healthyTimeout)
	defer cancel()
	if err := r.op.up(ctx, c, ref, r.progress); err != nil {
		var timedOut *apm.TimeoutError
		var failed *transitionFailed
		switch {
		case errors.As(err, &timedOut):
			return timedOut.LastState, err
		case errors.As(err, &failed):
			return failed.status, err
		}
		return "", err
	}
	return r.waitHealthy(ctx, c, ref, false)
}

// waitHealthy waits until ref runs and so does every application on it, and returns
// the last state seen; quiet says nothing when it is healthy at the first look.
func (r roll) waitHealthy(ctx context.Context, c *conn, ref apm.ServerRef, quiet bool) (string, error) {
	looks := 0
	w := watch{progress: r.progress, what: serverNamed(ref), start: time.Now()}
	last := ""
	_, err := apm.Poll[string]{
		What:    w.what,
		Pending: []string{"not healthy"},
		Target:  []string{"healthy"},
		Refresh: func(ctx context.Context) (string, string, error) {
			looks++
			srv, err := c.GetServer(ctx, ref)
			if err != nil {
				return "", "", err
			}
			last = strings.ToLower(srv.Status)
			if !strings.EqualFold(srv.Status, stateRunning) {
				w.saw(last)
				return last, "not healthy", nil
			}
			apps, err := c.ApplicationStatuses(ctx, ref)
			if err != nil {
				return "", "", err
			}
			last = applicationStates(apps)
			if !quiet || looks > 1 || slices.ContainsFunc(apps, func(a apm.ApplicationStatus) bool { return !strings.EqualFold(a.Status, stateRunning) }) {
				w.saw(last)
			}
			if slices.ContainsFunc(apps, func(a apm.ApplicationStatus) bool { return !strings.EqualFold(a.Status, stateRunning) }) {
				return last, "not healthy", nil
			}
			return last, "healthy", nil
		},
	}.Wait(ctx)
	if err == nil && (!quiet || looks > 1) {
		r.progress.Say("%s is healthy: %s.", serverNamed(ref), last)
	}
	return last, err
}

// applicationStates is "running, applications "/shop" running and "/api" deploying".
func applicationStates(apps []apm.ApplicationStatus) string {
	if len(apps) == 0 {
		return "running, no applications"
	}
	parts := make([]string, len(apps))
	for i, a := range apps {
		parts[i] = fmt.Sprintf("%q %s", a.ContextPath, strings.ToLower(a.Status))
	}
	return "running, applications " + strings.Join(parts, ", ")
}

// stopped is the error of a roll that stopped in batch i: what failed, what was done
// and what was not, and what to do.
func (r roll) stopped(i int, batches [][]apm.ServerRef, done []apm.ServerRef, f rollFailure, cause error) error {
	failed, last := f.server, f.last
	var b strings.Builder
	var timedOut *apm.TimeoutError
	var transition *transitionFailed
	cut := failed != nil && f.cut != nil
	healthTimeout := failed != nil && !cut && errors.As(cause, &timedOut)
	startFailed := failed != nil && errors.As(cause, &transition)
	switch {
	case failed == nil:
		fmt.Fprintf(&b, "The roll stopped before batch %d of %d: %v.", i+1, len(batches), cause)
	case cut && errors.Is(f.cut, context.DeadlineExceeded):
		fmt.Fprintf(&b, "%s was not healthy yet when the run's time ran out; last seen: %s.", serverNamed(*failed), last)
	case cut:
		fmt.Fprintf(&b, "%s was not healthy yet when the run was interrupted; last seen: %s.", serverNamed(*failed), last)
	case healthTimeout:
		fmt.Fprintf(&b, "%s did not become healthy within healthy_timeout (%s); last seen: %s.", serverNamed(*failed), engine.FormatDuration(r.healthyTimeout), last)
	case startFailed:
		fmt.Fprintf(&b, "%s did not become healthy: its %s failed (it was %s, then %s again).", serverNamed(*failed), transition.verb, transition.moved, last)
	default:
		fmt.Fprintf(&b, "%s failed in batch %d of %d: %v.", serverNamed(*failed), i+1, len(batches), cause)
	}
	if failed != nil {
		b.WriteString(" It is left out of its load balancers, so that it serves no request.")
	}
	if len(done) > 0 {
		fmt.Fprintf(&b, " Done: %s %s, serving again.", r.op.done, rolledIDs(done))
	}
	if rest := notDone(slices.Concat(r.skipped, r.servers), done, failed); len(rest) > 0 {
		fmt.Fprintf(&b, " Not done: %s, serving as before.", rolledIDs(rest))
	}
	carryOn := "the roll carries on where it stopped, with that server first, which goes back into its load balancers once healthy."
	if cut {
		// Nothing to find out: the server was on its way back.
		b.WriteString(" Apply again: " + carryOn)
	} else {
		b.WriteString(" Find out why the server does not come back (its logs on its node), then apply again: " + carryOn)
	}
	stop := &rollStopped{message: b.String(), cause: cause}
	if healthTimeout || startFailed {
		// The message says all: the roll's own wait ran out (not the operation's timeout,
		// whose advice would not fit), or the server failed in a way it names.
		stop.cause = nil
	}
	return stop
}

// rollStopped is the error of a roll that stopped: its message says all, and its
// cause, when it has one that advice fits (a refusal, a lost answer), is wrapped.
type rollStopped struct {
	message string
	cause   error
}

func (e *rollStopped) Error() string { return e.message }
func (e *rollStopped) Unwrap() error { return e.cause }

// notDone is servers less done and failed, in order.
func notDone(servers, done []apm.ServerRef, failed *apm.ServerRef) []apm.ServerRef {
	return slices.DeleteFunc(slices.Clone(servers), func(ref apm.ServerRef) bool {
		return slices.Contains(done, ref) || failed != nil && ref == *failed
	})
}

// rolledIDs is `"was-1", "was-2"`.
func rolledIDs(refs []apm.ServerRef) string {
	parts := make([]string, len(refs))
	for i, ref := range refs {
		parts[i] = fmt.Sprintf("%q", ref.ServerID)
	}
	return strings.Join(parts, ", ")
}

// seatsNamed is `web server "web-1" on node "web-01", web server "web-2" on node "web-01"`.
func seatsNamed(seats []seat) string {
	if len(seats) == 0 {
		return "no web server (none forwards to it)"
	}
	parts := make([]string, len(seats))
	for i, s := range seats {
		parts[i] = fmt.Sprintf("web server %q on node %q", s.web.ServerID, s.web.NodeName)
	}
	return strings.Join(parts, ", ")
}
