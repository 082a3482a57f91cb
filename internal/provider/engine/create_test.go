package engine

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

func TestDifferencesNameWhatTheManagerHasOtherwise(t *testing.T) {
	r := &Resource[testNode, struct{}]{Type: testNodeType}
	plan := Attrs{
		"system_id":  tftypes.NewValue(tftypes.String, "s-1"),
		"name":       tftypes.NewValue(tftypes.String, "web-01"),
		"host_ip":    tftypes.NewValue(tftypes.String, "::1"),
		"agent_port": Int64Value(7730),
		"node_id":    tftypes.NewValue(tftypes.String, tftypes.UnknownValue),
	}
	same := &testNode{Name: "web-01", HostIP: "0:0::1", AgentPort: 7730, NodeID: "n-9", SystemID: "s-1"}
	if diffs := r.differences(plan, same); len(diffs) != 0 {
		t.Errorf("another spelling of the address and the manager's own id are no difference: %v", diffs)
	}
	other := &testNode{Name: "web-01", HostIP: "10.0.0.9", AgentPort: 7731, SystemID: "s-1"}
	got := strings.Join(r.differences(plan, other), "; ")
	for _, want := range []string{`host_ip is "10.0.0.9" in the manager and "::1" in the configuration`, "agent_port is 7731 in the manager and 7730 in the configuration"} {
		if !strings.Contains(got, want) {
			t.Errorf("differences = %q, want it to contain %q", got, want)
		}
	}
}

// A delete the manager keeps refusing gives up at its timeout and says which setting to
// raise, and that a new value takes effect only once an apply has recorded it.
func TestBlockedDeleteSaysHowToRaiseItsTimeout(t *testing.T) {
	r := &Resource[testNode, struct{}]{Type: &ResourceType[testNode, struct{}]{
		Name: "node", DeleteTimeout: time.Minute,
		Describe: func(Attrs) string { return "node" },
		Delete:   func(context.Context, struct{}, Attrs) error { return apm.NewConflict("node still has servers") },
	}}
	_, err := r.deleteWaiting(context.Background(), struct{}{}, Attrs{}, 50*time.Millisecond, false)
	for _, want := range []string{"gave up after 50ms", "node still has servers", "raise timeouts.delete", "apply once with the new value"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v, want it to say %q", err, want)
		}
	}
}

// A create that meets its object (409, already exists) says both ways out: without
// create_before_destroy when it is a replacement, else an import with a working ID; a
// create that meets another conflict (a port in use) offers no import.
func TestCreateErrorAdviceFitsTheConflict(t *testing.T) {
	r := &Resource[testNode, struct{}]{Type: testNodeType}
	r.Type.ImportID = ImportID[struct{}]{Parts: []IDPart[struct{}]{{Attr: "system_id", Form: "<system>"}, {Attr: "name", Form: "<name>"}}, Example: "shop/web-01"}
	plan := Attrs{"system_id": str("S1"), "name": str("web-01")}
	exists := r.CreateError(plan, apm.NewConflict("Node already exists: web-01")).Detail()
	for _, want := range []string{"create_before_destroy", "S1/web-01", "<system>/<name>", `id = "S1/web-01"`, "adopt_existing"} {
		if !strings.Contains(exists, want) {
			t.Errorf("advice %q, want it to say %q", exists, want)
		}
	}
	port := r.CreateError(plan, apm.NewConflict("Port 8080 is already used by was-1 on node web-01")).Detail()
	if strings.Contains(port, "import") || !strings.Contains(port, "Choose a free port") {
		t.Errorf("a port conflict is no import case: %q", port)
	}
}

// A create whose answer was lost while the manager went down finds out what became of it
// once the manager is back, instead of recording the object tainted at the first failed
// look-up: the next apply replaced the object, which the manager had (issue 31; the chaos
// outage round tainted 8 servers of 29). It looks again only while the manager is out of
// reach and within the create's time; past it, or when the manager refuses the look-up,
// the outcome stays unknown and the object is recorded with an error (tainted).
func TestCreateLooksUpThroughAnOutage(t *testing.T) {
	lost := lostCreate(t)
	down := &apm.TransportError{Method: "GET", Path: "/nodes/web-01", Attempts: 5, Err: errors.New("dial tcp: connection refused")}
	forbidden := &apm.Error{StatusCode: http.StatusForbidden, Message: "forbidden"}
	plan := Attrs{
		"id": str("s-1/web-01"), "system_id": str("s-1"), "name": str("web-01"), "host_ip": str("::1"), "agent_port": Int64Value(7730),
		"node_id": tftypes.NewValue(tftypes.String, tftypes.UnknownValue),
	}
	for _, tc := range []struct {
		name      string
		failures  int // look-ups that fail before the manager answers
		lookErr   error
		bound     time.Duration // the create's time
		wantReads int           // 0: at least two
		wantError string        // "": recovered, without an error
	}{
		{"the manager back", 1, down, time.Minute, 2, ""},
		{"down past the create's time", 1000, down, 1500 * time.Millisecond, 0, "Outcome of the create of node unknown"},
		{"a refused look-up", 1000, forbidden, time.Minute, 1, "Outcome of the create of node unknown"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			reads, creates := 0, 0
			typ := *testNodeType
			typ.Create = func(context.Context, struct{}, Attrs) error { creates++; return lost }
			typ.Read = func(context.Context, struct{}, Attrs) (*testNode, error) {
				if reads++; reads <= tc.failures {
					return nil, tc.lookErr
				}
				return &testNode{SystemID: "s-1", Name: "web-01", HostIP: "::1", AgentPort: 7730, NodeID: "n-9"}, nil
			}
			r := &Resource[testNode, struct{}]{Type: &typ}
			ctx, cancel := context.WithTimeout(context.Background(), tc.bound)
			defer cancel()
			state, diags := r.create(ctx, struct{}{}, ObjectType(typ.Fields), plan)
			if state.IsNull() || creates != 1 {
				t.Fatalf("state %v after %d creates, want the object recorded after one create", state, creates)
			}
			if (tc.wantReads > 0 && reads != tc.wantReads) || (tc.wantReads == 0 && reads < 2) {
				t.Errorf("%d look-ups, want %d (0: at least 2)", reads, tc.wantReads)
			}
			if tc.wantError == "" {
				a, _ := AttrsOf(state)
				if diags.HasError() || a.Str("node_id") != "n-9" {
					t.Errorf("recorded %v with %v; want the manager's object and no error (an error taints it)", state, diags)
				}
				return
			}
			if !diags.HasError() || !strings.Contains(diags[0].Summary(), tc.wantError) {
				t.Errorf("diagnostics %v, want the error %q", diags, tc.wantError)
			}
		})
	}
}

// lostCreate is the client's error for a create whose answer the manager lost: it read
// the request, then broke the connection.
func lostCreate(t *testing.T) error {
	t.Helper()
	manager := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
			_ = conn.Close()
		}
	}))
	defer manager.Close()
	client, err := apm.New(apm.Config{Endpoint: manager.URL, APIKey: "key"})
	if err != nil {
		t.Fatal(err)
	}
	err = client.CreateSystem(context.Background(), "shop")
	if !apm.OutcomeUnknown(err) {
		t.Fatalf("the create's error %v is no lost answer", err)
	}
	return err
}

// An object that the walk showed to be outside the configuration (its refresh read the
// state, not this object) is advised an import and nothing else; one that may be the
// object being replaced with create_before_destroy is explained so first, and an import
// is offered only for an object that the state does not list.
func TestExistsAdviceImportsOnlyWhatNoResourceManages(t *testing.T) {
	r := &Resource[testNode, struct{}]{Type: testNodeType}
	r.Type.ImportID = ImportID[struct{}]{Parts: []IDPart[struct{}]{{Attr: "system_id", Form: "<system>"}, {Attr: "name", Form: "<name>"}}, Example: "shop/web-01"}
	plan := Attrs{"system_id": str("S1"), "name": str("web-01")}
	outside := r.existsAdvice(plan, true)
	if !strings.HasPrefix(outside, "It was created outside this configuration. To manage it with Terraform, import it") || strings.Contains(outside, "create_before_destroy") {
		t.Errorf("outside the state: %q", outside)
	}
	maybeReplaced := r.existsAdvice(plan, false)
	gate := strings.Index(maybeReplaced, "Only if `terraform state list -id=S1/web-01` lists no resource")
	if gate < 0 || strings.Contains(maybeReplaced[:gate], "import") || !strings.Contains(maybeReplaced[:gate], "the object found is the one being replaced") {
		t.Errorf("maybe the object being replaced: %q", maybeReplaced)
	}
}
