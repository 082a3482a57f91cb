package provider

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
)

// converge brings a server to the running state want, waiting through the transitional
// states. It acts on what it reads, so that a server already there costs one GET. progress
// hears what it finds and does (nil for resources; the day-two actions pass Terraform's).
func (c *conn) converge(ctx context.Context, ref apm.ServerRef, want string, force bool, progress engine.Progress) error {
	what := serverNamed(ref)
	for attempt := 0; ; attempt++ {
		srv, err := c.GetServer(ctx, ref)
		if err != nil {
			return err
		}
		switch status := strings.ToLower(srv.Status); status {
		case want:
			if attempt == 0 {
				progress.Say("%s is already %s: nothing to do.", what, want)
			}
			return nil
		case "starting", "stopping":
			// Someone else's start or stop is under way: let it finish, then decide.
			progress.Say("%s is %s: waiting for that to finish first.", what, status)
			if _, err := c.waitServer(ctx, ref, []string{"starting", "stopping"}, []string{stateRunning, stateStopped}, progress); err != nil {
				return err
			}
			continue
		}
		act := c.move(ctx, ref, want, force, progress)
		if (apm.IsActionFailed(act) || apm.OutcomeUnknown(act)) && attempt < 2 {
			// The state changed under us ("already running", "is stopping"), or the answer
			// was lost and the action may have been carried out: look again, and act on what
			// the manager says.
			continue
		}
		if act != nil {
			return act
		}
		// A manager may report the former state for a moment after accepting the action.
		pending := []string{"starting", stateStopped}
		if want == stateStopped {
			pending = []string{"stopping", stateRunning}
		}
		_, err = c.waitServer(ctx, ref, pending, []string{want}, progress)
		return err
	}
}

// move sends the start or stop that leads to want.
func (c *conn) move(ctx context.Context, ref apm.ServerRef, want string, force bool, progress engine.Progress) error {
	if want == stateRunning {
		progress.Say("Starting %s.", serverNamed(ref))
		return c.StartServer(ctx, ref)
	}
	force = force && ref.Kind == apm.KindWAS
	if force {
		progress.Say("Stopping %s at once (force), without waiting for requests in progress.", serverNamed(ref))
	} else {
		progress.Say("Stopping %s.", serverNamed(ref))
	}
	return c.StopServer(ctx, ref, force)
}

// waitServer polls the server's detail until its status is a target, telling progress
// each status it sees and, while one lasts, every progressEvery.
func (c *conn) waitServer(ctx context.Context, ref apm.ServerRef, pending, target []string, progress engine.Progress) (*apm.Server, error) {
	w := watch{progress: progress, what: serverNamed(ref), start: time.Now()}
	var moved string // the transitional state seen on the way to a single target
	return apm.Poll[*apm.Server]{
		What: w.what, Pending: pending, Target: target,
		Refresh: func(ctx context.Context) (*apm.Server, string, error) {
			s, err := c.GetServer(ctx, ref)
			if err != nil {
				return nil, "", err
			}
			w.saw(s.Status)
			status := strings.ToLower(s.Status)
			if len(target) == 1 && status == transitionTo[target[0]] {
				moved = status
			}
			if moved != "" && status == transitionFrom[target[0]] {
				// Before the transition, the former state is the manager being slow to
				// show the action; after it, the action failed: waiting cannot help.
				return nil, "", &transitionFailed{what: w.what, moved: moved, status: status, verb: transitionVerb[target[0]]}
			}
			return s, s.Status, nil
		},
	}.Wait(ctx)
}

// transitionFailed is a start or stop that the manager reports failed: the server went
// through the transition and came back to where it was.
type transitionFailed struct{ what, moved, status, verb string }

func (e *transitionFailed) Error() string {
	return fmt.Sprintf("%s was %s and is %s again: its %s failed. Check the server on its node (its logs), then apply again", e.what, e.moved, e.status, e.verb)
}

// transitionTo is the state a server passes through on its way to a state;
// transitionFrom is where it comes from, and transitionVerb what takes it there.
var (
	transitionTo   = map[string]string{stateRunning: "starting", stateStopped: "stopping"}
	transitionFrom = map[string]string{stateRunning: stateStopped, stateStopped: stateRunning}
	transitionVerb = map[string]string{stateRunning: "start", stateStopped: "stop"}
)

// progressEvery is how often a wait says that the state it sees lasts: often enough that
// a long start does not look hung, seldom enough not to flood the CLI.
const progressEvery = 30 * time.Second

// watch tells progress what a wait sees.
type watch struct {
	progress engine.Progress
	what     string
	start    time.Time
	last     string
	said     time.Time
}

// saw reports a look that found state: when it changed, or when the same one has lasted
// progressEvery since it was last said.
func (w *watch) saw(state string) {
	now := time.Now()
	if state == w.last && now.Sub(w.said) < progressEvery {
		return
	}
	w.last, w.said = state, now
	w.progress.Say("%s is %s (%s elapsed).", w.what, state, now.Sub(w.start).Round(time.Second))
}
