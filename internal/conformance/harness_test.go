package conformance

import (
	"context"
	"net/http/httptest"
	"slices"
	"testing"

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
	sim, err := apmsim.New(apmsim.Options{AdminKey: adminKey, ViewerKey: viewerKey, Seed: apmsim.SeedDemo})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(sim.Handler())
	t.Cleanup(srv.Close)
	return &fixture{sim: sim, admin: newClient(t, srv.URL, adminKey), viewer: newClient(t, srv.URL, viewerKey)}
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
