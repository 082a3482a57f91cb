package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// The rules by which a read chooses each value of the state (fieldValue).
func TestFieldValueRules(t *testing.T) {
	null := tftypes.NewValue(tftypes.String, nil)
	type server struct{ Status, Edition string }
	obj := &server{Status: "Running", Edition: "Standard"}
	status := StringField("state", "", func(s *server) string { return strings.ToLower(s.Status) })
	sameEdition := func(prior, fresh string) bool { return prior[:1] == fresh[:1] }
	reported := false
	cases := []struct {
		name      string
		f         Field[server]
		old       tftypes.Value
		importing bool
		want      tftypes.Value
	}{
		{"a managed value is the manager's", status.Input(), str("stopped"), false, str("running")},
		{"an optional input left out stays null", status.OptionalInput(), null, false, null},
		{"an optional input set is the manager's", status.OptionalInput(), str("stopped"), false, str("running")},
		{"an import records an optional input", status.OptionalInput(), null, true, str("running")},
		{"an unread input keeps what was applied", InputField[server]("mode", "", tftypes.String), str("install"), false, str("install")},
		{"an unread input is null after an import", InputField[server]("mode", "", tftypes.String), null, true, null},
		{"an unread bool takes its default after an import", InputField[server]("force", "", tftypes.Bool).WithDefault(false),
			tftypes.NewValue(tftypes.Bool, nil), true, tftypes.NewValue(tftypes.Bool, false)},
		{"a write-only input is never recorded", InputField[server]("key", "", tftypes.String).writeOnlyInput(), str("secret"), false, null},
		{"a field not reported keeps what was applied", status.Input().ReportedWhen(func(*server) bool { return reported }), str("stopped"), false, str("stopped")},
		{"another spelling keeps the prior one", StringField("server_type", "", func(s *server) string { return s.Edition }).SameString(sameEdition),
			str("S"), false, str("S")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := c.f.fieldValue(c.f.typ, obj, c.old, true, c.importing)
			if !got.Equal(c.want) {
				t.Errorf("got %v, want %v", got, c.want)
			}
		})
	}
}

// Import IDs whose parts span several pieces, or the rest of the ID.
func TestIdentityPartsSpanPieces(t *testing.T) {
	type conn struct{}
	nodePart := IDPart[conn]{Attr: "node_id", Form: "<system>/<node>", Pieces: 2}
	server := ImportID[conn]{Parts: []IDPart[conn]{nodePart, {Attr: "server_id", Form: "<server_id>"}}, Example: "shop/app-01/was-1"}
	got, err := server.Parse("shop/app-01/was-1")
	if err != nil || strings.Join(got, "|") != "shop/app-01|was-1" {
		t.Errorf("parse = %q, %v", got, err)
	}
	for _, bad := range []string{"shop/app-01", "shop/app-01/was-1/x", "shop//was-1", ""} {
		if _, err := server.Parse(bad); err == nil || !strings.Contains(err.Error(), "<system>/<node>/<server_id>") {
			t.Errorf("parse(%q) = %v, want an error giving the format", bad, err)
		}
	}
	serverPart := IDPart[conn]{Attr: "was_server_id", Form: "<system>/<node>/<server_id>", Pieces: 3}
	app := ImportID[conn]{Parts: []IDPart[conn]{serverPart, {Attr: "context_path", Form: "<context_path>", Rest: true}}, Example: "shop/app-01/was-1//shop"}
	got, err = app.Parse("shop/app-01/was-1//shop/v2")
	if err != nil || strings.Join(got, "|") != "shop/app-01/was-1|/shop/v2" {
		t.Errorf("parse = %q, %v", got, err)
	}
	// The root context's id, <was_server_id>/, is its import ID: the rest is empty.
	got, err = app.Parse("shop/app-01/was-1/")
	if err != nil || strings.Join(got, "|") != "shop/app-01/was-1|" {
		t.Errorf("parse of the root context's id = %q, %v", got, err)
	}
	for _, bad := range []string{"shop/app-01/was-1", "shop//was-1/shop"} {
		if _, err := app.Parse(bad); err == nil {
			t.Errorf("parse(%q) succeeded, want an error giving the format", bad)
		}
	}
}

// A settle that succeeded is recorded even when the object cannot be read afterwards: the
// running state is the plan's, not the one read before the start (which Terraform would
// take for an inconsistent result, and taint a server that runs).
func TestSettledKeepsWhatSettleBroughtWhenTheReadFails(t *testing.T) {
	type thing struct{ Status string }
	r := &Resource[thing, struct{}]{Type: &ResourceType[thing, struct{}]{
		Name:     "thing",
		Fields:   []Field[thing]{StringField("state", "", func(x *thing) string { return x.Status }).OptionalInput().AppliedBySettle()},
		Describe: func(Attrs) string { return "thing" },
		Settle:   func(context.Context, struct{}, Attrs) error { return nil },
		Read:     func(context.Context, struct{}, Attrs) (*thing, error) { return nil, errors.New("502 Bad Gateway") },
	}}
	typ := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"state": tftypes.String}}
	before := tftypes.NewValue(typ, map[string]tftypes.Value{"state": tftypes.NewValue(tftypes.String, "stopped")})
	plan := Attrs{"state": tftypes.NewValue(tftypes.String, "running")}
	var diags diag.Diagnostics
	got := r.settled(context.Background(), context.Background(), struct{}{}, typ, plan, before, "create", &diags)
	a, err := AttrsOf(got)
	if err != nil || a.Str("state") != "running" {
		t.Errorf("recorded state %q (%v), want the plan's running", a.Str("state"), err)
	}
	if diags.HasError() || diags.WarningsCount() != 1 {
		t.Errorf("want one warning about the read, got %v", diags)
	}
}

// A node that cannot be read back is recorded with its id, which its inputs make, so that
// servers referring to it are created in the same run.
func TestRecordedDerivesIDs(t *testing.T) {
	r := &Resource[testNode, struct{}]{Type: testNodeType}
	typ := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"id": tftypes.String, "system_id": tftypes.String, "name": tftypes.String, "node_id": tftypes.String}}
	plan := Attrs{
		"id":        tftypes.NewValue(tftypes.String, tftypes.UnknownValue),
		"system_id": tftypes.NewValue(tftypes.String, "SYS-1"),
		"name":      tftypes.NewValue(tftypes.String, "web-01"),
		"node_id":   tftypes.NewValue(tftypes.String, tftypes.UnknownValue),
	}
	a, err := AttrsOf(recorded(typ, r.Type.Fields, plan))
	if err != nil || a.Str("id") != "SYS-1/web-01" || !a["node_id"].IsNull() {
		t.Errorf("recorded id %q node_id %v (%v), want SYS-1/web-01 and null", a.Str("id"), a["node_id"], err)
	}
}

// Ctrl-C while a settle waits (a server still starting) records the object untainted:
// no error, a warning, the plan's running state (so that the CLI sees a consistent
// result) and what the manager reports for the rest; the next refresh shows "starting".
func TestInterruptedSettleRecordsTheObjectWithoutError(t *testing.T) {
	type thing struct{ Status, Port string }
	r := &Resource[thing, struct{}]{Type: &ResourceType[thing, struct{}]{
		Name: "thing",
		Fields: []Field[thing]{
			StringField("state", "", func(x *thing) string { return x.Status }).OptionalInput().AppliedBySettle(),
			StringField("port", "", func(x *thing) string { return x.Port }),
		},
		Describe: func(Attrs) string { return "thing" },
		Settle: func(ctx context.Context, _ struct{}, _ Attrs) error {
			<-ctx.Done()
			return fmt.Errorf("GET /thing: request canceled: %w", ctx.Err())
		},
		Read: func(context.Context, struct{}, Attrs) (*thing, error) {
			return &thing{Status: "starting", Port: "8080"}, nil
		},
	}}
	typ := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"state": tftypes.String, "port": tftypes.String}}
	unknown := tftypes.NewValue(tftypes.String, tftypes.UnknownValue)
	before := tftypes.NewValue(typ, map[string]tftypes.Value{"state": str("stopped"), "port": unknown})
	plan := Attrs{"state": str("running"), "port": unknown}
	ctx, interrupt := context.WithCancel(context.Background())
	interrupt()
	var diags diag.Diagnostics
	got := r.settled(ctx, context.Background(), struct{}{}, typ, plan, before, "create", &diags)
	a, err := AttrsOf(got)
	if err != nil || a.Str("state") != "running" || a.Str("port") != "8080" {
		t.Errorf("recorded %v (%v), want the plan's running state and the manager's port", got, err)
	}
	if diags.HasError() || diags.WarningsCount() != 1 {
		t.Errorf("want one warning and no error (an error taints the object), got %v", diags)
	}
}

// A manager lost during the wait after a create (a transport failure, a 5xx) records the
// object untainted with a warning, as an interrupted wait does: an error would taint it,
// and the next apply would uninstall and reinstall a healthy server. A refusal, a timeout
// or a failure of an update stays an error.
func TestSettleAfterCreateSurvivesALostManager(t *testing.T) {
	type thing struct{ Status string }
	lost := &apm.TransportError{Method: "GET", Path: "/thing", Attempts: 5, Err: errors.New("connection refused")}
	refused := apm.NewConflict("Server is busy")
	for _, tc := range []struct {
		name      string
		op        string
		settleErr error
		tainted   bool
	}{
		{"connection failed", "create", fmt.Errorf("waiting for thing to be running: %w", lost), false},
		{"update, connection failed", "update", lost, true},
		{"refused", "create", refused, true},
		{"timed out", "create", &apm.TimeoutError{}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &Resource[thing, struct{}]{Type: &ResourceType[thing, struct{}]{
				Name:     "thing",
				Fields:   []Field[thing]{StringField("state", "", func(x *thing) string { return x.Status }).OptionalInput().AppliedBySettle()},
				Describe: func(Attrs) string { return "thing" },
				Settle:   func(context.Context, struct{}, Attrs) error { return tc.settleErr },
				Read:     func(context.Context, struct{}, Attrs) (*thing, error) { return nil, lost },
			}}
			typ := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"state": tftypes.String}}
			before := tftypes.NewValue(typ, map[string]tftypes.Value{"state": str("stopped")})
			var diags diag.Diagnostics
			got := r.settled(context.Background(), context.Background(), struct{}{}, typ, Attrs{"state": str("running")}, before, tc.op, &diags)
			if diags.HasError() != tc.tainted {
				t.Fatalf("error %v, want %v: %v", diags.HasError(), tc.tainted, diags)
			}
			if tc.tainted {
				return
			}
			a, err := AttrsOf(got)
			if err != nil || a.Str("state") != "running" || diags.WarningsCount() != 1 || !strings.Contains(fmt.Sprint(diags), "connection refused") {
				t.Errorf("recorded %v (%v) with %v; want the planned state and one warning naming the failure", got, err, diags)
			}
		})
	}
}
