package conformance

import (
	"slices"
	"testing"

	"github.com/apmplatform/terraform-provider-apm/api"
)

// specEndpoints is written out by hand; the endpoints read from api/rest-interface.md
// itself (which api/coverage.md is checked against) must be the same, in the same order,
// so that what conformance proves of apmsim and the client is proved of the spec's list.
func TestSpecEndpointsAreTheInterfaceTables(t *testing.T) {
	endpoints, err := api.Endpoints()
	if err != nil {
		t.Fatal(err)
	}
	routes := make([]string, 0, len(endpoints))
	for _, e := range endpoints {
		routes = append(routes, e.Route)
	}
	if !slices.Equal(routes, specEndpoints) {
		for i := range max(len(routes), len(specEndpoints)) {
			var got, want string
			if i < len(routes) {
				got = routes[i]
			}
			if i < len(specEndpoints) {
				want = specEndpoints[i]
			}
			if got != want {
				t.Errorf("endpoint %d: api/rest-interface.md has %q, specEndpoints %q", i+1, got, want)
			}
		}
	}
}
