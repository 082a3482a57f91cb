package provider

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
)

// The rules by which a read chooses each value of the state (fieldValue).
func TestFieldValueRules(t *testing.T) {
	str := func(s string) tftypes.Value { return tftypes.NewValue(tftypes.String, s) }
	null := tftypes.NewValue(tftypes.String, nil)
	obj := &serverObject{Server: apm.Server{Status: "Running", Edition: apm.EditionStandard, Reported: apm.ReportedFields{}}}
	status := stringField("state", "", func(s *serverObject) string { return strings.ToLower(s.Status) })
	reported := false
	cases := []struct {
		name      string
		f         field[serverObject]
		old       tftypes.Value
		importing bool
		want      tftypes.Value
	}{
		{"a managed value is the manager's", status.input(), str("stopped"), false, str("running")},
		{"an optional input left out stays null", status.optionalInput(), null, false, null},
		{"an optional input set is the manager's", status.optionalInput(), str("stopped"), false, str("running")},
		{"an import records an optional input", status.optionalInput(), null, true, str("running")},
		{"an unread input keeps what was applied", inputField[serverObject]("mode", "", tftypes.String), str("install"), false, str("install")},
		{"an unread input is null after an import", inputField[serverObject]("mode", "", tftypes.String), null, true, null},
		{"an unread bool takes its default after an import", inputField[serverObject]("force", "", tftypes.Bool).withDefault(false),
			tftypes.NewValue(tftypes.Bool, nil), true, tftypes.NewValue(tftypes.Bool, false)},
		{"a write-only input is never recorded", inputField[serverObject]("key", "", tftypes.String).writeOnlyInput(), str("secret"), false, null},
		{"a field not reported keeps what was applied", status.input().reportedWhen(func(*serverObject) bool { return reported }), str("stopped"), false, str("stopped")},
		{"another spelling keeps the prior one", stringField("server_type", "", func(s *serverObject) string { return string(s.Edition) }).sameString(sameEdition),
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
	server := importID{parts: []idPart{serverNodePart, {attr: "server_id", form: "<server_id>"}}, example: "shop/app-01/was-1"}
	got, err := server.parse("shop/app-01/was-1")
	if err != nil || strings.Join(got, "|") != "shop/app-01|was-1" {
		t.Errorf("parse = %q, %v", got, err)
	}
	for _, bad := range []string{"shop/app-01", "shop/app-01/was-1/x", "shop//was-1", ""} {
		if _, err := server.parse(bad); err == nil || !strings.Contains(err.Error(), "<system>/<node>/<server_id>") {
			t.Errorf("parse(%q) = %v, want an error giving the format", bad, err)
		}
	}
	app := importID{parts: []idPart{serverRefPart("was_server_id"), {attr: "context_path", form: "<context_path>", rest: true}}, example: "shop/app-01/was-1//shop"}
	got, err = app.parse("shop/app-01/was-1//shop/v2")
	if err != nil || strings.Join(got, "|") != "shop/app-01/was-1|/shop/v2" {
		t.Errorf("parse = %q, %v", got, err)
	}
}

// A server's node and a part's server are referred to by their ids, never by names.
func TestServerReferences(t *testing.T) {
	for ref, ok := range map[string]bool{"SYS-1/app-01": true, "app-01": false, "SYS-1/": false, "/app-01": false, "SYS-1/app-01/x": false} {
		if _, _, got := splitNodeRef(ref); got != ok {
			t.Errorf("splitNodeRef(%q) ok = %v, want %v", ref, got, ok)
		}
	}
	node, id, ok := splitServerRef("SYS-1/app-01/was-1")
	if !ok || node != "SYS-1/app-01" || id != "was-1" {
		t.Errorf("splitServerRef = %q %q %v", node, id, ok)
	}
	for _, bad := range []string{"was-1", "app-01/was-1", "SYS-1/app-01/"} {
		if _, _, ok := splitServerRef(bad); ok {
			t.Errorf("splitServerRef(%q) accepted", bad)
		}
	}
	m := newManager(nil)
	err := m.onServerRef(context.Background(), apm.KindWAS, "was-1", func(apm.ServerRef) error { return errors.New("called") })
	if err == nil || !strings.Contains(err.Error(), "apm_was_server.example.id") {
		t.Errorf("a server id without its node: %v", err)
	}
}

// A settle that succeeded is recorded even when the object cannot be read afterwards: the
// running state is the plan's, not the one read before the start (which Terraform would
// take for an inconsistent result, and taint a server that runs).
func TestSettledKeepsWhatSettleBroughtWhenTheReadFails(t *testing.T) {
	type thing struct{ Status string }
	r := &engineResource[thing, *manager]{t: &resourceType[thing]{
		name:     "thing",
		fields:   []field[thing]{stringField("state", "", func(x *thing) string { return x.Status }).optionalInput().appliedBySettle()},
		describe: func(attrs) string { return "thing" },
		settle:   func(context.Context, *manager, attrs) error { return nil },
		read:     func(context.Context, *manager, attrs) (*thing, error) { return nil, errors.New("502 Bad Gateway") },
	}}
	typ := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"state": tftypes.String}}
	before := tftypes.NewValue(typ, map[string]tftypes.Value{"state": tftypes.NewValue(tftypes.String, "stopped")})
	plan := attrs{"state": tftypes.NewValue(tftypes.String, "running")}
	var diags diag.Diagnostics
	got := r.settled(context.Background(), context.Background(), newManager(nil), typ, plan, before, "create", &diags)
	a, err := attrsOf(got)
	if err != nil || a.str("state") != "running" {
		t.Errorf("recorded state %q (%v), want the plan's running", a.str("state"), err)
	}
	if diags.HasError() || diags.WarningsCount() != 1 {
		t.Errorf("want one warning about the read, got %v", diags)
	}
}

// A node that cannot be read back is recorded with its id, which its inputs make, so that
// servers referring to it are created in the same run.
func TestRecordedDerivesIDs(t *testing.T) {
	r, ok := newNodeResource().(*engineResource[nodeObject, *manager])
	if !ok {
		t.Fatal("apm_node is not an engine resource")
	}
	typ := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"id": tftypes.String, "system_id": tftypes.String, "name": tftypes.String, "node_id": tftypes.String}}
	plan := attrs{
		"id":        tftypes.NewValue(tftypes.String, tftypes.UnknownValue),
		"system_id": tftypes.NewValue(tftypes.String, "SYS-1"),
		"name":      tftypes.NewValue(tftypes.String, "web-01"),
		"node_id":   tftypes.NewValue(tftypes.String, tftypes.UnknownValue),
	}
	a, err := attrsOf(recorded(typ, r.t.fields, plan))
	if err != nil || a.str("id") != "SYS-1/web-01" || !a["node_id"].IsNull() {
		t.Errorf("recorded id %q node_id %v (%v), want SYS-1/web-01 and null", a.str("id"), a["node_id"], err)
	}
}
