package apmsim

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestParseFaultRule(t *testing.T) {
	for _, tc := range []struct {
		text string
		want FaultRule
		str  string
	}{
		{"GET /rest/systems* status=503 rate=0.5", FaultRule{Method: "GET", Path: "/rest/systems*", Status: 503, Rate: 0.5},
			"GET /rest/systems* status=503 rate=0.5"},
		{"* /rest/nodes/* latency=200ms", FaultRule{Method: "*", Path: "/rest/nodes/*", Rate: 1, Latency: 200 * time.Millisecond},
			"* /rest/nodes/* latency=200ms"},
		{"  post  /rest/*   reset=true times=2 seed=9 ", FaultRule{Method: "POST", Path: "/rest/*", Rate: 1, Reset: true, Times: 2, Seed: 9},
			"POST /rest/* reset=true times=2 seed=9"},
		{"GET * status=429 retryAfter=1500ms rate=1", FaultRule{Method: "GET", Path: "*", Status: 429, Rate: 1, RetryAfter: 1500 * time.Millisecond},
			"GET * status=429 retryAfter=1.5s"},
		{"POST /rest/systems after=true status=502", FaultRule{Method: "POST", Path: "/rest/systems", Status: 502, Rate: 1, After: true},
			"POST /rest/systems status=502 after=true"},
		{"put /rest/nodes/* after=true reset=true latency=10ms", FaultRule{Method: "PUT", Path: "/rest/nodes/*", Rate: 1, Latency: 10 * time.Millisecond, Reset: true, After: true},
			"PUT /rest/nodes/* latency=10ms reset=true after=true"},
		{"GET /x status=503 after=false", FaultRule{Method: "GET", Path: "/x", Status: 503, Rate: 1},
			"GET /x status=503"},
	} {
		got, err := ParseFaultRule(tc.text)
		if err != nil || got != tc.want || got.String() != tc.str {
			t.Errorf("ParseFaultRule(%q) = %+v (%q), %v; want %+v (%q)", tc.text, got, got.String(), err, tc.want, tc.str)
		}
		if again, err := ParseFaultRule(got.String()); err != nil || again != got {
			t.Errorf("%q does not read back: %+v %v", got.String(), again, err)
		}
	}
	for _, tc := range []struct{ text, want string }{
		{"GET", "want METHOD PATHGLOB"},
		{"GET /x", "the rule does nothing: set status, reset or latency"},
		{"GET /x status", `"status" is not key=value`},
		{"GET /x status=", `"status=" is not key=value`},
		{"GET /x colour=red", `unknown option "colour"`},
		{"GET /x status=abc", `bad value for status: "abc"`},
		{"GET /x status=302", "status 302 must be between 400 and 599"},
		{"GET /x status=503 rate=0", "rate must be above 0 and at most 1"},
		{"GET /x status=503 rate=1.5", "rate must be above 0 and at most 1"},
		{"GET /x status=503 rate=NaN", "rate must be above 0 and at most 1"},
		{"GET /x latency=-1s", "latency must be between 0 and 5m0s"},
		{"GET /x latency=6m", "latency must be between 0 and 5m0s"},
		{"GET /x status=503 reset=true", "status and reset exclude each other"},
		{"GET /x reset=maybe", `bad value for reset: "maybe"`},
		{"GET /x after=true", "after needs a status or reset to answer with"},
		{"GET /x latency=1s after=true", "after needs a status or reset to answer with"},
		{"GET /x status=503 after=yes", `bad value for after: "yes"`},
		{"GET /x latency=1s retryAfter=1s", "retryAfter needs a status"},
		{"GET /x status=503 times=-1", "times must not be negative"},
		{"G-T /x status=503", `method "G-T" must be an HTTP method or *`},
		{"GET x status=503", `path "x" must start with / or *`},
	} {
		_, err := ParseFaultRule(tc.text)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "fault rule ") {
			t.Errorf("ParseFaultRule(%q) = %v, want an error with %q", tc.text, err, tc.want)
		}
	}
}

func TestGlobMatch(t *testing.T) {
	for _, tc := range []struct {
		pattern, s string
		want       bool
	}{
		{"/rest/systems*", "/rest/systems", true},
		{"/rest/systems*", "/rest/systems/shop", true},
		{"/rest/*", "/rest/nodes/a/systems/b", true},
		{"*", "/anything", true},
		{"/rest/nodes/*/systems/shop", "/rest/nodes/web-01/systems/shop", true},
		{"/rest/nodes/*/systems/shop", "/rest/nodes/web-01/systems/batch", false},
		{"/rest/?odes", "/rest/nodes", true},
		{"/rest/?odes", "/rest/odes", false},
		{"/rest/systems", "/rest/systems/shop", false},
		{"*a*b*c", "xaxbxc", true},
		{"*a*b*c", "xaxcxb", false},
		{"", "", true},
		{"/meters/*", "/rest/meters/x", false},
	} {
		if got := globMatch(tc.pattern, tc.s); got != tc.want {
			t.Errorf("globMatch(%q, %q) = %v", tc.pattern, tc.s, got)
		}
	}
}

func faultSim(t *testing.T, rules ...string) *Sim {
	t.Helper()
	var parsed []FaultRule
	for _, r := range rules {
		rule, err := ParseFaultRule(r)
		if err != nil {
			t.Fatal(err)
		}
		parsed = append(parsed, rule)
	}
	return newTestSim(t, func(o *Options) { o.Seed = SeedDemo; o.Faults = parsed })
}

func TestFaultAnswers(t *testing.T) {
	s := faultSim(t, "GET /rest/systems* status=503", "POST /rest/nodes status=429", "DELETE /rest/* status=500 retryAfter=2500ms",
		"* /rest/public/* status=418", "* * status=502 times=1")
	h := s.Handler()
	for _, tc := range []struct {
		method, target string
		status         int
		code           string
		retryAfter     string
	}{
		{"GET", admin("/rest/systems"), 503, "SERVICE_UNAVAILABLE", ""},
		{"GET", admin("/rest/systems/shop"), 503, "SERVICE_UNAVAILABLE", ""},
		{"POST", admin("/rest/nodes"), 429, "TOO_MANY_REQUESTS", "1"},
		{"DELETE", admin("/rest/systems/shop"), 500, "INTERNAL_ERROR", "3"},
		{"GET", "/rest/public/managerInfo", 418, "IM_A_TEAPOT", ""},                // public: no key needed
		{"PUT", admin("/rest/nodes/ND-0001/systems/shop"), 502, "BAD_GATEWAY", ""}, // times=1: once only
	} {
		got := call(t, h, tc.method, tc.target, "")
		expect(t, got, tc.status, errJSON(tc.code, "Injected fault"))
		if ra := got.header.Get("Retry-After"); ra != tc.retryAfter {
			t.Errorf("%s %s: Retry-After %q, want %q", tc.method, tc.target, ra, tc.retryAfter)
		}
	}
	// Unmatched requests and the sim's own paths go through; injected answers are not
	// counted as requests of a route.
	expect(t, call(t, h, "GET", admin("/rest/nodes"), ""), http.StatusOK, "")
	expect(t, call(t, h, "PUT", admin("/rest/nodes/ND-0001/systems/shop"), `{"agentPort":7731}`), http.StatusOK, "")
	expect(t, call(t, h, "GET", admin("/_apmsim/requests"), ""), http.StatusOK,
		`{"requests":{"GET /rest/nodes":1,"PUT /rest/nodes/{nodeId}/systems/{systemName}":1}}`)
}

// A rule's generator is seeded from the rule: the same requests meet the same faults, in
// about the share the rate asks for.
func TestFaultRateIsDeterministic(t *testing.T) {
	pattern := func(rule string) string {
		h := faultSim(t, rule).Handler()
		var b strings.Builder
		for range 200 {
			if call(t, h, "GET", admin("/rest/systems"), "").status == 503 {
				b.WriteByte('x')
			} else {
				b.WriteByte('.')
			}
		}
		return b.String()
	}
	a, b := pattern("GET /rest/* status=503 rate=0.3"), pattern("GET /rest/* status=503 rate=0.3")
	if a != b {
		t.Fatalf("same rule, different faults:\n%s\n%s", a, b)
	}
	if n := strings.Count(a, "x"); n < 40 || n > 80 {
		t.Errorf("rate 0.3 gave %d faults in 200", n)
	}
	s1, s2 := pattern("GET /rest/* status=503 rate=0.3 seed=1"), pattern("GET /rest/* status=503 rate=0.3 seed=2")
	if s1 == s2 || s1 != pattern("GET /rest/* status=503 rate=0.3 seed=1") {
		t.Errorf("seeds 1 and 2 give the same faults, or seed 1 differs between runs")
	}
}

// Latencies of triggered rules add up, then the first answering rule decides.
func TestFaultLatency(t *testing.T) {
	h := faultSim(t, "GET /rest/* latency=30ms", "GET /rest/systems latency=30ms", "GET /rest/systems status=504", "GET * latency=1m").Handler()
	start := time.Now()
	expect(t, call(t, h, "GET", admin("/rest/systems"), ""), http.StatusGatewayTimeout, errJSON("GATEWAY_TIMEOUT", "Injected fault"))
	if d := time.Since(start); d < 60*time.Millisecond || d > 30*time.Second {
		t.Errorf("took %s, want 60ms (and not the minute of the rule after the answer)", d)
	}
	// The delay ends with the request's context.
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	req := httptest.NewRequestWithContext(ctx, "GET", admin("/rest/nodes"), nil)
	rec := httptest.NewRecorder()
	start = time.Now()
	h.ServeHTTP(rec, req)
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("a cancelled request waited %s", d)
	}
}

// reset=true drops the connection: the client sees a transport error, not a response.
func TestFaultReset(t *testing.T) {
	srv := httptest.NewServer(faultSim(t, "GET /rest/systems reset=true").Handler())
	defer srv.Close()
	resp, err := http.Get(srv.URL + admin("/rest/systems"))
	if err == nil {
		resp.Body.Close()
		t.Fatalf("got a response %d, want a dropped connection", resp.StatusCode)
	}
	resp, err = http.Get(srv.URL + admin("/rest/nodes"))
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("unmatched request: %v", err)
	}
	resp.Body.Close()
}

func TestFaultAdminPaths(t *testing.T) {
	s := newTestSim(t)
	h := s.Handler()
	expect(t, call(t, h, "GET", admin("/_apmsim/faults"), ""), http.StatusOK, `{"faults":[]}`)
	expect(t, call(t, h, "PUT", admin("/_apmsim/faults"),
		`{"faults":[{"method":"get","path":"/rest/systems","status":503,"rate":0,"retryAfter":"2s","seed":5},"* /meters/* latency=1ms"]}`),
		http.StatusOK, `{"faults":[`+
			`{"rule":"GET /rest/systems status=503 retryAfter=2s seed=5","method":"GET","path":"/rest/systems","status":503,"rate":1,"retryAfter":"2s","seed":5,"matched":0,"fired":0},`+
			`{"rule":"* /meters/* latency=1ms","method":"*","path":"/meters/*","rate":1,"latency":"1ms","matched":0,"fired":0}]}`)
	expect(t, call(t, h, "GET", admin("/rest/systems"), ""), http.StatusServiceUnavailable, "")
	expect(t, call(t, h, "GET", admin("/_apmsim/faults"), ""), http.StatusOK, `{"faults":[`+
		`{"rule":"GET /rest/systems status=503 retryAfter=2s seed=5","method":"GET","path":"/rest/systems","status":503,"rate":1,"retryAfter":"2s","seed":5,"matched":1,"fired":1},`+
		`{"rule":"* /meters/* latency=1ms","method":"*","path":"/meters/*","rate":1,"latency":"1ms","matched":0,"fired":0}]}`)

	// A bad rule changes nothing.
	for _, tc := range []struct{ body, msg string }{
		{`{"faults":[{"method":"GET","path":"/x","status":200}]}`, "fault rule 1 (GET /x status=200): status 200 must be between 400 and 599"},
		{`{"faults":["GET /x status=503","GET /x nope=1"]}`, `fault rule 2: unknown option "nope" (want status, rate, latency, reset, after, retryAfter, times or seed)`},
		{`{"faults":[{"method":"GET","path":"/x","latency":"soon"}]}`, `fault rule 1: latency "soon" is not a duration such as 250ms or 2s`},
		{`{"faults":[42]}`, "fault rule 1: a rule must be an object or a string"},
		{`{"faults":[{"path":"/x","status":503}]}`, `fault rule 1 ( /x status=503): method "" must be an HTTP method or *`},
	} {
		expect(t, call(t, h, "PUT", admin("/_apmsim/faults"), tc.body), http.StatusBadRequest, errJSON(codeBadRequest, tc.msg))
	}
	if got := call(t, h, "GET", admin("/_apmsim/faults"), "").body; !strings.Contains(got, `"matched":1`) {
		t.Errorf("rules changed by a bad PUT: %s", got)
	}
	for _, target := range []string{viewer("/_apmsim/faults"), "/_apmsim/faults"} {
		if got := call(t, h, "DELETE", target, ""); got.status != http.StatusForbidden && got.status != http.StatusUnauthorized {
			t.Errorf("DELETE %s: %d", target, got.status)
		}
	}
	expect(t, call(t, h, "DELETE", admin("/_apmsim/faults"), ""), http.StatusOK, `{"faults":[]}`)
	expect(t, call(t, h, "GET", admin("/rest/systems"), ""), http.StatusOK, "")

	// Even a rule on everything leaves the sim's own paths alone, so it can be undone.
	if err := s.SetFaults(FaultRule{Method: "*", Path: "*", Status: 503}); err != nil {
		t.Fatal(err)
	}
	expect(t, call(t, h, "DELETE", admin("/_apmsim/faults"), ""), http.StatusOK, `{"faults":[]}`)
}

func TestNewRejectsBadFaults(t *testing.T) {
	_, err := New(Options{AdminKey: "k", Faults: []FaultRule{{Method: "GET", Path: "/x", Status: 200}}})
	if err == nil || err.Error() != "apmsim: fault rule 1 (GET /x status=200): status 200 must be between 400 and 599" {
		t.Fatalf("New = %v", err)
	}
}

// Concurrent requests share the rules' generators and counters safely (run with -race),
// and every matching request is counted.
func TestFaultsConcurrent(t *testing.T) {
	s := faultSim(t, "GET /rest/systems status=503 rate=0.5")
	h := s.Handler()
	var wg sync.WaitGroup
	var mu sync.Mutex
	faults := 0
	for range 8 {
		wg.Go(func() {
			for range 25 {
				if call(t, h, "GET", admin("/rest/systems"), "").status == 503 {
					mu.Lock()
					faults++
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	rules := faultsSnapshot(t, s)
	if rules[0].Matched != 200 || rules[0].Fired != int64(faults) || faults == 0 || faults == 200 {
		t.Errorf("matched %d fired %d, saw %d faults", rules[0].Matched, rules[0].Fired, faults)
	}
}

// faultsSnapshot reads the rules as GET /_apmsim/faults shows them.
func faultsSnapshot(t *testing.T, s *Sim) []faultRuleJSON {
	t.Helper()
	for _, ar := range s.areaList {
		if f, ok := ar.(faultsArea); ok {
			return f.st.snapshot()
		}
	}
	t.Fatal(errors.New("no faults area"))
	return nil
}

// Faults come after authentication: in shared CI a caller without the key must neither
// see an injected answer, nor wait out a latency, nor use up a rule's times=N, which would
// take the fault away from the test that set it up. Public paths need no key, so their
// faults still fire.
func TestFaultsComeAfterAuthentication(t *testing.T) {
	h := faultSim(t, "GET /rest/systems status=500 times=1", "GET /rest/nodes latency=1m",
		"GET /rest/public/* status=503 times=1").Handler()
	unauthorized := errJSON(codeUnauthorized, "Unauthorized")
	start := time.Now()
	for _, target := range []string{"/rest/systems", withKey("/rest/systems", "wrong"), "/rest/nodes"} {
		expect(t, call(t, h, "GET", target, ""), http.StatusUnauthorized, unauthorized)
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("requests without a valid key waited %s: the latency rule fired for them", d)
	}
	// The rule's one firing is still there for the caller with the key.
	expect(t, call(t, h, "GET", admin("/rest/systems"), ""), http.StatusInternalServerError, errJSON(codeInternal, injectedFaultMessage))
	expect(t, call(t, h, "GET", admin("/rest/systems"), ""), http.StatusOK, "")
	expect(t, call(t, h, "GET", "/rest/public/managerInfo", ""), http.StatusServiceUnavailable, "")
	got := call(t, h, "GET", admin("/_apmsim/faults"), "").body
	if !strings.Contains(got, `"rule":"GET /rest/systems status=500 times=1","method":"GET","path":"/rest/systems","status":500,"rate":1,"times":1,"matched":2,"fired":1`) {
		t.Errorf("unauthenticated requests were matched against the rules: %s", got)
	}
}
