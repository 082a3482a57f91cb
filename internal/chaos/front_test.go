//go:build chaos

package chaos

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apmplatform/terraform-provider-apm/internal/apmsim/apmsimtest"
)

// A front is a TCP relay on 127.0.0.1 between the CLI's provider and apmsim that can take
// the manager out of reach, as an outage does: down closes its listener, so that new
// connections are refused, and cuts every open connection; up listens again on the same
// address. apmsim runs on behind it with its state, as a manager restarted with its state
// file comes back, and what its handlers had in hand when the connections were cut still
// completes in it, as a write the manager carried out before it went down. TLS passes
// through unchanged: apmsim's certificate names 127.0.0.1, the front's address too.
type front struct {
	target string // apmsim's address
	addr   string // the front's, the same across outages

	mu    sync.Mutex
	ln    net.Listener // nil while down
	conns map[net.Conn]struct{}
	wg    sync.WaitGroup // the accept loops and relays
}

// putFront puts a front before s: the CLI of a workspace made after it reaches the manager
// through the front, the admin client of the test still directly.
func (s *simEnv) putFront(t *testing.T) *front {
	t.Helper()
	u, err := url.Parse(s.srv.URL)
	if err != nil {
		t.Fatalf("harness: apmsim's URL: %v", err)
	}
	f := &front{target: u.Host, conns: map[net.Conn]struct{}{}}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("harness: the front's listener: %v", err)
	}
	f.addr = ln.Addr().String()
	f.serve(ln)
	t.Cleanup(func() {
		f.down()
		f.wg.Wait()
	})
	s.endpoint = u.Scheme + "://" + f.addr
	return f
}

// down takes the manager out of reach and returns how many connections it cut (a client's
// connection and the relay's to apmsim count as one).
func (f *front) down() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.ln != nil {
		_ = f.ln.Close()
		f.ln = nil
	}
	cut := len(f.conns) / 2
	for c := range f.conns {
		_ = c.Close()
	}
	clear(f.conns)
	return cut
}

// up brings the manager back on the same address.
func (f *front) up() error {
	ln, err := net.Listen("tcp", f.addr)
	if err != nil {
		return err
	}
	f.serve(ln)
	return nil
}

func (f *front) serve(ln net.Listener) {
	f.mu.Lock()
	f.ln = ln
	f.mu.Unlock()
	f.wg.Go(func() {
		for {
			c, err := ln.Accept()
			if errors.Is(err, net.ErrClosed) {
				return
			}
			if err == nil {
				f.wg.Go(func() { f.relay(c) })
			}
		}
	})
}

// relay copies a connection to apmsim and back until either side ends or down cuts both
// (one connection each way, cut together, as they end together in a manager that stops).
func (f *front) relay(c net.Conn) {
	back, err := net.Dial("tcp", f.target)
	if err != nil {
		_ = c.Close()
		return
	}
	if !f.track(c, back) {
		return
	}
	done := make(chan struct{}, 2)
	go func() { _, _ = io.Copy(back, c); done <- struct{}{} }()
	go func() { _, _ = io.Copy(c, back); done <- struct{}{} }()
	<-done
	f.untrack(c, back)
	<-done
}

// track records the open connections, to cut them at down; a connection accepted just
// before down is closed at once.
func (f *front) track(conns ...net.Conn) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, c := range conns {
		if f.ln == nil {
			_ = c.Close()
			continue
		}
		f.conns[c] = struct{}{}
	}
	return f.ln != nil
}

// untrack closes the connections of a relay that ended and forgets them.
func (f *front) untrack(conns ...net.Conn) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, c := range conns {
		_ = c.Close()
		delete(f.conns, c)
	}
}

// The front refuses connections and cuts open ones while down, and serves again on the
// same address once up.
func TestFront(t *testing.T) {
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "ok") }))
	defer backend.Close()
	s := &simEnv{srv: &apmsimtest.Server{URL: backend.URL}}
	f := s.putFront(t)
	client := &http.Client{Timeout: 5 * time.Second}
	get := func() error {
		resp, err := client.Get(s.endpoint)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		if body, err := io.ReadAll(resp.Body); err != nil || string(body) != "ok" {
			return fmt.Errorf("answer %q, %v", body, err)
		}
		return nil
	}
	if err := get(); err != nil {
		t.Fatalf("through the front: %v", err)
	}
	if cut := f.down(); cut != 1 {
		t.Errorf("down cut %d connections, want the client's one kept alive", cut)
	}
	if err := get(); err == nil || !strings.Contains(err.Error(), "connection refused") {
		t.Errorf("while down: %v, want connection refused", err)
	}
	if err := f.up(); err != nil {
		t.Fatalf("up: %v", err)
	}
	if err := get(); err != nil {
		t.Errorf("up again: %v", err)
	}
}
