package apmsim

import (
	"net/http"
	"testing"
)

func TestAuthAndRouting(t *testing.T) {
	h := newTestSim(t, func(o *Options) { o.Seed = SeedDemo }).Handler()
	unauthorized := `{"error":"Unauthorized","code":"UNAUTHORIZED"}`
	forbidden := `{"error":"Access denied","code":"FORBIDDEN"}`
	tests := []struct {
		name, method, target, body string
		status                     int
		want                       string
	}{
		{"no key", "GET", "/rest/systems", "", 401, unauthorized},
		{"empty key", "GET", "/rest/systems?key=", "", 401, unauthorized},
		{"wrong key", "GET", "/rest/systems?key=nope", "", 401, unauthorized},
		{"key prefix is not the key", "GET", "/rest/systems?key=admin", "", 401, unauthorized},
		{"no key on write", "POST", "/rest/systems", `{"systemName":"x"}`, 401, unauthorized},
		{"no key on metrics path", "GET", "/meters/nodes", "", 401, unauthorized},
		{"no key on unknown path", "GET", "/rest/nothing", "", 401, unauthorized},
		{"no key on sim admin path", "GET", "/_apmsim/requests", "", 401, unauthorized},
		{"public path dressed up", "GET", "/rest/public/../systems", "", 401, unauthorized},
		{"viewer reads", "GET", viewer("/rest/systems/batch"), "", 200,
			`{"systemId":"SYS-0002","systemName":"batch","nodes":[]}`},
		{"viewer create", "POST", viewer("/rest/systems"), `{"systemName":"x"}`, 403, forbidden},
		{"viewer rename", "PUT", viewer("/rest/systems/batch"), `{"systemName":"x"}`, 403, forbidden},
		{"viewer delete", "DELETE", viewer("/rest/systems/batch"), "", 403, forbidden},
		{"viewer node write", "POST", viewer("/rest/nodes"), `{}`, 403, forbidden},
		{"viewer sim counts", "GET", viewer("/_apmsim/requests"), "", 403, forbidden},
		{"viewer sim reset", "DELETE", viewer("/_apmsim/requests"), "", 403, forbidden},
		{"public nodes without key", "GET", "/rest/public/nodes", "", 200,
			`{"nodeList":[` +
				`{"nodeId":"ND-9001","nodeName":"dummy-node-01","systemName":"dummy-system","connectionStatus":"connected","ipAddress":"192.0.2.11"},` +
				`{"nodeId":"ND-9002","nodeName":"dummy-node-02","systemName":"dummy-system","connectionStatus":"disconnected","ipAddress":"192.0.2.12"}]}`},
		{"managerInfo without key", "GET", "/rest/public/managerInfo", "", 200,
			`{"version":"1.0.0","patchVersion":"1.0.0.0","status":"running","haMode":false}`},
		{"public path ignores a bad key", "GET", "/rest/public/managerInfo?key=nope", "", 200, ""},
		{"unknown public path", "GET", "/rest/public/nothing", "", 404, errJSON("NOT_FOUND", "Not found: /rest/public/nothing")},
		{"unknown path", "GET", admin("/rest/nothing"), "", 404, errJSON("NOT_FOUND", "Not found: /rest/nothing")},
		{"root", "GET", admin("/"), "", 404, errJSON("NOT_FOUND", "Not found: /")},
		{"empty segment", "GET", admin("/rest/systems/"), "", 404, errJSON("NOT_FOUND", "Not found: /rest/systems/")},
		{"double slash", "GET", admin("/rest//systems"), "", 404, errJSON("NOT_FOUND", "Not found: /rest//systems")},
		{"dot segment", "GET", admin("/rest/x/../systems"), "", 404, errJSON("NOT_FOUND", "Not found: /rest/x/../systems")},
		{"trailing slash", "GET", admin("/rest/systems/"), "", 404, errJSON("NOT_FOUND", "Not found: /rest/systems/")},
		{"public double slash", "GET", "/rest/public//managerInfo", "", 404, errJSON("NOT_FOUND", "Not found: /rest/public//managerInfo")},
		{"viewer wrong method", "PATCH", viewer("/rest/systems"), "", 405,
			errJSON("METHOD_NOT_ALLOWED", "Method not allowed: PATCH /rest/systems")},
		{"viewer unknown path", "POST", viewer("/rest/nothing"), "", 404, errJSON("NOT_FOUND", "Not found: /rest/nothing")},
		{"wrong method", "PATCH", admin("/rest/systems"), "", 405,
			errJSON("METHOD_NOT_ALLOWED", "Method not allowed: PATCH /rest/systems")},
		{"wrong method public", "POST", "/rest/public/managerInfo", "", 405,
			errJSON("METHOD_NOT_ALLOWED", "Method not allowed: POST /rest/public/managerInfo")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			expect(t, call(t, h, tc.method, tc.target, tc.body), tc.status, tc.want)
		})
	}
}

func TestMethodNotAllowedListsMethods(t *testing.T) {
	h := newTestSim(t).Handler()
	got := call(t, h, "POST", admin("/rest/systems/x"), "")
	if got.status != http.StatusMethodNotAllowed {
		t.Fatalf("status %d", got.status)
	}
	if allow := got.header.Get("Allow"); allow != "DELETE, GET, HEAD, PUT" {
		t.Fatalf("Allow = %q", allow)
	}
}

func TestHandlerPanicIsJSON500(t *testing.T) {
	s, err := newSim(Options{AdminKey: testAdminKey}, func(*Sim) area { return panicArea{} })
	if err != nil {
		t.Fatal(err)
	}
	expect(t, call(t, s.Handler(), "GET", admin("/rest/panic"), ""), 500,
		errJSON("INTERNAL_ERROR", "internal error: boom"))
}

type panicArea struct{}

func (panicArea) register(r *router) {
	r.handle("GET /rest/panic", func(http.ResponseWriter, *http.Request) { panic("boom") })
}

func TestNewRejectsBadOptions(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts Options
		want string
	}{
		{"no admin key", Options{}, "apmsim: AdminKey is required"},
		{"same keys", Options{AdminKey: "k", ViewerKey: "k"}, "apmsim: ViewerKey must differ from AdminKey"},
		{"unknown seed", Options{AdminKey: "k", Seed: "full"}, `apmsim: unknown seed "full" (want "empty" or "demo")`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := New(tc.opts)
			if err == nil || err.Error() != tc.want {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

func TestRequestCounts(t *testing.T) {
	s := newTestSim(t)
	h := s.Handler()
	createSystem(t, h, "a")
	call(t, h, "GET", admin("/rest/systems"), "")
	call(t, h, "GET", viewer("/rest/systems"), "")
	call(t, h, "HEAD", viewer("/rest/systems"), "")
	call(t, h, "GET", admin("/rest/systems/a"), "")
	call(t, h, "GET", admin("/rest/systems/missing"), "") // a 404 from the handler still counts
	call(t, h, "GET", "/rest/public/managerInfo", "")
	// Neither rejected nor unrouted requests count.
	call(t, h, "GET", "/rest/systems", "")
	call(t, h, "POST", viewer("/rest/systems"), `{"systemName":"b"}`)
	call(t, h, "GET", admin("/rest/nothing"), "")

	want := map[string]int{
		"POST /rest/systems":             1,
		"GET /rest/systems":              3,
		"GET /rest/systems/{systemName}": 2,
		"GET /rest/public/managerInfo":   1,
	}
	got := s.RequestCounts()
	if len(got) != len(want) {
		t.Fatalf("counts = %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Fatalf("counts[%q] = %d, want %d (all: %v)", k, got[k], v, got)
		}
	}

	// Over HTTP; reading does not count itself.
	expect(t, call(t, h, "GET", admin("/_apmsim/requests"), ""), 200,
		`{"requests":{"GET /rest/public/managerInfo":1,"GET /rest/systems":3,"GET /rest/systems/{systemName}":2,"POST /rest/systems":1}}`)
	expect(t, call(t, h, "DELETE", admin("/_apmsim/requests"), ""), 200, `{"requests":{}}`)
	expect(t, call(t, h, "GET", admin("/_apmsim/requests"), ""), 200, `{"requests":{}}`)

	call(t, h, "GET", admin("/rest/nodes"), "")
	if got := s.RequestCounts(); len(got) != 1 || got["GET /rest/nodes"] != 1 {
		t.Fatalf("after reset: %v", got)
	}
	s.ResetRequestCounts()
	if got := s.RequestCounts(); len(got) != 0 {
		t.Fatalf("after ResetRequestCounts: %v", got)
	}
}
