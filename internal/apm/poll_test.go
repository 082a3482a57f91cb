package apm

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"
)

// script is a Refresh that returns the given states in turn, with the number of the look
// (1-based) as the object, and repeats the last state once the script runs out.
func script(states ...string) (refresh func(context.Context) (int, string, error), looks *int) {
	n := 0
	return func(context.Context) (int, string, error) {
		n++
		return n, states[min(n, len(states))-1], nil
	}, &n
}

// recordSleeps returns a sleep hook that records each wait and returns at once.
func recordSleeps() (sleep func(context.Context, time.Duration) error, slept *[]time.Duration) {
	var got []time.Duration
	return func(ctx context.Context, d time.Duration) error {
		got = append(got, d)
		return ctx.Err()
	}, &got
}

const testWhat = `WAS server "was-1" on node "web-01"`

func TestPollReachesTargetAfterPending(t *testing.T) {
	refresh, looks := script("stopped", "starting", "Running")
	sleep, slept := recordSleeps()
	p := Poll[int]{What: testWhat, Pending: []string{"stopped", "starting"}, Target: []string{"running"}, Refresh: refresh, sleep: sleep}
	obj, err := p.Wait(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if obj != 3 || *looks != 3 {
		t.Errorf("object = %d after %d looks, want the third look's", obj, *looks)
	}
	if want := []time.Duration{DefaultPollMinInterval, 2 * DefaultPollMinInterval}; !reflect.DeepEqual(*slept, want) {
		t.Errorf("slept %v, want %v", *slept, want)
	}
}

func TestPollTargetAtOnceDoesNotSleep(t *testing.T) {
	refresh, _ := script("stopped")
	sleep, slept := recordSleeps()
	p := Poll[int]{What: testWhat, Pending: []string{"stopping"}, Target: []string{"stopped"}, Refresh: refresh, sleep: sleep}
	if _, err := p.Wait(context.Background()); err != nil || len(*slept) != 0 {
		t.Errorf("err = %v, slept %v; want a single look", err, *slept)
	}
}

func TestPollUnexpectedState(t *testing.T) {
	refresh, _ := script("starting", "failed")
	sleep, _ := recordSleeps()
	p := Poll[int]{What: testWhat, Pending: []string{"starting"}, Target: []string{"running"}, Refresh: refresh, sleep: sleep}
	obj, err := p.Wait(context.Background())
	var ue *UnexpectedStateError
	if !errors.As(err, &ue) {
		t.Fatalf("error %v (%T) is not an *UnexpectedStateError", err, err)
	}
	if ue.State != "failed" || ue.What != testWhat || obj != 2 {
		t.Errorf("error %+v, object %d", ue, obj)
	}
	want := `waiting for ` + testWhat + ` to be running: unexpected state "failed" (expected one of: starting, running)`
	if err.Error() != want {
		t.Errorf("error text\n got %s\nwant %s", err, want)
	}
}

func TestPollRefreshErrorIsWrapped(t *testing.T) {
	boom := errors.New("GET /rest/was/servers/was-1: 500 INTERNAL_SERVER_ERROR")
	n := 0
	p := Poll[int]{
		What: testWhat, Pending: []string{"starting"}, Target: []string{"running"},
		Refresh: func(context.Context) (int, string, error) {
			if n++; n == 2 {
				return 0, "", boom
			}
			return n, "starting", nil
		},
	}
	p.sleep, _ = recordSleeps()
	obj, err := p.Wait(context.Background())
	if !errors.Is(err, boom) {
		t.Fatalf("error %v does not wrap the Refresh error", err)
	}
	if !strings.Contains(err.Error(), testWhat) || obj != 1 {
		t.Errorf("error %q should name the object; object = %d, want the last one seen (1)", err, obj)
	}
}

func TestPollTimeout(t *testing.T) {
	refresh, _ := script("starting")
	p := Poll[int]{
		What: testWhat, Pending: []string{"starting"}, Target: []string{"running"}, Refresh: refresh,
		Timeout: 50 * time.Millisecond, MinInterval: 5 * time.Millisecond,
	}
	start := time.Now()
	obj, err := p.Wait(context.Background())
	if elapsed := time.Since(start); elapsed > 500*time.Millisecond {
		t.Errorf("the wait took %s, want about 50ms", elapsed)
	}
	var te *TimeoutError
	if !errors.As(err, &te) {
		t.Fatalf("error %v (%T) is not a *TimeoutError", err, err)
	}
	if !errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		t.Errorf("error %v should unwrap to context.DeadlineExceeded only", err)
	}
	want := "timed out after 50ms waiting for " + testWhat + " to be running (last state: starting)"
	if err.Error() != want {
		t.Errorf("error text\n got %s\nwant %s", err, want)
	}
	if te.LastState != "starting" || obj == 0 {
		t.Errorf("LastState = %q, object = %d; want the last look kept", te.LastState, obj)
	}
}

func TestPollContextDeadlineIsATimeout(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Millisecond)
	defer cancel()
	refresh, _ := script("stopping")
	p := Poll[int]{What: testWhat, Pending: []string{"stopping"}, Target: []string{"stopped"}, Refresh: refresh, MinInterval: 5 * time.Millisecond}
	_, err := p.Wait(ctx)
	var te *TimeoutError
	if !errors.As(err, &te) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("error %v (%T) is not a *TimeoutError", err, err)
	}
	if te.Timeout <= 0 || te.Timeout > 40*time.Millisecond {
		t.Errorf("Timeout = %s, want what was left of the 40ms deadline", te.Timeout)
	}
}

// A look cut short by the deadline is reported as the timeout, not as a failed look.
func TestPollRefreshEndedByDeadline(t *testing.T) {
	p := Poll[int]{
		What: testWhat, Target: []string{"running"}, Timeout: 20 * time.Millisecond,
		Refresh: func(ctx context.Context) (int, string, error) {
			<-ctx.Done()
			return 0, "", fmt.Errorf("GET /x: request canceled: %w", ctx.Err())
		},
	}
	_, err := p.Wait(context.Background())
	var te *TimeoutError
	if !errors.As(err, &te) {
		t.Fatalf("error %v (%T) is not a *TimeoutError", err, err)
	}
	if want := "timed out after 20ms waiting for " + testWhat + " to be running (no state seen)"; err.Error() != want {
		t.Errorf("error text\n got %s\nwant %s", err, want)
	}
}

func TestPollNeverSleepsPastTheDeadline(t *testing.T) {
	refresh, looks := script("starting")
	var slept []time.Duration
	p := Poll[int]{
		What: testWhat, Pending: []string{"starting"}, Target: []string{"running"}, Refresh: refresh,
		Timeout: 30 * time.Millisecond, MinInterval: time.Hour,
		sleep: func(ctx context.Context, d time.Duration) error {
			slept = append(slept, d)
			return Sleep(ctx, d)
		},
	}
	_, err := p.Wait(context.Background())
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("error = %v, want a timeout", err)
	}
	if len(slept) != 1 || slept[0] > 30*time.Millisecond || *looks != 1 {
		t.Errorf("slept %v after %d looks, want one wait of at most 30ms", slept, *looks)
	}
}

func TestPollCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	refresh, looks := script("starting")
	p := Poll[int]{
		What: testWhat, Pending: []string{"starting"}, Target: []string{"running"}, Refresh: refresh,
		sleep: func(ctx context.Context, _ time.Duration) error {
			cancel()
			return ctx.Err()
		},
	}
	_, err := p.Wait(ctx)
	if !errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("error %v should unwrap to context.Canceled only", err)
	}
	var te *TimeoutError
	if errors.As(err, &te) {
		t.Errorf("a cancellation is no *TimeoutError: %v", err)
	}
	if !strings.Contains(err.Error(), testWhat) || !strings.Contains(err.Error(), "(last state: starting)") || *looks != 1 {
		t.Errorf("error %q after %d looks", err, *looks)
	}

	// Already cancelled: no look at all.
	if _, err := p.Wait(ctx); !errors.Is(err, context.Canceled) || *looks != 1 {
		t.Errorf("error %v after %d looks, want no further look", err, *looks)
	}
}

func TestPollBackoffDoublesAndIsCapped(t *testing.T) {
	ms := time.Millisecond
	for _, tc := range []struct {
		name     string
		min, max time.Duration
		want     []time.Duration
	}{
		{"defaults", 0, 0, []time.Duration{200 * ms, 400 * ms, 800 * ms, 1600 * ms, 3200 * ms, 5000 * ms, 5000 * ms}},
		{"capped", 100 * ms, 1000 * ms, []time.Duration{100 * ms, 200 * ms, 400 * ms, 800 * ms, 1000 * ms, 1000 * ms, 1000 * ms}},
		{"max below min", 300 * ms, 100 * ms, []time.Duration{300 * ms, 300 * ms, 300 * ms, 300 * ms, 300 * ms, 300 * ms, 300 * ms}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			states := append(make([]string, 0, 8), "starting", "starting", "starting", "starting", "starting", "starting", "starting", "running")
			refresh, _ := script(states...)
			p := Poll[int]{What: testWhat, Pending: []string{"starting"}, Target: []string{"running"}, Refresh: refresh, MinInterval: tc.min, MaxInterval: tc.max}
			var slept *[]time.Duration
			p.sleep, slept = recordSleeps()
			if _, err := p.Wait(context.Background()); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(*slept, tc.want) {
				t.Errorf("slept %v, want %v", *slept, tc.want)
			}
		})
	}
}

// The delete-wait of the file comment: a 409 while children remain is a pending state.
func TestPollRetriesConflictingDelete(t *testing.T) {
	srv, rec := serve(t, func(w http.ResponseWriter, _ *http.Request, n int) {
		if n < 3 {
			reply(w, http.StatusConflict, `{"error":"system prod still has 1 node"}`)
			return
		}
		reply(w, http.StatusOK, `{"actionResult":"Y"}`)
	})
	c := newTestClient(t, srv.URL)
	p := Poll[string]{
		What: `system "prod"`, Pending: []string{"in use"}, Target: []string{"deleted"},
		Refresh: func(ctx context.Context) (string, string, error) {
			switch err := c.DeleteSystem(ctx, "prod"); {
			case err == nil || IsNotFound(err):
				return "", "deleted", nil
			case IsConflict(err):
				return err.Error(), "in use", nil
			default:
				return "", "", err
			}
		},
	}
	var slept *[]time.Duration
	p.sleep, slept = recordSleeps()
	if _, err := p.Wait(context.Background()); err != nil {
		t.Fatal(err)
	}
	if rec.count() != 3 || len(*slept) != 2 {
		t.Errorf("%d deletes, %d waits; want 3 and 2", rec.count(), len(*slept))
	}

	// Still refused at the deadline: the timeout says so, and the refusal is kept.
	srv409, _ := serve(t, func(w http.ResponseWriter, _ *http.Request, _ int) {
		reply(w, http.StatusConflict, `{"error":"system prod still has 1 node"}`)
	})
	c = newTestClient(t, srv409.URL)
	p.sleep, p.Timeout = nil, 30*time.Millisecond
	p.MinInterval = 5 * time.Millisecond
	refusal, err := p.Wait(context.Background())
	if want := `timed out after 30ms waiting for system "prod" to be deleted (last state: in use)`; err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
	if !strings.Contains(refusal, "still has 1 node") {
		t.Errorf("refusal = %q, want the manager's last message", refusal)
	}
}

func TestPollRequiresRefreshAndTarget(t *testing.T) {
	refresh, looks := script("running")
	for _, p := range []Poll[int]{
		{What: testWhat, Target: []string{"running"}},
		{What: testWhat, Pending: []string{"starting"}, Refresh: refresh},
	} {
		if _, err := p.Wait(context.Background()); err == nil || !strings.Contains(err.Error(), testWhat) {
			t.Errorf("error = %v, want a refusal naming the object", err)
		}
	}
	if *looks != 0 {
		t.Errorf("%d looks, want none", *looks)
	}
}

func TestOrList(t *testing.T) {
	for states, want := range map[string]string{"": "", "running": "running", "running,stopped": "running or stopped", "a,b,c": "a, b or c"} {
		var in []string
		if states != "" {
			in = strings.Split(states, ",")
		}
		if got := orList(in); got != want {
			t.Errorf("orList(%q) = %q, want %q", in, got, want)
		}
	}
}
