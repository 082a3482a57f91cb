package provider

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck/queryfilter"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
)

// Every managed type has a list resource of the same name, and nothing else has one.
func TestListResourcesCoverEveryManagedType(t *testing.T) {
	resp, err := protocolServer(t).GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	got, want := slices.Sorted(maps.Keys(resp.ListResourceSchemas)), slices.Sorted(maps.Keys(resp.ResourceSchemas))
	if !slices.Equal(got, want) {
		t.Errorf("list resources %v, want one for each managed type %v", got, want)
	}
}

// listRig calls the provider's list resources as Terraform 1.14's `terraform query` does:
// one configured provider, ListResource streams, and for comparison an import by each
// result's identity followed by a read.
type listRig struct {
	t       *testing.T
	server  tfprotov6.ProviderServer
	schemas *tfprotov6.GetProviderSchemaResponse
	ids     *tfprotov6.GetResourceIdentitySchemasResponse
}

func newListRig(t *testing.T, env *accEnv) *listRig {
	t.Helper()
	ctx := context.Background()
	server := NewProtocol6Server("test")()
	schemas, err := server.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	ids, err := server.GetResourceIdentitySchemas(ctx, &tfprotov6.GetResourceIdentitySchemasRequest{})
	if err != nil {
		t.Fatal(err)
	}
	r := &listRig{t: t, server: server, schemas: schemas, ids: ids}
	config := r.object(schemas.Provider, map[string]tftypes.Value{
		"endpoint": tftypes.NewValue(tftypes.String, env.sim.URL), "api_key": tftypes.NewValue(tftypes.String, env.sim.AdminKey),
		"max_retries": tftypes.NewValue(tftypes.Number, 0),
	})
	resp, err := server.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{Config: config})
	if err != nil || diagErrors(resp.Diagnostics) != "" {
		t.Fatalf("configure: %v %s", err, diagErrors(resp.Diagnostics))
	}
	return r
}

// object is the schema's object with the given attributes, the others null.
func (r *listRig) object(s *tfprotov6.Schema, attrs map[string]tftypes.Value) *tfprotov6.DynamicValue {
	r.t.Helper()
	typ := s.ValueType().(tftypes.Object) //nolint:forcetypeassert // a schema is an object
	vals := map[string]tftypes.Value{}
	for name, at := range typ.AttributeTypes {
		if v, ok := attrs[name]; ok {
			vals[name] = v
			continue
		}
		vals[name] = tftypes.NewValue(at, nil)
	}
	dv, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, vals))
	if err != nil {
		r.t.Fatal(err)
	}
	return &dv
}

func diagErrors(diags []*tfprotov6.Diagnostic) string {
	out := ""
	for _, d := range diags {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			out += d.Summary + ": " + d.Detail + "\n"
		}
	}
	return out
}

// list runs the list resource of typeName with the filters, and returns its results.
func (r *listRig) list(typeName string, filters map[string]string, limit int64) []tfprotov6.ListResourceResult {
	r.t.Helper()
	attrs := map[string]tftypes.Value{}
	for k, v := range filters {
		attrs[k] = tftypes.NewValue(tftypes.String, v)
	}
	lister, ok := r.server.(tfprotov6.ListResourceServer)
	if !ok {
		r.t.Fatalf("the provider's server %T serves no list resources", r.server)
	}
	stream, err := lister.ListResource(context.Background(), &tfprotov6.ListResourceRequest{
		TypeName: typeName, Config: r.object(r.schemas.ListResourceSchemas[typeName], attrs), IncludeResource: true, Limit: limit,
	})
	if err != nil {
		r.t.Fatalf("%s: %v", typeName, err)
	}
	return slices.Collect(stream.Results)
}

// imported is what an import by the identity, and the read after it, record.
func (r *listRig) imported(typeName string, identity *tfprotov6.ResourceIdentityData) (tftypes.Value, error) {
	ctx := context.Background()
	imp, err := r.server.ImportResourceState(ctx, &tfprotov6.ImportResourceStateRequest{TypeName: typeName, Identity: identity})
	if err != nil || diagErrors(imp.Diagnostics) != "" || len(imp.ImportedResources) != 1 {
		return tftypes.Value{}, fmt.Errorf("import by identity: %v %s", err, diagErrors(imp.Diagnostics))
	}
	got := imp.ImportedResources[0]
	read, err := r.server.ReadResource(ctx, &tfprotov6.ReadResourceRequest{TypeName: typeName, CurrentState: got.State, Private: got.Private, CurrentIdentity: got.Identity})
	if err != nil || diagErrors(read.Diagnostics) != "" {
		return tftypes.Value{}, fmt.Errorf("read after import: %v %s", err, diagErrors(read.Diagnostics))
	}
	return read.NewState.Unmarshal(r.schemas.ResourceSchemas[typeName].ValueType())
}

// check lists every managed type of the platform that discovery/platform.tf builds, each
// under the parent of its resource in state where its list needs one, and checks each
// result: no error, a complete identity, a name, and an object equal to what an import by
// that identity records; the object of the resource in state is among them; a limit of
// one gives one result.
func (r *listRig) check(s *terraform.State) error {
	for typeName, schema := range r.schemas.ListResourceSchemas {
		c, ok := discoveryCases[listDataSourceOf(r.t, typeName)]
		if !ok {
			return fmt.Errorf("%s: no discovery case names a resource to list it under", typeName)
		}
		rs, ok := s.RootModule().Resources[c.resource]
		if !ok {
			return fmt.Errorf("%s is not in state", c.resource)
		}
		filters := map[string]string{}
		for _, a := range schema.Block.Attributes {
			if a.Required {
				filters[a.Name] = rs.Primary.Attributes[a.Name]
			}
		}
		results := r.list(typeName, filters, 0)
		if err := r.checkResults(typeName, results, rs.Primary.ID); err != nil {
			return err
		}
		if len(results) > 1 {
			if n := len(r.list(typeName, filters, 1)); n != 1 {
				return fmt.Errorf("%s with limit 1 gave %d results", typeName, n)
			}
		}
	}
	return nil
}

func (r *listRig) checkResults(typeName string, results []tfprotov6.ListResourceResult, wantID string) error {
	found := false
	for _, res := range results {
		if e := diagErrors(res.Diagnostics); e != "" {
			return fmt.Errorf("%s: %s", typeName, e)
		}
		if res.Identity == nil || res.Resource == nil || res.DisplayName == "" {
			return fmt.Errorf("%s: a result without identity, object or name: %+v", typeName, res)
		}
		identity, err := res.Identity.IdentityData.Unmarshal(r.ids.IdentitySchemas[typeName].ValueType())
		if err != nil || !identity.IsFullyKnown() || identity.IsNull() {
			return fmt.Errorf("%s %s: identity %v incomplete: %w", typeName, res.DisplayName, identity, err)
		}
		listed, err := res.Resource.Unmarshal(r.schemas.ResourceSchemas[typeName].ValueType())
		if err != nil {
			return err
		}
		imported, err := r.imported(typeName, res.Identity)
		if err != nil {
			return fmt.Errorf("%s %s: %w", typeName, res.DisplayName, err)
		}
		if !listed.Equal(imported) {
			return fmt.Errorf("%s %s: listed %v, but an import by its identity records %v", typeName, res.DisplayName, listed, imported)
		}
		var attrs map[string]tftypes.Value
		var id string
		if listed.As(&attrs) == nil && attrs["id"].As(&id) == nil && id == wantID {
			found = true
		}
	}
	if !found {
		return fmt.Errorf("%s: the %d results do not hold the object %s", typeName, len(results), wantID)
	}
	return nil
}

// listDataSourceOf is the list data source that a list resource is made from.
func listDataSourceOf(t *testing.T, typeName string) string {
	for name, l := range listDataSources(t) {
		if "apm_"+l[1] == typeName {
			return name
		}
	}
	return ""
}

// The list resources list every managed object of a platform as an import by identity
// records it (TestListResources... covers the names; this the streams).
func TestAccListResources_listWhatImportRecords(t *testing.T) {
	env := newAccEnv(t)
	cert := newWebTestCert(t, "web-1.example", nil)
	shop := env.name("shop")
	config := env.config(tf(t, "discovery/platform.tf", "system_name", shop, "database_name", env.name("orders-db"),
		"orders_ds", env.name("orders-ds"), "billing_ds", env.name("billing-ds"), "alice", env.name("alice"), "bob", env.name("bob"),
		"viewers", env.name("viewers"), "operators", env.name("operators"), "certificate_pem", cert.certPEM, "private_key_pem", cert.keyPEM))
	rig := newListRig(t, env)
	env.test([]resource.TestStep{{Config: config, Check: rig.check}})
}

// `terraform query` lists the systems with their identities. The query step's Config is
// the query file alone: plugin-testing writes it beside the previous step's .tf files,
// whose provider block configures its list blocks (a second one is a duplicate).
func TestAccListResources_query(t *testing.T) {
	needs(t, featureListResources)
	env := newAccEnv(t)
	shop := env.name("shop")
	accTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             env.checkAllGone,
		Steps: []resource.TestStep{
			{Config: env.config(tf(t, "system/one.tf", "name", shop))},
			{
				Query:  true,
				Config: tf(t, "list_resources/systems.tfquery.hcl"),
				QueryResultChecks: []querycheck.QueryResultCheck{
					querycheck.ExpectLength("apm_system.all", 1),
					querycheck.ExpectResourceDisplayName("apm_system.all", queryfilter.ByDisplayName(knownvalue.StringExact(fmt.Sprintf("system %q", shop))),
						knownvalue.StringExact(fmt.Sprintf("system %q", shop))),
				},
			},
		},
	})
}
