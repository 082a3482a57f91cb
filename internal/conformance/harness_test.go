package conformance

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/apmsim"
)

const (
	adminKey  = "conformance-admin-key"
	viewerKey = "conformance-viewer-key"
)

// endpointCase drives one endpoint through its typed client method against a fresh
// demo-seeded emulator. call must succeed; the harness then checks that the request
// reached exactly the endpoint's route.
type endpointCase struct {
	route string // as in specEndpoints
	call  func(ctx context.Context, c *apm.Client) error
}

// endpointCases is filled by one file per area (systems_test.go, servers_test.go, ...).
var endpointCases = map[string]endpointCase{}

// addCases registers cases; duplicate routes are a test bug and panic at start. The
// result lets each area file register its cases in a package-level var.
//
//nolint:unparam // always true, by design
func addCases(cases ...endpointCase) bool {
	for _, c := range cases {
		if _, dup := endpointCases[c.route]; dup {
			panic("conformance: two cases for " + c.route)
		}
		endpointCases[c.route] = c
	}
	return true
}

// fixture is one emulator with clients for both keys.
type fixture struct {
	sim    *apmsim.Sim
	admin  *apm.Client
	viewer *apm.Client
}

// newFixture starts a demo-seeded emulator; every area's seed is there to be used.
func newFixture(t *testing.T) *fixture {
	t.Helper()
	return newFixtureWithClock(t, nil)
}

func newClient(t *testing.T, url, key string) *apm.Client {
	t.Helper()
	c, err := apm.New(apm.Config{Endpoint: url, APIKey: key, MaxRetries: 0})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestSpecListsEightyOneEndpoints(t *testing.T) {
	if len(specEndpoints) != 81 {
		t.Errorf("specEndpoints has %d entries, the spec has 81", len(specEndpoints))
	}
	seen := map[string]bool{}
	for _, e := range specEndpoints {
		if seen[e] {
			t.Errorf("%s listed twice", e)
		}
		seen[e] = true
	}
}

// Every endpoint of the spec has an emulator route, and the emulator serves nothing else.
func TestEmulatorServesExactlyTheSpec(t *testing.T) {
	routes := newFixture(t).sim.Routes()
	for _, e := range specEndpoints {
		if !slices.Contains(routes, e) {
			t.Errorf("emulator has no route for %s", e)
		}
	}
	for _, r := range routes {
		if !slices.Contains(specEndpoints, r) {
			t.Errorf("emulator serves %s, which is not in the spec", r)
		}
	}
}

// Every endpoint has a client method that reaches exactly its route and succeeds.
func TestClientCoversEveryEndpoint(t *testing.T) {
	covered := 0
	for _, route := range specEndpoints {
		c, ok := endpointCases[route]
		if !ok {
			t.Errorf("no client case for %s", route)
			continue
		}
		t.Run(route, func(t *testing.T) {
			f := newFixture(t)
			if err := c.call(context.Background(), f.admin); err != nil {
				t.Fatalf("call failed: %v", err)
			}
			counts := f.sim.RequestCounts()
			if counts[route] != 1 {
				t.Fatalf("route %s counted %d requests, want 1 (all counts: %v)", route, counts[route], counts)
			}
		})
		covered++
	}
	t.Logf("%d of %d endpoints covered by a client method", covered, len(specEndpoints))
}

// Helpers shared by the area files.

func ptr[T any](v T) *T { return &v }

// newFixtureWithClock is newFixture with a clock of the test's choosing (nil: the real one).
func newFixtureWithClock(t *testing.T, clock func() time.Time) *fixture {
	t.Helper()
	return newFixtureWithOptions(t, func(o *apmsim.Options) { o.Clock = clock })
}

// newTerseFixture is newFixture against a terse manager: no optional or assumption fields.
func newTerseFixture(t *testing.T) *fixture {
	t.Helper()
	return newFixtureWithOptions(t, func(o *apmsim.Options) { o.OmitOptionalFields = true })
}

// newFixtureWithOptions starts a demo-seeded emulator with the fixture's keys, after mod
// has changed the options.
func newFixtureWithOptions(t *testing.T, mod func(*apmsim.Options)) *fixture {
	t.Helper()
	opts := apmsim.Options{AdminKey: adminKey, ViewerKey: viewerKey, Seed: apmsim.SeedDemo}
	mod(&opts)
	sim, err := apmsim.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(sim.Handler())
	t.Cleanup(srv.Close)
	return &fixture{sim: sim, admin: newClient(t, srv.URL, adminKey), viewer: newClient(t, srv.URL, viewerKey)}
}

// rawGet reads path (which may carry a query) with a plain request, bypassing the
// client, and returns the status and the raw body.
func rawGet(t *testing.T, sim *apmsim.Sim, path, key string) (int, []byte) {
	t.Helper()
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	req := httptest.NewRequest(http.MethodGet, path+sep+"key="+url.QueryEscape(key), nil)
	rec := httptest.NewRecorder()
	sim.Handler().ServeHTTP(rec, req)
	return rec.Code, rec.Body.Bytes()
}

// jsonShape describes a JSON object as "name:kind" of each field, sorted, where kind is
// string, number, bool, array, object or null.
func jsonShape(obj map[string]any) string {
	var fields []string
	for k, v := range obj {
		kind := "null"
		switch v.(type) {
		case string:
			kind = "string"
		case float64:
			kind = "number"
		case bool:
			kind = "bool"
		case []any:
			kind = "array"
		case map[string]any:
			kind = "object"
		}
		fields = append(fields, k+":"+kind)
	}
	sort.Strings(fields)
	return strings.Join(fields, " ")
}

// shapeCase is a read endpoint with the exact shape of its body: the wrapper key ("" for
// a plain object) and the fields of the object or of every list element.
type shapeCase struct {
	path, wrapper, fields string
}

// checkShapes reads each path with the given key and compares the body's shape.
func checkShapes(t *testing.T, sim *apmsim.Sim, cases []shapeCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.path, func(t *testing.T) {
			status, body := rawGet(t, sim, tc.path, viewerKey)
			if status != http.StatusOK {
				t.Fatalf("status %d: %s", status, body)
			}
			var obj map[string]any
			if err := json.Unmarshal(body, &obj); err != nil {
				t.Fatalf("not a JSON object: %s", body)
			}
			objects := []map[string]any{obj}
			if tc.wrapper != "" {
				items, ok := obj[tc.wrapper].([]any)
				if len(obj) != 1 || !ok || len(items) == 0 {
					t.Fatalf("want only a non-empty array under %q, got %s", tc.wrapper, body)
				}
				objects = objects[:0]
				for _, it := range items {
					m, _ := it.(map[string]any)
					objects = append(objects, m)
				}
			}
			for _, o := range objects {
				if got := jsonShape(o); got != tc.fields {
					t.Errorf("fields\n got %s\nwant %s", got, tc.fields)
				}
			}
		})
	}
}

// checkElementShapes reads path and compares the shape of what its field holds: each
// element of an array of objects, or the object itself. An empty array or a missing field
// fails, since then nothing would be checked.
func checkElementShapes(t *testing.T, sim *apmsim.Sim, path, field, fields string) {
	t.Helper()
	status, body := rawGet(t, sim, path, viewerKey)
	var obj map[string]any
	if status != http.StatusOK || json.Unmarshal(body, &obj) != nil {
		t.Fatalf("GET %s: status %d, body %s", path, status, body)
	}
	var objects []any
	switch v := obj[field].(type) {
	case []any:
		objects = v
	case map[string]any:
		objects = []any{v}
	}
	if len(objects) == 0 {
		t.Fatalf("GET %s: no object under %q to check: %s", path, field, body)
	}
	for _, o := range objects {
		m, _ := o.(map[string]any)
		if got := jsonShape(m); got != fields {
			t.Errorf("GET %s, %s element:\n got %s\nwant %s", path, field, got, fields)
		}
	}
}

// wantErr is what a failed call must report.
type wantErr struct {
	status int
	code   string
	msg    string
}

// checkErr compares err with want; want.status 0 means the call must succeed.
func checkErr(t *testing.T, err error, want wantErr) {
	t.Helper()
	if want.status == 0 {
		if err != nil {
			t.Fatalf("unexpected error: %v", err)
		}
		return
	}
	var e *apm.Error
	if !errors.As(err, &e) {
		t.Fatalf("err = %v, want %d %s %q", err, want.status, want.code, want.msg)
	}
	if e.StatusCode != want.status || e.Code != want.code || e.Message != want.msg {
		t.Fatalf("error = %d %s %q, want %d %s %q", e.StatusCode, e.Code, e.Message, want.status, want.code, want.msg)
	}
}

// settableClock is a settable clock, safe for concurrent requests.
type settableClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *settableClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *settableClock) set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = t
}
