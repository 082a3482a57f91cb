package apm

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// cutAnswer sends the status line and part of the body, then drops the connection: the
// request was carried out, the answer is lost while being read.
func cutAnswer(w http.ResponseWriter, _ *http.Request, _ int) {
	w.Header().Set("Content-Length", "100")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write([]byte(`{"actionResult":`))
	if err := http.NewResponseController(w).Flush(); err != nil {
		panic(err)
	}
	panic(http.ErrAbortHandler) // closes the connection without logging
}

// answerWith replies status with a JSON body to every request.
func answerWith(status int, body string) func(http.ResponseWriter, *http.Request, int) {
	return func(w http.ResponseWriter, _ *http.Request, _ int) { reply(w, status, body) }
}

func createSystem(ctx context.Context, c *Client) error { return c.CreateSystem(ctx, "shop") }

func TestOutcomeUnknownOfOneAttempt(t *testing.T) {
	short := func(c *Config) { c.RequestTimeout = 50 * time.Millisecond }
	cases := []struct {
		name    string
		respond func(http.ResponseWriter, *http.Request, int)
		mods    []func(*Config)
		ctx     func() (context.Context, context.CancelFunc)
		unknown bool
	}{
		{name: "connection closed after the request", respond: hangUp, unknown: true},
		{name: "answer cut while read", respond: cutAnswer, unknown: true},
		{name: "attempt timed out", respond: hangUntilDone, mods: []func(*Config){short}, unknown: true},
		{name: "caller canceled in flight", respond: hangUntilDone, unknown: true, ctx: func() (context.Context, context.CancelFunc) {
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(50*time.Millisecond, cancel)
			return ctx, cancel
		}},
		{name: "caller's deadline in flight", respond: hangUntilDone, unknown: true, ctx: func() (context.Context, context.CancelFunc) {
			return context.WithTimeout(context.Background(), 50*time.Millisecond)
		}},
		{name: "500", respond: answerWith(500, `{"error":"oops"}`), unknown: true},
		{name: "502", respond: answerWith(502, `{}`), unknown: true},
		{name: "504", respond: answerWith(504, `{}`), unknown: true},
		{name: "503", respond: answerWith(503, `{}`), mods: []func(*Config){withMaxRetries(0)}},
		{name: "429", respond: answerWith(429, `{}`), mods: []func(*Config){withMaxRetries(0)}},
		{name: "400", respond: answerWith(400, `{"error":"systemName is required","code":"BAD_REQUEST"}`)},
		{name: "404", respond: answerWith(404, `{"error":"x","code":"NOT_FOUND"}`)},
		{name: "409", respond: answerWith(409, `{"error":"System already exists: shop","code":"CONFLICT"}`)},
		{name: `actionResult "N"`, respond: answerWith(200, `{"actionResult":"N","message":"no"}`)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv, rec := serve(t, tc.respond)
			ctx, cancel := context.WithCancel(context.Background())
			if tc.ctx != nil {
				ctx, cancel = tc.ctx()
			}
			defer cancel()
			err := createSystem(ctx, newTestClient(t, srv.URL, tc.mods...))
			if err == nil {
				t.Fatal("no error")
			}
			if OutcomeUnknown(err) != tc.unknown {
				t.Errorf("OutcomeUnknown = %t, want %t (err %v)", OutcomeUnknown(err), tc.unknown, err)
			}
			if rec.count() != 1 {
				t.Errorf("requests = %d, want 1 (a POST is not retried after these)", rec.count())
			}
		})
	}
}

func TestOutcomeKnownWhenNothingWasSent(t *testing.T) {
	ctx := context.Background()
	t.Run("connection refused", func(t *testing.T) {
		err := createSystem(ctx, newTestClient(t, closedEndpoint(t), withMaxRetries(1)))
		if asTransportError(t, err).Attempts != 1 || OutcomeUnknown(err) {
			t.Errorf("err = %v: want 1 attempt (nothing listens: not retried) and a known outcome", err)
		}
	})
	t.Run("TLS handshake failed", func(t *testing.T) {
		err := createSystem(ctx, newTestClient(t, tlsServer(t).URL)) // its certificate is not trusted
		if err == nil || !strings.Contains(err.Error(), "TLS handshake failed") || OutcomeUnknown(err) {
			t.Errorf("err = %v: want a TLS failure with a known outcome", err)
		}
	})
	t.Run("canceled during the TLS handshake", func(t *testing.T) {
		// A listener that accepts and never speaks: the handshake cannot finish.
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		var (
			mu    sync.Mutex
			conns []net.Conn
		)
		t.Cleanup(func() {
			_ = l.Close()
			mu.Lock()
			defer mu.Unlock()
			for _, c := range conns {
				_ = c.Close()
			}
		})
		go func() {
			for {
				conn, err := l.Accept()
				if err != nil {
					return
				}
				mu.Lock()
				conns = append(conns, conn)
				mu.Unlock()
			}
		}()
		timed, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
		defer cancel()
		err = createSystem(timed, newTestClient(t, "https://"+l.Addr().String()))
		if !errors.Is(err, context.DeadlineExceeded) || OutcomeUnknown(err) {
			t.Errorf("err = %v: want the deadline with a known outcome", err)
		}
	})
	t.Run("request cannot be built", func(t *testing.T) {
		srv, rec := serve(t, answerWith(200, `{}`))
		err := newTestClient(t, srv.URL).send(ctx, "NOT A METHOD", "/rest/systems", nil, nil)
		if !strings.Contains(err.Error(), "building request failed") || OutcomeUnknown(err) || rec.count() != 0 {
			t.Errorf("err = %v, requests = %d: want a build failure with a known outcome", err, rec.count())
		}
	})
	t.Run("canceled before the first attempt", func(t *testing.T) {
		srv, rec := serve(t, answerWith(200, `{}`))
		canceled, cancel := context.WithCancel(ctx)
		cancel()
		err := createSystem(canceled, newTestClient(t, srv.URL))
		if !errors.Is(err, context.Canceled) || OutcomeUnknown(err) || rec.count() != 0 {
			t.Errorf("err = %v, requests = %d", err, rec.count())
		}
	})
}

// The verdict covers every attempt of a retried write: once an attempt may have run, the
// final error says so, whatever ended the retries.
func TestOutcomeUnknownAcrossAttempts(t *testing.T) {
	firstThen := func(first func(http.ResponseWriter, *http.Request, int), status int) func(http.ResponseWriter, *http.Request, int) {
		return func(w http.ResponseWriter, r *http.Request, n int) {
			if n == 1 {
				first(w, r, n)
				return
			}
			reply(w, status, `{"error":"later"}`)
		}
	}
	slow := func(c *Config) { c.RetryWaitMin, c.RetryWaitMax = 10*time.Second, 20*time.Second }
	cases := []struct {
		name     string
		respond  func(http.ResponseWriter, *http.Request, int)
		mods     []func(*Config)
		cancel   bool // cancel the caller's context during the first wait
		unknown  bool
		attempts int
	}{
		{"lost answer, then 503 until the retries are used up", firstThen(hangUp, 503), nil, false, true, 4},
		{"lost answer, then 404", firstThen(hangUp, 404), nil, false, true, 2},
		{"503 until the retries are used up", answerWith(503, `{}`), nil, false, false, 4},
		{"500, then canceled while waiting", answerWith(500, `{}`), []func(*Config){slow}, true, true, 1},
		{"503, then canceled while waiting", answerWith(503, `{}`), []func(*Config){slow}, true, false, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv, rec := serve(t, tc.respond)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tc.cancel {
				time.AfterFunc(50*time.Millisecond, cancel)
			}
			err := newTestClient(t, srv.URL, tc.mods...).RenameSystem(ctx, "shop", "shop2")
			if OutcomeUnknown(err) != tc.unknown {
				t.Errorf("OutcomeUnknown = %t, want %t (err %v)", OutcomeUnknown(err), tc.unknown, err)
			}
			if tc.cancel != errors.Is(err, context.Canceled) {
				t.Errorf("err = %v; canceled: want %t", err, tc.cancel)
			}
			if rec.count() != tc.attempts {
				t.Errorf("requests = %d, want %d", rec.count(), tc.attempts)
			}
		})
	}
}
