package apmsimtest

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/apmsim"
)

func getJSON(t *testing.T, c *http.Client, url string, v any) int {
	t.Helper()
	resp, err := c.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if v != nil {
		if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
			t.Fatal(err)
		}
	}
	return resp.StatusCode
}

func TestStart(t *testing.T) {
	srv := Start(t, WithSeed(apmsim.SeedDemo))
	if !strings.HasPrefix(srv.URL, "http://127.0.0.1:") || len(srv.AdminKey) != 32 || len(srv.ViewerKey) != 32 || srv.AdminKey == srv.ViewerKey {
		t.Fatalf("server %+v", srv)
	}
	var out struct {
		Systems []struct{ SystemName string }
	}
	if code := getJSON(t, http.DefaultClient, srv.URL+"/rest/systems?key="+srv.ViewerKey, &out); code != 200 {
		t.Fatalf("status %d", code)
	}
	if len(out.Systems) != 2 || out.Systems[0].SystemName != "batch" || out.Systems[1].SystemName != "shop" {
		t.Fatalf("systems %+v", out.Systems)
	}
	if code := getJSON(t, http.DefaultClient, srv.URL+"/rest/systems?key=wrong", nil); code != 401 {
		t.Fatalf("wrong key: status %d", code)
	}
	if n := srv.Sim.RequestCounts()["GET /rest/systems"]; n != 1 {
		t.Fatalf("count %d", n)
	}
}

func TestStartEmptyByDefault(t *testing.T) {
	srv := Start(t, func(o *apmsim.Options) { o.AdminKey = "fixed" })
	if srv.AdminKey != "fixed" {
		t.Fatalf("AdminKey %q", srv.AdminKey)
	}
	var out struct{ Systems []any }
	getJSON(t, http.DefaultClient, srv.URL+"/rest/systems?key=fixed", &out)
	if out.Systems == nil || len(out.Systems) != 0 {
		t.Fatalf("systems %v", out.Systems)
	}
}

func TestStartTLS(t *testing.T) {
	srv, caPEM := StartTLS(t)
	if !strings.HasPrefix(srv.URL, "https://127.0.0.1:") {
		t.Fatalf("URL %s", srv.URL)
	}
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM([]byte(caPEM)) {
		t.Fatal("bad CA PEM")
	}
	c := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots}}}
	defer c.CloseIdleConnections()
	var info struct{ Version, Status string }
	if code := getJSON(t, c, srv.URL+"/rest/public/managerInfo", &info); code != 200 || info.Version != apmsim.ManagerVersion || info.Status != "running" {
		t.Fatalf("status %d info %+v", code, info)
	}
}

// The client of the package example works against both kinds of manager: with the terse
// one the node's id is its name, otherwise the generated id, and either is what PUT takes.
func TestClientAgainstTerseAndFullManager(t *testing.T) {
	for name, tc := range map[string]struct {
		opts   []func(*apmsim.Options)
		wantID string
	}{
		"full":  {[]func(*apmsim.Options){WithSeed(apmsim.SeedDemo)}, "ND-0002"},
		"terse": {[]func(*apmsim.Options){WithSeed(apmsim.SeedDemo), WithOmitOptionalFields()}, "app-01"},
	} {
		t.Run(name, func(t *testing.T) {
			srv := Start(t, tc.opts...)
			client, err := apm.New(apm.Config{Endpoint: srv.URL, APIKey: srv.AdminKey})
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			n, err := client.GetNode(ctx, "shop", "app-01")
			if err != nil || n.NodeID != tc.wantID {
				t.Fatalf("node %+v, err %v; want nodeId %s", n, err, tc.wantID)
			}
			if err := client.UpdateNode(ctx, "shop", n.NodeID, apm.UpdateNodeRequest{AgentPort: 7799}); err != nil {
				t.Fatal(err)
			}
			if err := client.DeleteNode(ctx, "shop", n.NodeID); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// handClock is a clock the test moves by hand.
type handClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *handClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *handClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// startSession01 starts the demo's session-01 through the client and returns a function
// that reads its status.
func startSession01(t *testing.T, srv *Server) func() string {
	t.Helper()
	client, err := apm.New(apm.Config{Endpoint: srv.URL, APIKey: srv.AdminKey})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	ref := apm.ServerRef{Kind: apm.KindSession, ServerID: "session-01", NodeName: "web-01", SystemName: "shop"}
	if err := client.StartServer(ctx, ref); err != nil {
		t.Fatal(err)
	}
	return func() string {
		t.Helper()
		sv, err := client.GetServer(ctx, ref)
		if err != nil {
			t.Fatal(err)
		}
		return sv.Status
	}
}

// A started server stays "starting" for the transition delay: exactly so with a clock
// the test moves, about so with the real one, not at all with a negative delay.
func TestWithTransitionDelay(t *testing.T) {
	t.Run("hand clock", func(t *testing.T) {
		clock := &handClock{t: time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)}
		srv := Start(t, WithSeed(apmsim.SeedDemo), WithClock(clock.now), WithTransitionDelay(time.Minute))
		status := startSession01(t, srv)
		for _, step := range []struct {
			advance time.Duration
			want    string
		}{{0, "starting"}, {59 * time.Second, "starting"}, {time.Second - time.Nanosecond, "starting"}, {time.Nanosecond, "running"}} {
			clock.advance(step.advance)
			if got := status(); got != step.want {
				t.Fatalf("at %s: status %s, want %s", clock.now().Format(time.TimeOnly+".000000000"), got, step.want)
			}
		}
	})
	t.Run("real clock", func(t *testing.T) {
		const delay = 300 * time.Millisecond
		srv := Start(t, WithSeed(apmsim.SeedDemo), WithTransitionDelay(delay))
		began := time.Now()
		status := startSession01(t, srv)
		if got := status(); got != "starting" && time.Since(began) < delay {
			t.Fatalf("status %s right after the start", got)
		}
		for status() == "starting" {
			if time.Since(began) > delay+10*time.Second {
				t.Fatalf("still starting after %s", time.Since(began))
			}
			time.Sleep(10 * time.Millisecond)
		}
		if elapsed := time.Since(began); elapsed < delay {
			t.Fatalf("running after %s, before the delay of %s", elapsed, delay)
		}
		if got := status(); got != "running" {
			t.Fatalf("status %s after starting", got)
		}
	})
	t.Run("negative", func(t *testing.T) {
		srv := Start(t, WithSeed(apmsim.SeedDemo), WithTransitionDelay(-1))
		if got := startSession01(t, srv)(); got != "running" {
			t.Fatalf("status %s, want running at once", got)
		}
	})
}
