package provider

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
)

// Checks driven by the types the provider registers: a type added later is checked
// without anyone adding it to a list here.

func providerSchemas(t *testing.T) *tfprotov6.GetProviderSchemaResponse {
	t.Helper()
	resp, err := protocolServer(t).GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range resp.Diagnostics {
		t.Errorf("schema diagnostic: %s: %s", d.Summary, d.Detail)
	}
	if len(resp.ResourceSchemas) == 0 || len(resp.DataSourceSchemas) == 0 {
		t.Fatal("the provider serves no resources or no data sources")
	}
	return resp
}

// The framework validates every schema when it serves them; a broken schema shows here
// without a CLI. Every attribute, nested ones included, must be described.
func TestRegisteredTypesHaveValidDescribedSchemas(t *testing.T) {
	resp := providerSchemas(t)
	identities, err := protocolServer(t).GetResourceIdentitySchemas(context.Background(), &tfprotov6.GetResourceIdentitySchemasRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range identities.Diagnostics {
		t.Errorf("identity schema diagnostic: %s: %s", d.Summary, d.Detail)
	}
	// check is the subtest of one type: its schema is described, and a resource's identity
	// is described and required for import.
	check := func(kind, name string, s *tfprotov6.Schema) {
		t.Run(kind+" "+name, func(t *testing.T) {
			if s.Block.Description == "" {
				t.Errorf("%s %s has no description", kind, name)
			}
			walkAttributes(name, s.Block.Attributes, func(at string, a *tfprotov6.SchemaAttribute) {
				if strings.TrimSpace(a.Description) == "" {
					t.Errorf("%s %s: attribute %s has no description", kind, name, at)
				}
			})
			if kind != "resource" || !engine.ManagesAnObject(s) {
				return // an operation resource has no identity
			}
			identity, ok := identities.IdentitySchemas[name]
			if !ok || len(identity.IdentityAttributes) == 0 {
				t.Fatalf("resource %s has no identity", name)
			}
			for _, a := range identity.IdentityAttributes {
				if !a.RequiredForImport || a.OptionalForImport || strings.TrimSpace(a.Description) == "" {
					t.Errorf("resource %s: identity attribute %s must be required for import and described: %+v", name, a.Name, a)
				}
			}
		})
	}
	for name, s := range resp.ResourceSchemas {
		check("resource", name, s)
	}
	for name, s := range resp.DataSourceSchemas {
		check("data source", name, s)
	}
	for name, s := range resp.ActionSchemas {
		check("action", name, s.Schema)
	}
	check("provider", "apm", resp.Provider)
	sensitive := map[string]bool{}
	for _, a := range resp.Provider.Block.Attributes {
		sensitive[a.Name] = a.Sensitive
	}
	if !sensitive["api_key"] || sensitive["endpoint"] {
		t.Errorf("only api_key must be sensitive: %v", sensitive)
	}
}

func walkAttributes(prefix string, attributes []*tfprotov6.SchemaAttribute, visit func(string, *tfprotov6.SchemaAttribute)) {
	for _, a := range attributes {
		at := prefix + "." + a.Name
		visit(at, a)
		if a.NestedType != nil {
			walkAttributes(at, a.NestedType.Attributes, visit)
		}
	}
}

// Model/schema parity: every resource attribute is a field of the type's table (or the
// engine's timeouts), every field of the resource view is an attribute, and a flattened
// object fits the schema's type.
func TestRegisteredTypesMatchTheirFieldTables(t *testing.T) {
	for name, typ := range registeredTypes() {
		t.Run(name, func(t *testing.T) {
			if err := typ.Parity(context.Background()); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestImportIDFormsComeFromTheIdentity(t *testing.T) {
	node := registeredTypes()["apm_node"].(*engine.Resource[nodeObject, *conn]) //nolint:forcetypeassert // registered above
	for id, ok := range map[string]bool{"shop/web-01": true, "SYS-0001/web-01": true, "web-01": false, "/web-01": false, "shop/": false, "a/b/c": false} {
		_, err := node.Type.ImportID.Parse(id)
		if (err == nil) != ok {
			t.Errorf("parse %q: err=%v, want ok=%v", id, err, ok)
		}
		if err != nil && !strings.Contains(err.Error(), "<system>/<name>, where <system> is the system's name or id, for example shop/web-01") {
			t.Errorf("parse %q: the error must show the accepted forms and an example: %v", id, err)
		}
	}
}

func TestCreateConflictOffersAWorkingImportID(t *testing.T) {
	conflict := &apm.Error{StatusCode: 409, Code: "CONFLICT", Message: "Node already exists: web-01"}
	node := registeredTypes()["apm_node"].(*engine.Resource[nodeObject, *conn])     //nolint:forcetypeassert // registered above
	system := registeredTypes()["apm_system"].(*engine.Resource[apm.System, *conn]) //nolint:forcetypeassert // registered above
	plan := engine.Attrs{
		"system_id": tftypes.NewValue(tftypes.String, "SYS-0001"),
		"name":      tftypes.NewValue(tftypes.String, "web-01"),
		"id":        tftypes.NewValue(tftypes.String, tftypes.UnknownValue),
	}
	d := node.CreateError(plan, conflict)
	for _, want := range []string{"terraform import apm_node.<name> SYS-0001/web-01", `id = "SYS-0001/web-01"`, "Node already exists"} {
		if !strings.Contains(d.Detail(), want) {
			t.Errorf("detail lacks %q:\n%s", want, d.Detail())
		}
	}
	// A system's id is unknown before it exists: the name stands for it.
	if d := system.CreateError(plan, conflict); !strings.Contains(d.Detail(), "terraform import apm_system.<name> web-01") {
		t.Errorf("a system conflict must offer its name as the import ID:\n%s", d.Detail())
	}
	if other := node.CreateError(plan, &apm.Error{StatusCode: 400, Message: "bad"}); strings.Contains(other.Detail(), "import") {
		t.Errorf("only conflicts suggest an import: %s", other.Detail())
	}
}

func TestFlattenKeepsTheUsersSpellingOfTheSameAddress(t *testing.T) {
	typ := engine.ObjectType(nodeFields)
	prior := engine.Attrs{"host_ip": tftypes.NewValue(tftypes.String, "fd00::1")}
	obj := &nodeObject{Node: apm.Node{NodeName: "web-01", HostIP: "fd00:0:0:0:0:0:0:1"}, SystemID: "SYS-1"}
	got, err := engine.AttrsOf(engine.Flatten(typ, nodeFields, obj, prior))
	if err != nil {
		t.Fatal(err)
	}
	if got.Str("host_ip") != "fd00::1" || got.Str("id") != "SYS-1/web-01" {
		t.Errorf("host_ip %q id %q", got.Str("host_ip"), got.Str("id"))
	}
	obj.HostIP = "10.0.0.9"
	got, _ = engine.AttrsOf(engine.Flatten(typ, nodeFields, obj, prior))
	if got.Str("host_ip") != "10.0.0.9" {
		t.Errorf("a different address is drift and must show: got %s", got.Str("host_ip"))
	}
}

func TestSystemNodeCountComesFromTheDetailOrTheList(t *testing.T) {
	if n := systemNodeCount(&apm.System{Nodes: []apm.SystemNode{{NodeName: "a"}, {NodeName: "b"}}}); n != 2 {
		t.Errorf("detail: %d, want 2 from the node list", n)
	}
	if n := systemNodeCount(&apm.System{NodeCount: 3}); n != 3 {
		t.Errorf("list: %d, want 3 from nodeCount", n)
	}
}
