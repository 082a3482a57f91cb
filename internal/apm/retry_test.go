package apm

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

func asTransportError(t *testing.T, err error) *TransportError {
	t.Helper()
	var te *TransportError
	if !errors.As(err, &te) {
		t.Fatalf("error %v (%T) is not a *TransportError", err, err)
	}
	return te
}

func TestGetRetriesUntilSuccess(t *testing.T) {
	srv, rec := serve(t, func(w http.ResponseWriter, _ *http.Request, n int) {
		if n < 3 {
			reply(w, 503, `{"error":"busy"}`)
			return
		}
		reply(w, 200, `{"systems":[{"systemName":"prod"}]}`)
	})
	systems, err := newTestClient(t, srv.URL).ListSystems(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(systems) != 1 || systems[0].SystemName != "prod" {
		t.Errorf("systems = %+v", systems)
	}
	if rec.count() != 3 {
		t.Errorf("attempts = %d, want 3", rec.count())
	}
}

func TestRetryableStatusesPerMethod(t *testing.T) {
	ctx := context.Background()
	calls := map[string]func(c *Client) error{
		"GET":    func(c *Client) error { _, err := c.GetSystem(ctx, "a"); return err },
		"PUT":    func(c *Client) error { return c.RenameSystem(ctx, "a", "b") },
		"DELETE": func(c *Client) error { return c.DeleteSystem(ctx, "a") },
		"POST":   func(c *Client) error { return c.CreateSystem(ctx, "a") },
	}
	// The policy of retry.go, spelled out: GET, PUT and DELETE on 429 and every 5xx; POST
	// only on the answers that say the request was not carried out.
	retried := map[string][]int{
		"GET":    {429, 500, 501, 502, 503, 504},
		"PUT":    {429, 500, 501, 502, 503, 504},
		"DELETE": {429, 500, 501, 502, 503, 504},
		"POST":   {429, 503},
	}
	for _, status := range []int{400, 401, 403, 404, 409, 429, 500, 501, 502, 503, 504} {
		for method, call := range calls {
			t.Run(fmt.Sprintf("%s %d", method, status), func(t *testing.T) {
				srv, rec := serve(t, func(w http.ResponseWriter, _ *http.Request, n int) {
					if n == 1 {
						reply(w, status, `{"error":"first"}`)
						return
					}
					reply(w, 200, `{"systemName":"a","actionResult":"Y"}`)
				})
				err := call(newTestClient(t, srv.URL))
				if slices.Contains(retried[method], status) {
					if err != nil || rec.count() != 2 {
						t.Errorf("err = %v, attempts = %d; want success after 2 attempts", err, rec.count())
					}
					return
				}
				var e *Error
				if !errors.As(err, &e) || e.StatusCode != status || e.Message != "first" {
					t.Errorf("err = %v, want the %d *Error", err, status)
				}
				if rec.count() != 1 {
					t.Errorf("attempts = %d, want 1 (no retry)", rec.count())
				}
			})
		}
	}
}

func TestExhaustedRetriesKeepManagerMessage(t *testing.T) {
	srv, rec := serve(t, func(w http.ResponseWriter, _ *http.Request, n int) {
		reply(w, 503, fmt.Sprintf(`{"error":"maintenance window %d","code":"SERVICE_UNAVAILABLE"}`, n))
	})
	_, err := newTestClient(t, srv.URL, withMaxRetries(2)).ListNodes(context.Background())
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("got %v, want *Error", err)
	}
	if rec.count() != 3 || e.Attempts != 3 {
		t.Errorf("attempts: server %d, error %d; want 3", rec.count(), e.Attempts)
	}
	want := "GET /rest/nodes: 503 SERVICE_UNAVAILABLE: maintenance window 3 (after 3 attempts)"
	if err.Error() != want {
		t.Errorf("text = %q\nwant   %q", err, want)
	}
	assertNoKey(t, "exhausted retries", err.Error())
}

func TestZeroRetries(t *testing.T) {
	srv, rec := serve(t, func(w http.ResponseWriter, _ *http.Request, _ int) { reply(w, 503, `{"error":"x"}`) })
	_, err := newTestClient(t, srv.URL, withMaxRetries(0)).ListNodes(context.Background())
	if err == nil || rec.count() != 1 || strings.Contains(err.Error(), "after") {
		t.Errorf("err = %v, attempts = %d; want one attempt", err, rec.count())
	}
}

func TestRetryAfterIsHonouredAndCapped(t *testing.T) {
	srv, rec := serve(t, func(w http.ResponseWriter, _ *http.Request, n int) {
		if n == 1 {
			w.Header().Set("Retry-After", "1") // one second, capped to RetryWaitMax below
			reply(w, 429, `{"error":"slow down"}`)
			return
		}
		reply(w, 200, `{"systems":[]}`)
	})
	c := newTestClient(t, srv.URL, func(c *Config) { c.RetryWaitMin, c.RetryWaitMax = time.Millisecond, 40*time.Millisecond })
	start := time.Now()
	if _, err := c.ListSystems(context.Background()); err != nil {
		t.Fatal(err)
	}
	// Without Retry-After the first backoff would be at most RetryWaitMin (1ms).
	if d := time.Since(start); d < 40*time.Millisecond || d > 900*time.Millisecond {
		t.Errorf("took %s, want the capped Retry-After of 40ms", d)
	}
	if rec.count() != 2 {
		t.Errorf("attempts = %d, want 2", rec.count())
	}
}

func TestRetryAfterZeroRetriesAtOnce(t *testing.T) {
	srv, rec := serve(t, func(w http.ResponseWriter, _ *http.Request, n int) {
		if n == 1 {
			w.Header().Set("Retry-After", "0")
			reply(w, 503, `{}`)
			return
		}
		reply(w, 200, `{"systems":[]}`)
	})
	c := newTestClient(t, srv.URL, func(c *Config) { c.RetryWaitMin, c.RetryWaitMax = 5*time.Second, 10*time.Second })
	start := time.Now()
	if _, err := c.ListSystems(context.Background()); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > time.Second || rec.count() != 2 {
		t.Errorf("took %s with %d attempts; want an immediate retry", d, rec.count())
	}
}

func TestBackoff(t *testing.T) {
	c := &Client{waitMin: 100 * time.Millisecond, waitMax: time.Second}
	bounds := map[int][2]time.Duration{
		1:  {50 * time.Millisecond, 100 * time.Millisecond},
		2:  {100 * time.Millisecond, 200 * time.Millisecond},
		3:  {200 * time.Millisecond, 400 * time.Millisecond},
		4:  {400 * time.Millisecond, 800 * time.Millisecond},
		5:  {500 * time.Millisecond, time.Second},
		60: {500 * time.Millisecond, time.Second},
	}
	for retry, b := range bounds {
		seen := map[time.Duration]bool{}
		for i := 0; i < 50; i++ {
			d := c.backoff(retry, 0, false)
			if d < b[0] || d > b[1] {
				t.Errorf("backoff(%d) = %s, want within %v", retry, d, b)
			}
			seen[d] = true
		}
		if len(seen) < 2 {
			t.Errorf("backoff(%d) has no jitter", retry)
		}
	}
	if d := c.backoff(1, 5*time.Second, true); d != time.Second {
		t.Errorf("Retry-After 5s gave %s, want the 1s cap", d)
	}
	if d := c.backoff(3, 0, true); d != 0 {
		t.Errorf("Retry-After 0 gave %s", d)
	}
	if d := c.backoff(1, 300*time.Millisecond, true); d != 300*time.Millisecond {
		t.Errorf("Retry-After 300ms gave %s", d)
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	cases := []struct {
		in     string
		want   time.Duration
		wantOK bool
	}{
		{"", 0, false},
		{"3", 3 * time.Second, true},
		{" 0 ", 0, true},
		{"-1", 0, false},
		{"soon", 0, false},
		{now.Add(10 * time.Second).Format(http.TimeFormat), 10 * time.Second, true},
		{now.Add(-time.Hour).Format(http.TimeFormat), 0, true},
		{"99999999999", 24 * time.Hour, true},
	}
	for _, tc := range cases {
		got, ok := parseRetryAfter(tc.in, now)
		if got != tc.want || ok != tc.wantOK {
			t.Errorf("parseRetryAfter(%q) = %s, %t; want %s, %t", tc.in, got, ok, tc.want, tc.wantOK)
		}
	}
}

func TestBodyResentOnEachAttempt(t *testing.T) {
	srv, rec := serve(t, func(w http.ResponseWriter, _ *http.Request, n int) {
		if n < 3 {
			reply(w, 502, `{}`)
			return
		}
		reply(w, 200, `{"actionResult":"Y"}`)
	})
	err := newTestClient(t, srv.URL).UpdateNode(context.Background(), "sys", "n1", UpdateNodeRequest{HostIP: "10.0.0.9", AgentPort: 7730})
	if err != nil {
		t.Fatal(err)
	}
	reqs := rec.all()
	if len(reqs) != 3 {
		t.Fatalf("attempts = %d, want 3", len(reqs))
	}
	for i, r := range reqs {
		if r.Body != `{"hostIp":"10.0.0.9","agentPort":7730}` {
			t.Errorf("attempt %d body = %q", i+1, r.Body)
		}
	}
}

// A refused connection before the manager has answered at all means a wrong endpoint or a
// manager that is down, which retries do not heal: it fails at once and says what to
// check. Once the manager has answered, a refusal is a restart in the middle of a run and
// is retried (nothing was sent, so even a POST is safe to repeat).
func TestConnectionRefused(t *testing.T) {
	ctx := context.Background()
	for method, call := range map[string]func(c *Client) error{
		"GET":  func(c *Client) error { _, err := c.ListSystems(ctx); return err },
		"POST": func(c *Client) error { return c.CreateSystem(ctx, "a") },
	} {
		t.Run(method+" before any answer", func(t *testing.T) {
			endpoint := closedEndpoint(t)
			err := call(newTestClient(t, endpoint, withMaxRetries(2)))
			te := asTransportError(t, err)
			if te.Attempts != 1 {
				t.Errorf("attempts = %d, want 1", te.Attempts)
			}
			assertRefused(t, err)
			prefix := method + " /rest/systems: connection failed: dial tcp "
			suffix := "connect: connection refused; nothing accepts connections at " + strings.TrimPrefix(endpoint, "http://") +
				": check the endpoint's port and that the manager is running (not retried: the manager has not answered yet)"
			if msg := err.Error(); !strings.HasPrefix(msg, prefix) || !strings.HasSuffix(msg, suffix) {
				t.Errorf("text = %q, want %q...%q", msg, prefix, suffix)
			}
			assertNoKey(t, "connection refused", err.Error())
		})
		t.Run(method+" after an answer", func(t *testing.T) {
			srv, _ := serve(t, func(w http.ResponseWriter, _ *http.Request, _ int) { reply(w, 200, `{"systems":[]}`) })
			c := newTestClient(t, srv.URL, withMaxRetries(2))
			if _, err := c.ListSystems(ctx); err != nil {
				t.Fatal(err)
			}
			srv.Close() // the manager goes away: its port now refuses connections
			c.httpClient.CloseIdleConnections()
			err := call(c)
			if te := asTransportError(t, err); te.Attempts != 3 {
				t.Errorf("attempts = %d, want 3", te.Attempts)
			}
			assertRefused(t, err)
			prefix := method + " /rest/systems: connection failed (after 3 attempts): dial tcp "
			if msg := err.Error(); !strings.HasPrefix(msg, prefix) || !strings.HasSuffix(msg, "connect: connection refused") {
				t.Errorf("text = %q, want %q...connect: connection refused", msg, prefix)
			}
		})
	}
}

// assertRefused checks that err unwraps to the refused dial.
func assertRefused(t *testing.T, err error) {
	t.Helper()
	if !errors.Is(err, syscall.ECONNREFUSED) {
		t.Errorf("error does not unwrap to ECONNREFUSED: %v", err)
	}
	var op *net.OpError
	if !errors.As(err, &op) || op.Op != "dial" {
		t.Errorf("error does not unwrap to the dial error: %v", err)
	}
}

// A host name that does not exist fails at once, naming it; a DNS time-out may pass on the
// next attempt and is retried. The dialer returns what Go's resolver returns for each.
func TestHostDoesNotResolve(t *testing.T) {
	const host = "apm.example.invalid"
	for _, tc := range []struct {
		name     string
		dnsErr   *net.DNSError
		attempts int
		suffix   string
	}{
		{"no such host", &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}, 1,
			`lookup ` + host + `: no such host; the host name "` + host + `" does not resolve: ` +
				"check the endpoint's host name and this machine's DNS (not retried: the manager has not answered yet)"},
		{"time-out", &net.DNSError{Err: "i/o timeout", Name: host, IsTimeout: true}, 3, "lookup " + host + ": i/o timeout"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newTestClient(t, "http://"+host+":8443", withMaxRetries(2))
			transport, ok := c.httpClient.Transport.(*http.Transport)
			if !ok {
				t.Fatalf("transport is a %T", c.httpClient.Transport)
			}
			var dials atomic.Int32
			transport.DialContext = func(context.Context, string, string) (net.Conn, error) {
				dials.Add(1)
				return nil, &net.OpError{Op: "dial", Net: "tcp", Err: tc.dnsErr}
			}
			_, err := c.ListSystems(context.Background())
			if te := asTransportError(t, err); te.Attempts != tc.attempts || int(dials.Load()) != tc.attempts {
				t.Errorf("attempts = %d, dials = %d; want %d", te.Attempts, dials.Load(), tc.attempts)
			}
			if msg := err.Error(); !strings.HasPrefix(msg, "GET /rest/systems: connection failed") || !strings.HasSuffix(msg, tc.suffix) {
				t.Errorf("text = %q, want ...%q", msg, tc.suffix)
			}
		})
	}
}

// hangUp answers no request: it closes the connection after reading the request, so the
// client cannot know whether the request took effect.
func hangUp(w http.ResponseWriter, _ *http.Request, _ int) {
	hijacker, ok := w.(http.Hijacker)
	if !ok {
		panic("httptest response writers can hijack")
	}
	conn, _, err := hijacker.Hijack()
	if err == nil {
		_ = conn.Close()
	}
}

func TestPostNotRetriedAfterSending(t *testing.T) {
	srv, rec := serve(t, hangUp)
	err := newTestClient(t, srv.URL).CreateSystem(context.Background(), "a")
	te := asTransportError(t, err)
	if rec.count() != 1 || te.Attempts != 1 {
		t.Errorf("attempts: server %d, error %d; want 1", rec.count(), te.Attempts)
	}
	if !strings.HasPrefix(err.Error(), "POST /rest/systems: request failed: ") {
		t.Errorf("text = %q", err)
	}
}

func TestGetRetriedAfterBrokenConnection(t *testing.T) {
	srv, rec := serve(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if n == 1 {
			hangUp(w, r, n)
			return
		}
		reply(w, 200, `{"nodes":[]}`)
	})
	if _, err := newTestClient(t, srv.URL).ListNodes(context.Background()); err != nil {
		t.Fatal(err)
	}
	if rec.count() != 2 {
		t.Errorf("attempts = %d, want 2", rec.count())
	}
}

// hangUntilDone blocks the first request until the client gives up on it.
func hangUntilDone(w http.ResponseWriter, r *http.Request, n int) {
	if n == 1 {
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
		return
	}
	reply(w, 200, `{"version":"1","actionResult":"Y"}`)
}

func TestAttemptTimeout(t *testing.T) {
	short := func(c *Config) { c.RequestTimeout = 50 * time.Millisecond }
	t.Run("GET retried", func(t *testing.T) {
		srv, rec := serve(t, hangUntilDone)
		if _, err := newTestClient(t, srv.URL, short).ManagerInfo(context.Background()); err != nil {
			t.Fatal(err)
		}
		if rec.count() != 2 {
			t.Errorf("attempts = %d, want 2", rec.count())
		}
	})
	t.Run("POST not retried", func(t *testing.T) {
		srv, rec := serve(t, hangUntilDone)
		err := newTestClient(t, srv.URL, short).CreateSystem(context.Background(), "a")
		if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "POST /rest/systems: request timed out after 50ms") {
			t.Errorf("err = %v", err)
		}
		if rec.count() != 1 {
			t.Errorf("attempts = %d, want 1", rec.count())
		}
	})
}

func TestCancelDuringBackoffReturnsPromptly(t *testing.T) {
	srv, rec := serve(t, func(w http.ResponseWriter, _ *http.Request, _ int) { reply(w, 503, `{"error":"down"}`) })
	c := newTestClient(t, srv.URL, func(c *Config) { c.RetryWaitMin, c.RetryWaitMax = 10*time.Second, 20*time.Second })
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(30*time.Millisecond, cancel)
	start := time.Now()
	_, err := c.ListSystems(ctx)
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("returned after %s, want promptly after cancellation", d)
	}
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	var e *Error
	if errors.As(err, &e) {
		t.Errorf("cancellation unwraps to the last *Error %v; callers would misreport it", e)
	}
	want := `GET /rest/systems: request canceled while waiting to retry (last error: 503 SERVICE_UNAVAILABLE: down): context canceled`
	if err.Error() != want {
		t.Errorf("text = %q\nwant   %q", err, want)
	}
	if rec.count() != 1 {
		t.Errorf("attempts = %d, want 1", rec.count())
	}
}

func TestCallerContext(t *testing.T) {
	t.Run("already canceled", func(t *testing.T) {
		srv, rec := serve(t, hangUntilDone)
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_, err := newTestClient(t, srv.URL).ListSystems(ctx)
		if !errors.Is(err, context.Canceled) || rec.count() != 0 {
			t.Errorf("err = %v, requests = %d", err, rec.count())
		}
	})
	t.Run("canceled in flight", func(t *testing.T) {
		srv, rec := serve(t, hangUntilDone)
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(30*time.Millisecond, cancel)
		_, err := newTestClient(t, srv.URL).ListSystems(ctx)
		if !errors.Is(err, context.Canceled) || !strings.HasPrefix(err.Error(), "GET /rest/systems: request canceled: ") {
			t.Errorf("err = %v", err)
		}
		if rec.count() != 1 {
			t.Errorf("attempts = %d, want 1", rec.count())
		}
		assertNoKey(t, "canceled", err.Error())
	})
	t.Run("deadline in flight", func(t *testing.T) {
		srv, rec := serve(t, hangUntilDone)
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
		defer cancel()
		_, err := newTestClient(t, srv.URL).ListSystems(ctx)
		if !errors.Is(err, context.DeadlineExceeded) || !strings.HasPrefix(err.Error(), "GET /rest/systems: deadline exceeded: ") {
			t.Errorf("err = %v", err)
		}
		if rec.count() != 1 {
			t.Errorf("attempts = %d, want 1", rec.count())
		}
	})
}

// The caller's deadline bounds the retries: a wait that would end after it is not begun,
// and the caller gets the failure rather than a bare "deadline exceeded".
func TestDeadlineStopsRetryingWithTheLastError(t *testing.T) {
	cases := []struct {
		name       string
		retryAfter string
		mods       func(*Config)
	}{
		{"backoff", "", func(c *Config) { c.RetryWaitMin, c.RetryWaitMax = 5*time.Second, 10*time.Second }},
		{"Retry-After", "5", func(c *Config) { c.RetryWaitMin, c.RetryWaitMax = time.Millisecond, 10*time.Second }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv, rec := serve(t, func(w http.ResponseWriter, _ *http.Request, _ int) {
				if tc.retryAfter != "" {
					w.Header().Set("Retry-After", tc.retryAfter)
				}
				reply(w, 503, `{"error":"maintenance","code":"SERVICE_UNAVAILABLE"}`)
			})
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			start := time.Now()
			_, err := newTestClient(t, srv.URL, tc.mods).ListSystems(ctx)
			if d := time.Since(start); d > time.Second {
				t.Errorf("returned after %s, want at once", d)
			}
			var e *Error
			if !errors.As(err, &e) || e.StatusCode != 503 || errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("err = %v, want the 503 *Error", err)
			}
			if err.Error() != "GET /rest/systems: 503 SERVICE_UNAVAILABLE: maintenance" || rec.count() != 1 {
				t.Errorf("text = %q after %d requests, want the 503 after 1", err, rec.count())
			}
		})
	}
}

// Waits that end before the deadline are made as usual.
func TestDeadlineAllowsWaitsThatFit(t *testing.T) {
	srv, rec := serve(t, func(w http.ResponseWriter, _ *http.Request, n int) {
		if n < 3 {
			reply(w, 500, `{}`)
			return
		}
		reply(w, 200, `{"systems":[]}`)
	})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := newTestClient(t, srv.URL).ListSystems(ctx); err != nil || rec.count() != 3 {
		t.Errorf("err = %v after %d requests, want success after 3", err, rec.count())
	}
}
