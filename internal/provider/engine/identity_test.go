package engine

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
)

// nodeStore stands for the manager in the identity tests: nodes by <system id>/<name>,
// and the systems' names.
type nodeStore struct {
	mu      sync.Mutex
	nodes   map[string]testNode
	systems map[string]string // name -> id
}

// identityNodeType is a node whose import ID is <system>/<name>, where <system> is the
// system's name or id and resolves to its id, as apm_node's.
func identityNodeType() ResourceType[testNode, *nodeStore] {
	return ResourceType[testNode, *nodeStore]{
		Name:        "node",
		Description: "A node.",
		Fields:      testNodeType.Fields,
		ImportID: ImportID[*nodeStore]{
			Parts: []IDPart[*nodeStore]{
				{Attr: "system_id", Form: "<system>", Accepts: "the system's name or id", Resolve: func(_ context.Context, s *nodeStore, ref string) (string, error) {
					s.mu.Lock()
					defer s.mu.Unlock()
					if id, ok := s.systems[ref]; ok {
						return id, nil
					}
					return ref, nil
				}},
				{Attr: "name", Form: "<name>"},
			},
			Example: "shop/web-01",
		},
		Describe: func(a Attrs) string { return fmt.Sprintf("node %q", a.Str("name")) },
		Read: func(_ context.Context, s *nodeStore, state Attrs) (*testNode, error) {
			s.mu.Lock()
			defer s.mu.Unlock()
			if n, ok := s.nodes[state.Str("system_id")+"/"+state.Str("name")]; ok {
				return &n, nil
			}
			return nil, fmt.Errorf("node %s: %w", state.Str("name"), ErrGone)
		},
	}
}

// storeProvider serves one declared resource type connected to a nodeStore.
type storeProvider struct {
	store    *nodeStore
	resource func() resource.Resource
}

func (storeProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "apm"
}
func (storeProvider) Schema(context.Context, provider.SchemaRequest, *provider.SchemaResponse) {}
func (p storeProvider) Configure(_ context.Context, _ provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	data := &Configured[*nodeStore]{}
	data.Connect(p.store, Settings{HasKey: true})
	resp.ResourceData = data
}
func (storeProvider) DataSources(context.Context) []func() datasource.DataSource { return nil }
func (p storeProvider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{p.resource}
}

// identityServer is the protocol server of the identity node type over a store holding
// the node web-01 of system shop (id SYS-1), configured as the CLI would.
func identityServer(t *testing.T) (tfprotov6.ProviderServer, tftypes.Object, tftypes.Object) {
	t.Helper()
	store := &nodeStore{
		nodes:   map[string]testNode{"SYS-1/web-01": {SystemID: "SYS-1", Name: "web-01", HostIP: "10.0.0.1", AgentPort: 7730, NodeID: "n-1"}},
		systems: map[string]string{"shop": "SYS-1"},
	}
	server := providerserver.NewProtocol6(storeProvider{store, NewResource(identityNodeType())})()
	ctx := context.Background()
	schemas, err := server.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	identities, err := server.GetResourceIdentitySchemas(ctx, &tfprotov6.GetResourceIdentitySchemasRequest{})
	if err != nil || len(identities.Diagnostics) > 0 {
		t.Fatalf("identity schemas: %v %v", err, identities.Diagnostics)
	}
	config, err := tfprotov6.NewDynamicValue(tftypes.Object{}, tftypes.NewValue(tftypes.Object{}, map[string]tftypes.Value{}))
	if err != nil {
		t.Fatal(err)
	}
	if resp, err := server.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{Config: &config}); err != nil || len(resp.Diagnostics) > 0 {
		t.Fatalf("configure: %v %v", err, resp.Diagnostics)
	}
	return server, schemas.ResourceSchemas["apm_node"].ValueType().(tftypes.Object), //nolint:forcetypeassert // a schema's value is an object
		identities.IdentitySchemas["apm_node"].ValueType().(tftypes.Object) //nolint:forcetypeassert // as above
}

func requireNoDiagnostics(t *testing.T, what string, err error, diags []*tfprotov6.Diagnostic) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	for _, d := range diags {
		t.Errorf("%s: %s: %s", what, d.Summary, d.Detail)
	}
	if t.Failed() {
		t.FailNow()
	}
}

// nodeState is a state of the node type with the given system id and name, as a release
// without identities wrote it.
func nodeState(t *testing.T, typ tftypes.Object, systemID, name string) *tfprotov6.DynamicValue {
	t.Helper()
	values := map[string]tftypes.Value{}
	for n, at := range typ.AttributeTypes {
		values[n] = tftypes.NewValue(at, nil)
	}
	values["id"], values["system_id"], values["name"] = str(systemID+"/"+name), str(systemID), str(name)
	values["host_ip"], values["agent_port"], values["node_id"] = str("10.0.0.1"), Int64Value(7730), str("n-1")
	dv, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, values))
	if err != nil {
		t.Fatal(err)
	}
	return &dv
}

func identityOf(t *testing.T, typ tftypes.Object, data *tfprotov6.ResourceIdentityData) map[string]string {
	t.Helper()
	if data == nil || data.IdentityData == nil {
		t.Fatal("no identity")
	}
	v, err := data.IdentityData.Unmarshal(typ)
	if err != nil {
		t.Fatal(err)
	}
	a, err := AttrsOf(v)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for n := range a {
		out[n] = a.Str(n)
	}
	return out
}

// The identity is made of the import ID's parts, each a string attribute required for an
// import by identity and described as its field; no type declares it.
func TestIdentitySchemaComesFromTheImportID(t *testing.T) {
	typ := identityNodeType()
	var resp resource.IdentitySchemaResponse
	NewResource(typ)().(resource.ResourceWithIdentity).IdentitySchema(context.Background(), resource.IdentitySchemaRequest{}, &resp) //nolint:forcetypeassert // every engine resource has identity
	if len(resp.IdentitySchema.Attributes) != 2 {
		t.Fatalf("attributes %v, want system_id and name", resp.IdentitySchema.Attributes)
	}
	for _, name := range []string{"system_id", "name"} {
		a, ok := resp.IdentitySchema.Attributes[name]
		if !ok || !a.IsRequiredForImport() || a.IsOptionalForImport() {
			t.Errorf("%s: %+v, want a string required for import", name, a)
		}
		if a != nil && a.GetType().String() != "basetypes.StringType" {
			t.Errorf("%s is a %s", name, a.GetType())
		}
	}
	if diags := resp.IdentitySchema.ValidateImplementation(context.Background()); diags.HasError() {
		t.Errorf("the framework refuses the schema: %v", diags)
	}
}

// A part that an update changes in place, or that is no string, cannot be an identity
// attribute: the type fails its parity check.
func TestIdentityPartsMustBeStableStrings(t *testing.T) {
	fields := []Field[testNode]{
		StringField("name", "", func(n *testNode) string { return n.Name }).Replacing(),
		StringField("host_ip", "", func(n *testNode) string { return n.HostIP }).Input(),
		Int64Field("agent_port", "", func(n *testNode) int64 { return n.AgentPort }).Replacing(),
		StringField("node_id", "", func(n *testNode) string { return n.NodeID }),
	}
	for attr, want := range map[string]string{"name": "", "node_id": "", "host_ip": "changes in place", "agent_port": "not a string", "nope": "no attribute"} {
		err := identityParity(ImportID[struct{}]{Parts: []IDPart[struct{}]{{Attr: attr, Form: "<x>"}}}, fields)
		if (want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), want)) {
			t.Errorf("%s: %v, want %q", attr, err, want)
		}
	}
}

// An identity attribute holds what its part of the import ID holds, checked piece by piece.
func TestIdentityValuesAreCheckedLikeImportIDParts(t *testing.T) {
	node := IDPart[struct{}]{Attr: "node_id", Form: "<system>/<node>", Pieces: 2, Accepts: "the system's name or id"}
	path := IDPart[struct{}]{Attr: "context_path", Form: "<context_path>", Rest: true}
	cases := []struct {
		part IDPart[struct{}]
		v    string
		ok   bool
	}{
		{node, "SYS-1/web-01", true}, {node, "web-01", false}, {node, "SYS-1/", false}, {node, "a/b/c", false}, {node, "", false},
		{path, "/shop", true}, {path, "/shop/v2", true}, {path, "", false},
	}
	for _, c := range cases {
		err := c.part.check(c.v)
		if (err == nil) != c.ok {
			t.Errorf("%s = %q: %v, want ok %v", c.part.Attr, c.v, err, c.ok)
		}
		if err != nil && !strings.Contains(err.Error(), c.part.Form) {
			t.Errorf("%s = %q: the error must give the form: %v", c.part.Attr, c.v, err)
		}
	}
}

// A state written before identities (a release without them, or a CLI before 1.12) gets
// its identity on the next refresh, unchanged otherwise; and when the refresh finds the
// object gone, the identity comes from the state it had, since the framework requires one
// after every read (with the fallback removed, this failed with "Missing Resource
// Identity After Read").
func TestRefreshOfAStateWithoutIdentityFillsIt(t *testing.T) {
	server, stateType, identityType := identityServer(t)
	ctx := context.Background()
	old := nodeState(t, stateType, "SYS-1", "web-01")
	resp, err := server.ReadResource(ctx, &tfprotov6.ReadResourceRequest{TypeName: "apm_node", CurrentState: old})
	requireNoDiagnostics(t, "read", err, resp.Diagnostics)
	if got := identityOf(t, identityType, resp.NewIdentity); got["system_id"] != "SYS-1" || got["name"] != "web-01" || len(got) != 2 {
		t.Errorf("identity %v, want system_id SYS-1 and name web-01", got)
	}
	before, _ := old.Unmarshal(stateType)
	after, err := resp.NewState.Unmarshal(stateType)
	if err != nil || !after.Equal(before) {
		t.Errorf("the refresh changed the state: %v -> %v (%v)", before, after, err)
	}

	gone := nodeState(t, stateType, "SYS-1", "web-02")
	resp, err = server.ReadResource(ctx, &tfprotov6.ReadResourceRequest{TypeName: "apm_node", CurrentState: gone})
	requireNoDiagnostics(t, "read of a gone node", err, resp.Diagnostics)
	if after, err := resp.NewState.Unmarshal(stateType); err != nil || !after.IsNull() {
		t.Errorf("a node gone must leave the state: %v (%v)", after, err)
	}
	if got := identityOf(t, identityType, resp.NewIdentity); got["name"] != "web-02" {
		t.Errorf("identity %v, want the gone node's", got)
	}
}

// An import block's identity imports as the import ID does (a system's name resolved to
// its id), and the import leaves the resolved identity; an import ID leaves it too.
func TestImportByIdentityOrIDLeavesTheIdentity(t *testing.T) {
	server, stateType, identityType := identityServer(t)
	ctx := context.Background()
	identity := func(systemID, name string) *tfprotov6.ResourceIdentityData {
		v, err := tfprotov6.NewDynamicValue(identityType, tftypes.NewValue(identityType, map[string]tftypes.Value{"system_id": str(systemID), "name": str(name)}))
		if err != nil {
			t.Fatal(err)
		}
		return &tfprotov6.ResourceIdentityData{IdentityData: &v}
	}
	for what, req := range map[string]*tfprotov6.ImportResourceStateRequest{
		"identity with the id":   {TypeName: "apm_node", Identity: identity("SYS-1", "web-01")},
		"identity with the name": {TypeName: "apm_node", Identity: identity("shop", "web-01")},
		"import ID":              {TypeName: "apm_node", ID: "shop/web-01"},
	} {
		server, _, _ := identityServer(t) // each import claims its object once per provider process
		resp, err := server.ImportResourceState(ctx, req)
		requireNoDiagnostics(t, what, err, resp.Diagnostics)
		if len(resp.ImportedResources) != 1 {
			t.Fatalf("%s: imported %d resources", what, len(resp.ImportedResources))
		}
		imported := resp.ImportedResources[0]
		state, err := imported.State.Unmarshal(stateType)
		if err != nil {
			t.Fatal(err)
		}
		a, _ := AttrsOf(state)
		if a.Str("system_id") != "SYS-1" || a.Str("name") != "web-01" {
			t.Errorf("%s: state %v, want system_id SYS-1 and name web-01", what, state)
		}
		if got := identityOf(t, identityType, imported.Identity); got["system_id"] != "SYS-1" || got["name"] != "web-01" {
			t.Errorf("%s: identity %v", what, got)
		}
	}
	resp, err := server.ImportResourceState(ctx, &tfprotov6.ImportResourceStateRequest{TypeName: "apm_node", Identity: identity("SYS-1/web-01", "web-01")})
	if err != nil || len(resp.Diagnostics) != 1 || !strings.Contains(resp.Diagnostics[0].Detail, `identity attribute system_id must be <system>, where <system> is the system's name or id; got "SYS-1/web-01"`) {
		t.Errorf("a malformed identity must be refused naming the attribute and its form: %v %+v", err, resp.Diagnostics)
	}
}

// A created object whose identity needs a value only the manager knows (a system's id) is
// read back again until the read succeeds, since the identity cannot wait for a refresh;
// when it never does within the create's time, the create fails naming that value. An
// object whose identity the plan makes is recorded at the first failure, with a warning.
// (Before, a system whose read-back failed was recorded without its id, and the framework
// failed the create with "Missing Resource Identity After Create".)
func TestReadBackWaitsForAnIdentityOnlyTheManagerKnows(t *testing.T) {
	type system struct{ ID, Name string }
	fields := []Field[system]{
		StringField("id", "", func(s *system) string { return s.ID }),
		StringField("name", "", func(s *system) string { return s.Name }).Input(),
	}
	newType := func(failures int, parts ...IDPart[struct{}]) (*Resource[system, struct{}], *int) {
		reads := 0
		return &Resource[system, struct{}]{Type: &ResourceType[system, struct{}]{
			Name: "system", Fields: fields, ImportID: ImportID[struct{}]{Parts: parts},
			Describe: func(a Attrs) string { return fmt.Sprintf("system %q", a.Str("name")) },
			Read: func(context.Context, struct{}, Attrs) (*system, error) {
				reads++
				if reads <= failures {
					return nil, &apm.Error{StatusCode: 500, Message: "busy"}
				}
				return &system{ID: "SYS-1", Name: "shop"}, nil
			},
		}}, &reads
	}
	byID := IDPart[struct{}]{Attr: "id", Form: "<system>", FromPlan: "name"}
	typ := ObjectType(fields)
	plan := Attrs{"id": tftypes.NewValue(tftypes.String, tftypes.UnknownValue), "name": str("shop")}

	r, reads := newType(1, byID)
	state, diags := r.readBack(context.Background(), struct{}{}, typ, plan)
	a, _ := AttrsOf(state)
	if len(diags) > 0 || a.Str("id") != "SYS-1" || *reads != 2 {
		t.Errorf("after a failed read: id %q, %d reads, %v; want SYS-1 from the second read, and no diagnostic", a.Str("id"), *reads, diags)
	}

	r, _ = newType(1000, byID)
	ctx, cancel := context.WithTimeout(context.Background(), 1500*time.Millisecond)
	defer cancel()
	state, diags = r.readBack(ctx, struct{}{}, typ, plan)
	if !diags.HasError() || !strings.Contains(diags[0].Detail(), "The object's id, part of its identity") || !strings.Contains(diags[0].Detail(), "untaint") || state.IsNull() {
		t.Errorf("a read that keeps failing must fail the create, naming the missing id, with the object recorded: %v %v", state, diags)
	}

	r, reads = newType(1, IDPart[struct{}]{Attr: "name", Form: "<name>"})
	state, diags = r.readBack(context.Background(), struct{}{}, typ, plan)
	if diags.HasError() || len(diags) != 1 || *reads != 1 || state.IsNull() {
		t.Errorf("an identity the plan makes needs no wait: %d reads, %v", *reads, diags)
	}
}
