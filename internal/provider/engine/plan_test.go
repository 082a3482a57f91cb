package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
)

// The plan checks run through the protocol server as Terraform calls them: one configured
// provider plans the resources of a walk, a replacement is planned twice (the second time
// as a create, with the private data of the first), and a tainted object is refreshed and
// then planned as a create.

// thing is an object with a name (its import ID), a flavor whose change replaces it, and
// a port that no two things may share.
type thing struct {
	Name, Flavor string
	Port         int64
}

// thingManager stands for the manager: its things, and the reads it answered.
type thingManager struct {
	mu      sync.Mutex
	things  map[string]thing
	reads   int
	readErr error // the answer to every read, when set
}

func (m *thingManager) read(_ context.Context, a Attrs) (*thing, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.reads++
	if m.readErr != nil {
		return nil, m.readErr
	}
	t, ok := m.things[a.Str("name")]
	if !ok {
		return nil, fmt.Errorf("thing %q: %w", a.Str("name"), ErrGone)
	}
	return &t, nil
}

func thingType() ResourceType[thing, *thingManager] {
	return ResourceType[thing, *thingManager]{
		Name: "thing",
		Fields: []Field[thing]{
			StringField("name", "", func(t *thing) string { return t.Name }).Replacing(),
			StringField("flavor", "", func(t *thing) string { return t.Flavor }).Replacing(),
			Int64Field("port", "", func(t *thing) int64 { return t.Port }).Input(),
		},
		ImportID: ImportID[*thingManager]{Parts: []IDPart[*thingManager]{{Attr: "name", Form: "<name>"}}, Example: "shop"},
		Describe: func(a Attrs) string { return fmt.Sprintf("thing %q", a.Str("name")) },
		Read:     func(ctx context.Context, m *thingManager, a Attrs) (*thing, error) { return m.read(ctx, a) },
		Exclusives: func(plan Attrs) []Exclusive {
			if !plan.Known("port") {
				return nil
			}
			p := plan.Int64("port")
			return []Exclusive{{Key: fmt.Sprintf("port %d", p), Attr: "port", What: fmt.Sprintf("port %d", p), Advice: "Choose another port."}}
		},
	}
}

// configuredProvider serves one resource type with data as the provider's configuration.
type configuredProvider struct {
	oneResourceProvider
	data *Configured[*thingManager]
}

func (p configuredProvider) Configure(_ context.Context, _ provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	resp.ResourceData = p.data
}

func (configuredProvider) DataSources(context.Context) []func() datasource.DataSource { return nil }

// planRig is one provider process, configured once, as for one walk of Terraform.
type planRig struct {
	t      *testing.T
	server tfprotov6.ProviderServer
	typ    tftypes.Object
	m      *thingManager
}

func newPlanRig(t *testing.T, typ ResourceType[thing, *thingManager], s Settings, existing ...thing) *planRig {
	t.Helper()
	m := &thingManager{things: map[string]thing{}}
	for _, x := range existing {
		m.things[x.Name] = x
	}
	data := &Configured[*thingManager]{}
	data.Connect(m, Settings{HasKey: true, Adopt: s.Adopt, SkipLookups: s.SkipLookups})
	server := providerserver.NewProtocol6(configuredProvider{oneResourceProvider{NewResource(typ)}, data})()
	ctx := context.Background()
	schemas, err := server.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	empty := tftypes.Object{AttributeTypes: map[string]tftypes.Type{}}
	config, err := tfprotov6.NewDynamicValue(empty, tftypes.NewValue(empty, map[string]tftypes.Value{}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := server.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{Config: &config}); err != nil {
		t.Fatal(err)
	}
	objType := schemas.ResourceSchemas["apm_thing"].ValueType().(tftypes.Object) //nolint:forcetypeassert // a schema is an object
	return &planRig{t: t, server: server, typ: objType, m: m}
}

// value is a thing's object: the given attributes (a string, an int64, or
// tftypes.UnknownValue), the others null.
func (r *planRig) value(attrs map[string]any) tftypes.Value {
	vals := map[string]tftypes.Value{}
	for name, at := range r.typ.AttributeTypes {
		v, ok := attrs[name]
		switch {
		case !ok:
			vals[name] = tftypes.NewValue(at, nil)
		case v == tftypes.UnknownValue:
			vals[name] = tftypes.NewValue(at, tftypes.UnknownValue)
		default:
			if n, isInt := v.(int); isInt {
				v = int64(n)
			}
			if n, isInt := v.(int64); isInt {
				vals[name] = Int64Value(n)
				continue
			}
			vals[name] = tftypes.NewValue(at, v)
		}
	}
	return tftypes.NewValue(r.typ, vals)
}

func (r *planRig) dynamic(v tftypes.Value) *tfprotov6.DynamicValue {
	r.t.Helper()
	d, err := tfprotov6.NewDynamicValue(r.typ, v)
	if err != nil {
		r.t.Fatal(err)
	}
	return &d
}

// plan plans config over prior (a null value for a create), with the prior private data.
func (r *planRig) plan(prior tftypes.Value, config map[string]any, priorPrivate []byte) *tfprotov6.PlanResourceChangeResponse {
	r.t.Helper()
	cfg := r.value(config)
	resp, err := r.server.PlanResourceChange(context.Background(), &tfprotov6.PlanResourceChangeRequest{
		TypeName: "apm_thing", PriorState: r.dynamic(prior), ProposedNewState: r.dynamic(cfg), Config: r.dynamic(cfg), PriorPrivate: priorPrivate,
	})
	if err != nil {
		r.t.Fatal(err)
	}
	return resp
}

func (r *planRig) create(config map[string]any) *tfprotov6.PlanResourceChangeResponse {
	r.t.Helper()
	return r.plan(tftypes.NewValue(r.typ, nil), config, nil)
}

// refresh reads the object that state describes, as the refresh of a plan does.
func (r *planRig) refresh(state map[string]any) {
	r.t.Helper()
	resp, err := r.server.ReadResource(context.Background(), &tfprotov6.ReadResourceRequest{TypeName: "apm_thing", CurrentState: r.dynamic(r.value(state))})
	if err != nil || len(resp.Diagnostics) > 0 {
		r.t.Fatalf("refresh: %v %v", err, text(resp.Diagnostics))
	}
}

// text is the diagnostics of one severity as one string.
func text(diags []*tfprotov6.Diagnostic, severity ...tfprotov6.DiagnosticSeverity) string {
	var out []string
	for _, d := range diags {
		if len(severity) == 0 || d.Severity == severity[0] {
			out = append(out, d.Summary+": "+d.Detail)
		}
	}
	return strings.Join(out, "\n")
}

func errorsOf(resp *tfprotov6.PlanResourceChangeResponse) string {
	return text(resp.Diagnostics, tfprotov6.DiagnosticSeverityError)
}

func expectClean(t *testing.T, what string, resp *tfprotov6.PlanResourceChangeResponse) {
	t.Helper()
	if got := text(resp.Diagnostics); got != "" {
		t.Errorf("%s: want no diagnostics, got %s", what, got)
	}
}

func expectError(t *testing.T, what string, resp *tfprotov6.PlanResourceChangeResponse, fragments ...string) {
	t.Helper()
	got := errorsOf(resp)
	for _, f := range fragments {
		if !strings.Contains(got, f) {
			t.Errorf("%s: want an error with %q, got %q", what, f, got)
		}
	}
}

// Two resources that create one object: the second planned fails, naming the object, and
// so does a create of an object that another resource manages.
func TestPlanRefusesTwins(t *testing.T) {
	rig := newPlanRig(t, thingType(), Settings{})
	expectClean(t, "the first", rig.create(map[string]any{"name": "shop", "flavor": "a"}))
	expectError(t, "its twin", rig.create(map[string]any{"name": "shop", "flavor": "b"}),
		`thing "shop" is declared by more than one resource`, "another apm_thing block creates it too")

	rig = newPlanRig(t, thingType(), Settings{}, thing{Name: "shop", Flavor: "a"})
	managed := rig.value(map[string]any{"name": "shop", "flavor": "a"})
	expectClean(t, "the managed one", rig.plan(managed, map[string]any{"name": "shop", "flavor": "a"}, nil))
	expectError(t, "a new block for it", rig.create(map[string]any{"name": "shop", "flavor": "a"}),
		`thing "shop" is declared by more than one resource`, "another apm_thing block manages it already")
	if rig.m.reads != 0 {
		t.Errorf("a twin was looked up in the manager: %d reads", rig.m.reads)
	}
}

// A resource planned twice is no twin of itself: an update planned again, and the two
// plannings of a replacement (the second one as a create that carries the private data of
// the first), which is not taken for an object that exists already either.
func TestPlanKnowsOneResourcePlannedTwice(t *testing.T) {
	rig := newPlanRig(t, thingType(), Settings{}, thing{Name: "shop", Flavor: "a", Port: 80})
	prior := rig.value(map[string]any{"name": "shop", "flavor": "a", "port": 80})
	expectClean(t, "an update", rig.plan(prior, map[string]any{"name": "shop", "flavor": "a", "port": 81}, nil))
	expectClean(t, "the same update again", rig.plan(prior, map[string]any{"name": "shop", "flavor": "a", "port": 81}, nil))

	first := rig.plan(prior, map[string]any{"name": "shop", "flavor": "b", "port": 81}, nil)
	expectClean(t, "a replacement", first)
	if len(first.RequiresReplace) == 0 {
		t.Fatalf("a new flavor must replace the thing")
	}
	second := rig.plan(tftypes.NewValue(rig.typ, nil), map[string]any{"name": "shop", "flavor": "b", "port": 81}, first.PlannedPrivate)
	expectClean(t, "the create of the replacement", second)
	if rig.m.reads != 0 {
		t.Errorf("the object a replacement replaces was looked up: %d reads", rig.m.reads)
	}
	if _, kept := privateKeys(t, second.PlannedPrivate)[replacingKey]; kept {
		t.Error("the mark of the replacement must not stay in the created object's private data")
	}
	// Without the mark, the same create is a twin: the mark is what tells them apart.
	expectError(t, "a create without the mark", rig.create(map[string]any{"name": "shop", "flavor": "b", "port": 81}), "declared by more than one resource")
}

// A create whose object the manager has already fails at plan with the advice the create's
// 409 gets at apply; adopt_existing lets it through (apply adopts), skip_connection_check
// looks nothing up, and a look-up that fails is a warning.
func TestPlanLooksUpTheObjectOfACreate(t *testing.T) {
	shop := thing{Name: "shop", Flavor: "a"}
	config := map[string]any{"name": "shop", "flavor": "a"}

	rig := newPlanRig(t, thingType(), Settings{}, shop)
	expectError(t, "an object that exists", rig.create(config), `thing "shop" already exists`,
		"terraform import apm_thing.<name> shop", `id = "shop"`, "adopt_existing = true")
	if rig.m.reads != 1 {
		t.Errorf("the look-up took %d reads, want 1", rig.m.reads)
	}

	rig = newPlanRig(t, thingType(), Settings{})
	expectClean(t, "an object that does not exist", rig.create(config))

	rig = newPlanRig(t, thingType(), Settings{Adopt: true}, shop)
	expectClean(t, "with adopt_existing", rig.create(config))

	rig = newPlanRig(t, thingType(), Settings{SkipLookups: true}, shop)
	expectClean(t, "with skip_connection_check", rig.create(config))
	if rig.m.reads != 0 {
		t.Errorf("skip_connection_check must look nothing up: %d reads", rig.m.reads)
	}

	rig = newPlanRig(t, thingType(), Settings{}, shop)
	expectClean(t, "a name not known yet", rig.create(map[string]any{"name": tftypes.UnknownValue, "flavor": "a"}))
	if rig.m.reads != 0 {
		t.Errorf("an import ID not known yet cannot be looked up: %d reads", rig.m.reads)
	}

	rig = newPlanRig(t, thingType(), Settings{})
	rig.m.readErr = &apm.Error{StatusCode: 503, Message: "down"}
	resp := rig.create(config)
	if errorsOf(resp) != "" || !strings.Contains(text(resp.Diagnostics, tfprotov6.DiagnosticSeverityWarning), `Could not check whether thing "shop" exists already`) {
		t.Errorf("a failed look-up must warn and not fail: %s", text(resp.Diagnostics))
	}

	rig = newPlanRig(t, thingType(), Settings{})
	rig.m.readErr = missingParent(t)
	expectClean(t, "an object whose parent does not exist (yet)", rig.create(config))

	idempotent := thingType()
	idempotent.IdempotentCreate = true
	rig = newPlanRig(t, idempotent, Settings{}, shop)
	expectClean(t, "a part whose create sets it again", rig.create(config))

	declared := thingType()
	declared.NoLookupAtPlan = true
	rig = newPlanRig(t, declared, Settings{}, shop)
	expectClean(t, "a type whose read cannot tell", rig.create(config))
	if rig.m.reads != 0 {
		t.Errorf("NoLookupAtPlan must look nothing up: %d reads", rig.m.reads)
	}
}

// A tainted object is planned as a plain create, after its refresh read it: its
// replacement is not an object created outside Terraform.
func TestPlanOfATaintedObjectIsNoConflict(t *testing.T) {
	rig := newPlanRig(t, thingType(), Settings{}, thing{Name: "shop", Flavor: "a"})
	rig.refresh(map[string]any{"name": "shop", "flavor": "a"})
	expectClean(t, "the replacement of a tainted object", rig.create(map[string]any{"name": "shop", "flavor": "a"}))
}

// Two resources that declare one exclusive (a port) fail, the second naming the first and
// the attribute; one resource planned twice holds it once.
func TestPlanRefusesTwoHoldersOfOneExclusive(t *testing.T) {
	rig := newPlanRig(t, thingType(), Settings{})
	expectClean(t, "the first", rig.create(map[string]any{"name": "a", "port": 80}))
	resp := rig.create(map[string]any{"name": "b", "port": 80})
	expectError(t, "the second", resp, "Port 80 is declared twice", `thing "b" declares port 80 (port), and so does thing "a"`, "Choose another port.")
	if len(resp.Diagnostics) == 0 || resp.Diagnostics[0].Attribute.String() != `AttributeName("port")` {
		t.Errorf("the error must point at the port: %v", resp.Diagnostics)
	}
	expectClean(t, "another port", rig.create(map[string]any{"name": "c", "port": 81}))

	prior := rig.value(map[string]any{"name": "d", "port": 90})
	expectClean(t, "an update", rig.plan(prior, map[string]any{"name": "d", "port": 90}, nil))
	expectClean(t, "the same update again", rig.plan(prior, map[string]any{"name": "d", "port": 90}, nil))
}

// privateKeys are the keys of a private data blob of the framework (a JSON object).
func privateKeys(t *testing.T, blob []byte) map[string][]byte {
	t.Helper()
	keys := map[string][]byte{}
	if len(blob) > 0 {
		if err := json.Unmarshal(blob, &keys); err != nil {
			t.Fatalf("private data %q: %v", blob, err)
		}
	}
	return keys
}

// missingParent is the client's error for a 404 of the manager that says that another
// object than the one asked for (its parent) does not exist.
func missingParent(t *testing.T) error {
	t.Helper()
	manager := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		_, _ = w.Write([]byte(`{"code":"NOT_FOUND","error":"System not found: other"}`))
	}))
	defer manager.Close()
	client, err := apm.New(apm.Config{Endpoint: manager.URL, APIKey: "key", MaxRetries: 0})
	if err != nil {
		t.Fatal(err)
	}
	_, err = client.GetSystem(context.Background(), "shop")
	if _, ok := apm.MissingReference(err); !ok {
		t.Fatalf("want a missing reference, got %v", err)
	}
	return err
}

// A type's CheckPlan learns from its context what the walk planned before it: the plan of
// an object that another resource declares (here a thing whose flavor "ref:<name>" refers
// to another thing), and whether plan may ask the manager. Any other context knows none.
func TestCheckPlanSeesTheObjectsPlannedBefore(t *testing.T) {
	type seen struct {
		port    tftypes.Value
		planned bool
		skipped bool
	}
	var mu sync.Mutex
	found := map[string]seen{}
	typ := thingType()
	typ.CheckPlan = func(ctx context.Context, _ *thingManager, plan, _ Attrs, _ *diag.Diagnostics) {
		ref, ok := strings.CutPrefix(plan.Str("flavor"), "ref:")
		if !ok {
			return
		}
		other, planned := PlannedObject(ctx, "apm_thing", ref)
		mu.Lock()
		defer mu.Unlock()
		found[plan.Str("name")] = seen{port: other["port"], planned: planned, skipped: LookupsSkipped(ctx)}
	}
	rig := newPlanRig(t, typ, Settings{}, thing{Name: "kept", Flavor: "a", Port: 70})
	expectClean(t, "a create", rig.create(map[string]any{"name": "db", "flavor": "a", "port": 80}))
	kept := rig.value(map[string]any{"name": "kept", "flavor": "a", "port": 70})
	expectClean(t, "a kept object", rig.plan(kept, map[string]any{"name": "kept", "flavor": "a", "port": 70}, nil))
	expectClean(t, "a reference to the create", rig.create(map[string]any{"name": "ds", "flavor": "ref:db"}))
	expectClean(t, "a reference to the kept one", rig.create(map[string]any{"name": "ds2", "flavor": "ref:kept"}))
	expectClean(t, "a reference to nothing planned", rig.create(map[string]any{"name": "ds3", "flavor": "ref:nosuch"}))
	want := map[string]seen{
		"ds":  {port: Int64Value(80), planned: true},
		"ds2": {port: Int64Value(70), planned: true},
		"ds3": {},
	}
	for name, w := range want {
		got := found[name]
		if got.planned != w.planned || got.skipped || (w.planned && !got.port.Equal(w.port)) {
			t.Errorf("%s: CheckPlan saw planned %v with port %v (lookups skipped %v), want planned %v with port %v", name, got.planned, got.port, got.skipped, w.planned, w.port)
		}
	}

	rig = newPlanRig(t, typ, Settings{SkipLookups: true})
	expectClean(t, "a reference without lookups", rig.create(map[string]any{"name": "ds4", "flavor": "ref:db"}))
	if !found["ds4"].skipped {
		t.Error("with skip_connection_check, CheckPlan must learn that plan does not ask the manager")
	}
	if _, planned := PlannedObject(context.Background(), "apm_thing", "db"); planned || LookupsSkipped(context.Background()) {
		t.Error("a context that is not CheckPlan's knows no walk")
	}
}
