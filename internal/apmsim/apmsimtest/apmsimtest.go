// Package apmsimtest starts an apmsim server for the tests of other
// packages (the API client, the provider's acceptance tests):
//
//	srv := apmsimtest.Start(t, apmsimtest.WithSeed(apmsim.SeedDemo))
//	client, err := apm.New(apm.Config{Endpoint: srv.URL, APIKey: srv.AdminKey})
package apmsimtest

import (
	"crypto/rand"
	"encoding/hex"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/apmplatform/terraform-provider-apm/internal/apmsim"
)

// Server is a running sim. URL has no trailing slash.
type Server struct {
	URL       string
	AdminKey  string
	ViewerKey string
	Sim       *apmsim.Sim
}

// Start serves a new sim over plain HTTP until the test ends. It has fresh
// random admin and viewer keys and the empty seed unless an option says
// otherwise; options see the defaults and may override any field.
func Start(t testing.TB, opts ...func(*apmsim.Options)) *Server {
	t.Helper()
	s, hs := newServer(t, opts)
	hs.Start()
	s.URL = hs.URL
	return s
}

// StartTLS is Start over HTTPS with a certificate from a fresh CA, valid
// for 127.0.0.1, ::1 and localhost. It returns the CA in PEM for the
// client's trust store.
func StartTLS(t testing.TB, opts ...func(*apmsim.Options)) (*Server, string) {
	t.Helper()
	cfg, caPEM, err := apmsim.SelfSignedTLS(nil)
	if err != nil {
		t.Fatalf("apmsimtest: %v", err)
	}
	s, hs := newServer(t, opts)
	hs.TLS = cfg
	hs.StartTLS()
	s.URL = hs.URL
	return s, string(caPEM)
}

func newServer(t testing.TB, opts []func(*apmsim.Options)) (*Server, *httptest.Server) {
	t.Helper()
	o := apmsim.Options{AdminKey: randomKey(t), ViewerKey: randomKey(t), Seed: apmsim.SeedEmpty}
	for _, opt := range opts {
		opt(&o)
	}
	sim, err := apmsim.New(o)
	if err != nil {
		t.Fatalf("apmsimtest: %v", err)
	}
	hs := httptest.NewUnstartedServer(sim.Handler())
	t.Cleanup(hs.Close)
	return &Server{AdminKey: o.AdminKey, ViewerKey: o.ViewerKey, Sim: sim}, hs
}

// WithSeed selects the seed, e.g. apmsim.SeedDemo.
func WithSeed(seed string) func(*apmsim.Options) {
	return func(o *apmsim.Options) { o.Seed = seed }
}

// WithStateFile persists the sim's state to path.
func WithStateFile(path string) func(*apmsim.Options) {
	return func(o *apmsim.Options) { o.StateFile = path }
}

// WithClock fixes the sim's clock.
func WithClock(now func() time.Time) func(*apmsim.Options) {
	return func(o *apmsim.Options) { o.Clock = now }
}

// WithTransitionDelay sets how long a started or stopped server stays "starting" or
// "stopping": 0 means apmsim.DefaultTransitionDelay (200 ms), negative means no delay at
// all (a server is "running" or "stopped" at once).
func WithTransitionDelay(d time.Duration) func(*apmsim.Options) {
	return func(o *apmsim.Options) { o.TransitionDelay = d }
}

// WithOmitOptionalFields makes a terse manager, one that leaves out the optional and
// assumption fields of api/decisions.md (node detail nodeId and so on; node ids are then
// the node names), to test that a client copes without them.
func WithOmitOptionalFields() func(*apmsim.Options) {
	return func(o *apmsim.Options) { o.OmitOptionalFields = true }
}

func randomKey(t testing.TB) string {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		t.Fatalf("apmsimtest: %v", err)
	}
	return hex.EncodeToString(b)
}
