package apm

import (
	"context"
	"maps"
	"net/http"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/apmplatform/terraform-provider-apm/api"
)

// api/coverage.md names, for every endpoint, the client calls that send it. The request
// tables of this package's tests (each call with the one request it must send) run again
// here through a transport that notes, with each request, the method of *Client on the
// stack that sent it; then each call a row names sent the row's endpoint, and every call
// seen sending an endpoint is named in its row.
func TestCoverageClientCallsSendTheirEndpoint(t *testing.T) {
	endpoints, err := api.Endpoints()
	if err != nil {
		t.Fatal(err)
	}
	rows, err := api.Coverage()
	if err != nil {
		t.Fatal(err)
	}
	// The endpoints as Go patterns: the mux tells which one a request is, the most
	// specific first (/register/ before {serverId}), as the manager would.
	mux := http.NewServeMux()
	routeOf := map[string]string{} // "METHOD path as written" -> route
	for _, e := range endpoints {
		mux.Handle(e.Route, http.NotFoundHandler())
		routeOf[e.Method+" "+e.Path] = e.Route
	}
	sent := sendersByRoute(t, mux)
	for _, row := range rows {
		route, ok := routeOf[row.Method+" "+row.Path]
		if !ok {
			t.Errorf("api/coverage.md line %d: %s %s is no endpoint", row.Line, row.Method, row.Path)
			continue
		}
		for _, call := range row.Calls {
			if !sent[route][call] {
				t.Errorf("api/coverage.md line %d: %s never sent %s in the request tables (sent by: %s)",
					row.Line, call, route, strings.Join(slices.Sorted(maps.Keys(sent[route])), ", "))
			}
		}
		for _, call := range slices.Sorted(maps.Keys(sent[route])) {
			if !slices.Contains(row.Calls, call) {
				t.Errorf("api/coverage.md line %d: %s sends %s too, and is not named", row.Line, call, route)
			}
		}
		delete(sent, route)
	}
	for route, calls := range sent {
		t.Errorf("%s, sent by %s, has no row in api/coverage.md", route, strings.Join(slices.Sorted(maps.Keys(calls)), ", "))
	}
}

// sendersByRoute runs every request table and returns, for each route of mux the calls
// sent, the client calls that sent it ("(*apm.Client).GetServer"). A request that is no
// route of mux is an error ("" is its route).
func sendersByRoute(t *testing.T, mux *http.ServeMux) map[string]map[string]bool {
	t.Helper()
	sent := map[string]map[string]bool{}
	run := func(name, response string, call func(c *Client) error) {
		srv, _ := serve(t, func(w http.ResponseWriter, _ *http.Request, _ int) { reply(w, 200, response) })
		c := newTestClient(t, srv.URL)
		c.httpClient.Transport = &senderTransport{base: c.httpClient.Transport, seen: func(r *http.Request, sender string) {
			_, route := mux.Handler(r)
			if route == "" {
				t.Errorf("%s: %s sent %s %s, which is no endpoint", name, sender, r.Method, r.URL.Path)
				return
			}
			if sent[route] == nil {
				sent[route] = map[string]bool{}
			}
			sent[route][sender] = true
		}}
		// The tables' own tests check the answers; here only the requests count.
		_ = call(c)
	}
	ctx := context.Background()
	for _, table := range [][]requestCase{systemCalls(t), serverCalls(), resourceCalls(), adminCalls()} {
		for _, tc := range table {
			run(tc.name, tc.response, tc.call)
		}
	}
	for _, table := range [][]callCase{containerCalls(), licenseCalls(), meterCalls(), eventCalls()} {
		for _, tc := range table {
			run(tc.name, tc.response, func(c *Client) error { _, err := tc.call(ctx, c); return err })
		}
	}
	if len(sent) == 0 {
		t.Fatal("no request seen")
	}
	return sent
}

// senderTransport tells seen, for each request, the innermost exported method of *Client
// on the stack: http.Client runs RoundTrip on the goroutine of the call that sends.
type senderTransport struct {
	base http.RoundTripper
	seen func(r *http.Request, sender string)
}

func (s *senderTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	s.seen(r, clientMethodOnStack())
	return s.base.RoundTrip(r)
}

// clientMethodOnStack names the innermost exported method of *Client that the current
// goroutine runs in, or says "no method of *Client".
func clientMethodOnStack() string {
	prefix := reflect.TypeFor[Client]().PkgPath() + ".(*Client)."
	pcs := make([]uintptr, 128)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(1, pcs)])
	for {
		f, more := frames.Next()
		if rest, ok := strings.CutPrefix(f.Function, prefix); ok {
			method, _, _ := strings.Cut(rest, ".") // a closure in the method is the method
			if method != "" && unicode.IsUpper(rune(method[0])) {
				return "(*apm.Client)." + method
			}
		}
		if !more {
			return "no method of *Client"
		}
	}
}
