package apm

// Waiting for the manager. Some changes are not done when the request returns: a started
// server passes through "starting" before it is "running" (api/decisions.md "States"),
// and a parent (a system, a database) cannot be deleted while children are still being
// removed. Poll covers both. It is modelled on terraform-plugin-sdk's
// retry.StateChangeConf, kept small and bound to a context, so that the client does not
// depend on the SDK.
//
// Waiting for a state:
//
//	srv, err := apm.Poll[*apm.Server]{
//		What:    fmt.Sprintf("WAS server %q on node %q", ref.ServerID, ref.NodeName),
//		Pending: []string{"starting"},
//		Target:  []string{"running"},
//		Refresh: func(ctx context.Context) (*apm.Server, string, error) {
//			s, err := client.GetServer(ctx, ref)
//			if err != nil {
//				return nil, "", err
//			}
//			return s, s.Status, nil
//		},
//		Timeout: 10 * time.Minute,
//	}.Wait(ctx)
//
// Retrying a delete that the manager refuses with 409 CONFLICT while children are still
// present: Refresh makes the attempt and maps the refusal to a pending state. The object
// is the manager's last refusal, so that a timeout can say why it kept refusing.
//
//	refusal, err := apm.Poll[string]{
//		What:    fmt.Sprintf("system %q", name),
//		Pending: []string{"in use"},
//		Target:  []string{"deleted"},
//		Refresh: func(ctx context.Context) (string, string, error) {
//			switch err := client.DeleteSystem(ctx, name); {
//			case err == nil || apm.IsNotFound(err):
//				return "", "deleted", nil
//			case apm.IsConflict(err):
//				return err.Error(), "in use", nil
//			default:
//				return "", "", err
//			}
//		},
//		Timeout: deleteTimeout,
//	}.Wait(ctx)

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Default backoff between looks: quick enough for a state that changes within a second,
// and at most one request every few seconds for a long wait.
const (
	DefaultPollMinInterval = 200 * time.Millisecond
	DefaultPollMaxInterval = 5 * time.Second
)

// Poll describes a wait for an object to reach one of Target states. States are compared
// case-insensitively: a real manager may spell them differently from the emulator
// (api/decisions.md rule 1).
type Poll[T any] struct {
	What    string   // names the object in errors, e.g. `WAS server "was-1" on node "web-01"`
	Pending []string // states that mean "keep waiting"
	Target  []string // states that mean "done"
	// Refresh takes one look. An error stops the wait; a state in neither Pending nor
	// Target stops it with an *UnexpectedStateError.
	Refresh func(ctx context.Context) (obj T, state string, err error)
	// Timeout bounds the whole wait, Refresh calls included; 0 leaves it to ctx.
	Timeout time.Duration
	// The wait between looks starts at MinInterval and doubles up to MaxInterval; 0 means
	// DefaultPollMinInterval and DefaultPollMaxInterval.
	MinInterval, MaxInterval time.Duration

	// sleep waits for d or until ctx is done; nil means Sleep. Tests replace it so that
	// they need not wait for real.
	sleep func(ctx context.Context, d time.Duration) error
}

// Wait looks at once, and again after each backoff while the state is pending, until the
// state is a target. It returns the object of the last successful look: on success the
// one in a target state; with an error the last one seen (zero if none). A timeout, from
// Timeout or from a ctx deadline, is a *TimeoutError; a cancelled ctx gives an error that
// unwraps to context.Canceled.
func (p Poll[T]) Wait(ctx context.Context) (T, error) {
	var last T
	if p.Refresh == nil || len(p.Target) == 0 {
		return last, fmt.Errorf("apm: waiting for %s: Refresh and at least one Target state are required", p.What)
	}
	limit := p.limit(ctx, time.Now())
	if p.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, p.Timeout)
		defer cancel()
	}
	var seen look
	for interval := p.minInterval(); ; interval = p.next(interval) {
		if why := Ended(ctx); why != nil {
			return last, p.stopped(why, limit, seen)
		}
		obj, state, err := p.Refresh(ctx)
		if err != nil {
			if why := Ended(ctx); why != nil {
				// The look failed because the wait ended: report the end, not the symptom.
				return last, p.stopped(why, limit, seen)
			}
			return last, fmt.Errorf("waiting for %s to be %s: %w", p.What, orList(p.Target), err)
		}
		last, seen = obj, look{state: state, ok: true}
		if done, err := p.judge(state); done {
			return obj, err
		}
		if why := p.pause(ctx, interval); why != nil {
			return last, p.stopped(why, limit, seen)
		}
	}
}

// Ended is why work under ctx must stop, or nil. The deadline is also read from the
// clock: ctx reports it only once its timer has fired, which can be a moment late, and a
// look in that moment would fail with a misleading error (or, after a sleep that ended
// right at the deadline, spin without waiting); a caller that asks why a wait ended must
// ask the same way.
func Ended(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if deadline, ok := ctx.Deadline(); ok && !time.Now().Before(deadline) {
		return context.DeadlineExceeded
	}
	return nil
}

// judge tells whether a look that found state ends the wait, and with which error.
func (p Poll[T]) judge(state string) (done bool, err error) {
	switch {
	case oneOf(state, p.Target):
		return true, nil
	case oneOf(state, p.Pending):
		return false, nil
	}
	return true, &UnexpectedStateError{What: p.What, State: state, Pending: p.Pending, Target: p.Target}
}

// pause waits for the interval, but never past ctx's deadline.
func (p Poll[T]) pause(ctx context.Context, interval time.Duration) error {
	if deadline, ok := ctx.Deadline(); ok {
		left := time.Until(deadline)
		if left <= 0 {
			return context.DeadlineExceeded
		}
		interval = min(interval, left)
	}
	sleep := p.sleep
	if sleep == nil {
		sleep = Sleep
	}
	return sleep(ctx, interval)
}

func (p Poll[T]) minInterval() time.Duration {
	if p.MinInterval > 0 {
		return p.MinInterval
	}
	return DefaultPollMinInterval
}

// next doubles the interval, up to maxInterval.
func (p Poll[T]) next(interval time.Duration) time.Duration {
	if m := p.maxInterval(); interval > m/2 {
		return m
	}
	return 2 * interval
}

// maxInterval is never below minInterval, so that the backoff cannot shrink.
func (p Poll[T]) maxInterval() time.Duration {
	if p.MaxInterval > 0 {
		return max(p.MaxInterval, p.minInterval())
	}
	return max(DefaultPollMaxInterval, p.minInterval())
}

// limit is how long the wait may take, as a timeout reports it: Timeout, or what is left
// of an earlier ctx deadline.
func (p Poll[T]) limit(ctx context.Context, start time.Time) time.Duration {
	deadline, ok := ctx.Deadline()
	if !ok {
		return p.Timeout
	}
	left := max(deadline.Sub(start), 0).Round(time.Millisecond)
	if p.Timeout > 0 && p.Timeout <= left {
		return p.Timeout
	}
	return left
}

// stopped is the error for a wait that ended for why (a context error).
func (p Poll[T]) stopped(why error, limit time.Duration, seen look) error {
	if errors.Is(why, context.DeadlineExceeded) {
		return &TimeoutError{What: p.What, Target: p.Target, LastState: seen.state, Timeout: limit, seen: seen.ok}
	}
	return fmt.Errorf("canceled waiting for %s to be %s%s: %w", p.What, orList(p.Target), seen, why)
}

// look is the state of the last successful look, if there was one.
type look struct {
	state string
	ok    bool
}

// String is the suffix that tells the last state in an error.
func (l look) String() string {
	switch {
	case !l.ok:
		return " (no state seen)"
	case l.state == "":
		return ` (last state: "")`
	}
	return " (last state: " + l.state + ")"
}

// TimeoutError is a wait that ran out of time, from Poll.Timeout or from a context
// deadline. It unwraps to context.DeadlineExceeded.
type TimeoutError struct {
	What      string
	Target    []string
	LastState string        // the state of the last look; "" also when no look succeeded
	Timeout   time.Duration // how long the wait was allowed to take

	seen bool // whether any look succeeded, so that the text does not invent a state
}

func (e *TimeoutError) Error() string {
	return fmt.Sprintf("timed out after %s waiting for %s to be %s%s",
		e.Timeout, e.What, orList(e.Target), look{state: e.LastState, ok: e.seen})
}

func (e *TimeoutError) Unwrap() error { return context.DeadlineExceeded }

// UnexpectedStateError is a look that found a state in neither Pending nor Target: the
// object will not get to a target by waiting (a server that failed to start, say).
type UnexpectedStateError struct {
	What            string
	State           string
	Pending, Target []string
}

func (e *UnexpectedStateError) Error() string {
	return fmt.Sprintf("waiting for %s to be %s: unexpected state %q (expected one of: %s)",
		e.What, orList(e.Target), e.State, strings.Join(append(append([]string(nil), e.Pending...), e.Target...), ", "))
}

func oneOf(state string, states []string) bool {
	for _, s := range states {
		if strings.EqualFold(s, state) {
			return true
		}
	}
	return false
}

// orList renders states as "running", "running or stopped", "a, b or c".
func orList(states []string) string {
	if len(states) <= 1 {
		return strings.Join(states, "")
	}
	return strings.Join(states[:len(states)-1], ", ") + " or " + states[len(states)-1]
}
