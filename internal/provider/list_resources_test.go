package provider

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"testing"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck/queryfilter"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/apmplatform/terraform-provider-apm/internal/clifeatures"
	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
)

// Every managed type has a list resource of the same name, and nothing else has one.
func TestListResourcesCoverEveryManagedType(t *testing.T) {
	resp, err := protocolServer(t).GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	managed := maps.Clone(resp.ResourceSchemas)
	maps.DeleteFunc(managed, func(_ string, s *tfprotov6.Schema) bool { return !engine.ManagesAnObject(s) })
	got, want := slices.Sorted(maps.Keys(resp.ListResourceSchemas)), slices.Sorted(maps.Keys(managed))
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
	server := NewProtocol6Server("test")()
	schemas, ids := schemasOf(t, server)
	r := &listRig{t: t, server: server, schemas: schemas, ids: ids}
	config := r.object(schemas.Provider, map[string]tftypes.Value{
		"endpoint": tftypes.NewValue(tftypes.String, env.sim.URL), "api_key": tftypes.NewValue(tftypes.String, env.sim.AdminKey),
		"max_retries": tftypes.NewValue(tftypes.Number, 0),
	})
	resp, err := server.ConfigureProvider(context.Background(), &tfprotov6.ConfigureProviderRequest{Config: config})
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
	rig := newListRig(t, env)
	env.test([]resource.TestStep{{Config: platformConfig(t, env), Check: rig.check}})
}

// platformConfig is discovery/platform.tf with its provider block: one object of every
// managed type, named for env.
func platformConfig(t *testing.T, env *accEnv) string {
	t.Helper()
	cert := newWebTestCert(t, "web-1.example", nil)
	return env.config(tf(t, "discovery/platform.tf", "system_name", env.name("shop"), "database_name", env.name("orders-db"),
		"orders_ds", env.name("orders-ds"), "billing_ds", env.name("billing-ds"), "alice", env.name("alice"), "bob", env.name("bob"),
		"viewers", env.name("viewers"), "operators", env.name("operators"), "certificate_pem", cert.certPEM, "private_key_pem", cert.keyPEM))
}

// `terraform query` lists the systems with their identities. The query step's Config is
// the query file alone: plugin-testing writes it beside the previous step's .tf files,
// whose provider block configures its list blocks (a second one is a duplicate).
func TestAccListResources_query(t *testing.T) {
	needs(t, clifeatures.ListResources)
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

// queriedDisplayNames are the objects of discovery/platform.tf by address, with the display
// name that its list resource gives each; ${address.attribute} stands for a value of the
// applied state. Every resource of discovery/platform.tf is here (checked by the test).
var queriedDisplayNames = map[string]string{
	"apm_system.shop":               `system "${apm_system.shop.name}"`,
	"apm_node.app":                  `node "app-01" of system ${apm_node.app.system_id}`,
	"apm_was_server.a":              `WAS server "was-1" on node "app-01"`,
	"apm_was_server.bare":           `WAS server "was-2" on node "app-01"`,
	"apm_web_server.w":              `web server "web-1" on node "app-01"`,
	"apm_web_server.bare":           `web server "web-2" on node "app-01"`,
	"apm_session_server.s":          `session server "session-1" on node "app-01"`,
	"apm_database.db":               `database "${apm_database.db.resource_name}"`,
	"apm_datasource.orders":         `datasource "${apm_datasource.orders.resource_name}"`,
	"apm_datasource.billing":        `datasource "${apm_datasource.billing.resource_name}"`,
	"apm_was_datasource.orders":     `datasource "${apm_was_datasource.orders.datasource_name}" on WAS server "was-1" on node "app-01"`,
	"apm_was_datasource.billing":    `datasource "${apm_was_datasource.billing.datasource_name}" on WAS server "was-1" on node "app-01"`,
	"apm_was_session_cluster.c":     `session clustering of WAS server "was-1" on node "app-01"`,
	"apm_was_application.shop":      `application "/shop" on WAS server "was-1" on node "app-01"`,
	"apm_was_application.api":       `application "/api" on WAS server "was-1" on node "app-01"`,
	"apm_web_workers.w":             `load-balancer workers of web server "web-1" on node "app-01"`,
	"apm_web_uri_patterns.u":        `URI patterns of web server "web-1" on node "app-01"`,
	"apm_web_ssl.s":                 `SSL set-up of web server "web-1" on node "app-01"`,
	"apm_role.viewers":              `role "${apm_role.viewers.role_id}"`,
	"apm_role.operators":            `role "${apm_role.operators.role_id}"`,
	"apm_user.alice":                `user "${apm_user.alice.user_id}"`,
	"apm_user.bob":                  `user "${apm_user.bob.user_id}"`,
	"apm_user_role.alice_viewers":   `grant of role "${apm_user_role.alice_viewers.role_id}" to user "${apm_user_role.alice_viewers.user_id}"`,
	"apm_user_role.alice_operators": `grant of role "${apm_user_role.alice_operators.role_id}" to user "${apm_user_role.alice_operators.user_id}"`,
}

// queriedObject is what a list block must find of one object: its display name, and its
// identity attributes and key attributes (those and id), each a template of
// queriedDisplayNames or a literal.
type queriedObject struct {
	displayName string
	identity    map[string]string
	key         map[string]string
}

// `terraform query` over every registered list resource, on the CLI: one apply of
// discovery/platform.tf and a system made out of band, then one query step with a list
// block per type (list_resources/platform.tfquery.hcl, with include_resource). Each type
// (one subtest each) must find exactly its objects: the number, each identity, display
// name and key attributes.
func TestAccListResources_queryEveryType(t *testing.T) {
	needs(t, clifeatures.ListResources)
	env := newAccEnv(t)
	env.needsSim("counts every system, user and role of the manager, which must hold only the test's")
	ctx := context.Background()
	outside := env.name("outside")
	env.must(env.admin.CreateSystem(ctx, outside))
	sys, err := env.admin.GetSystem(ctx, outside)
	env.must(err)

	objects := platformObjects(t)
	objects["apm_system"] = append(objects["apm_system"], queriedObject{
		displayName: fmt.Sprintf("system %q", outside),
		identity:    map[string]string{"id": sys.SystemID},
		key:         map[string]string{"id": sys.SystemID, "name": outside},
	})
	applied := &appliedState{}
	verdicts := &queryVerdicts{found: map[string]error{}}
	var checks []querycheck.QueryResultCheck
	for _, typeName := range slices.Sorted(maps.Keys(objects)) {
		checks = append(checks, verdicts.of(typeName, queryChecks(typeName+".platform", objects[typeName], applied)))
	}
	accTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             env.checkAllGone,
		Steps: []resource.TestStep{
			{Config: platformConfig(t, env), Check: applied.record},
			{Query: true, Config: tf(t, "list_resources/platform.tfquery.hcl", "user_id", env.name("alice")), QueryResultChecks: checks},
		},
	})
	for _, typeName := range slices.Sorted(maps.Keys(objects)) {
		t.Run(typeName, func(t *testing.T) {
			found, ran := verdicts.found[typeName]
			if !ran {
				t.Fatal("the query step did not run this type's checks")
			}
			if found != nil {
				t.Error(found)
			}
		})
	}
}

// platformObjects are the objects of discovery/platform.tf by list resource type, for
// every registered list resource (an empty list for a type the platform lacks, which then
// fails its checks). Identity attributes are the identity schema's, read from state under
// the same names.
func platformObjects(t *testing.T) map[string][]queriedObject {
	t.Helper()
	schemas, ids := schemasOf(t, protocolServer(t))
	objects := map[string][]queriedObject{}
	for typeName := range schemas.ListResourceSchemas {
		objects[typeName] = nil
	}
	for _, m := range resourceBlock.FindAllStringSubmatch(readTestdata(t, "discovery/platform.tf"), -1) {
		typeName, address := m[1], m[1]+"."+m[2]
		display, ok := queriedDisplayNames[address]
		if !ok {
			t.Fatalf("queriedDisplayNames has no display name for %s of discovery/platform.tf", address)
		}
		o := queriedObject{displayName: display, identity: map[string]string{}, key: map[string]string{"id": "${" + address + ".id}"}}
		for _, a := range ids.IdentitySchemas[typeName].IdentityAttributes {
			o.identity[a.Name] = "${" + address + "." + a.Name + "}"
			o.key[a.Name] = o.identity[a.Name]
		}
		objects[typeName] = append(objects[typeName], o)
	}
	return objects
}

var resourceBlock = regexp.MustCompile(`(?m)^resource "(\w+)" "(\w+)"`)

// queryChecks are the checks of the list block at address that finds exactly objects.
func queryChecks(address string, objects []queriedObject, applied *appliedState) []querycheck.QueryResultCheck {
	checks := []querycheck.QueryResultCheck{querycheck.ExpectLength(address, len(objects))}
	for _, o := range objects {
		identity := applied.values(o.identity)
		var key []querycheck.KnownValueCheck
		for _, name := range slices.Sorted(maps.Keys(o.key)) {
			key = append(key, querycheck.KnownValueCheck{Path: tfjsonpath.New(name), KnownValue: applied.value(o.key[name])})
		}
		checks = append(checks,
			querycheck.ExpectIdentity(address, identity),
			querycheck.ExpectResourceDisplayName(address, queryfilter.ByResourceIdentity(identity), applied.value(o.displayName)),
			querycheck.ExpectResourceKnownValues(address, queryfilter.ByResourceIdentity(identity), key))
	}
	return checks
}

// appliedState is the state that an apply step recorded, for checks of later steps whose
// expected values come from it.
type appliedState struct{ state *terraform.State }

func (a *appliedState) record(s *terraform.State) error {
	a.state = s
	return nil
}

// value is a check of a string equal to tmpl with each ${address.attribute} replaced by
// that value of the applied state.
func (a *appliedState) value(tmpl string) knownvalue.Check {
	return stateString{applied: a, tmpl: tmpl}
}

func (a *appliedState) values(tmpls map[string]string) map[string]knownvalue.Check {
	out := map[string]knownvalue.Check{}
	for name, tmpl := range tmpls {
		out[name] = a.value(tmpl)
	}
	return out
}

var stateReference = regexp.MustCompile(`\$\{([^}]+)\.(\w+)\}`)

func (a *appliedState) expand(tmpl string) (string, error) {
	var errs []error
	out := stateReference.ReplaceAllStringFunc(tmpl, func(ref string) string {
		m := stateReference.FindStringSubmatch(ref)
		if a.state == nil {
			errs = append(errs, fmt.Errorf("%s: no state applied yet", ref))
			return ref
		}
		v, err := stateAttr(a.state, m[1], m[2])
		if err != nil {
			errs = append(errs, err)
		}
		return v
	})
	return out, errors.Join(errs...)
}

type stateString struct {
	applied *appliedState
	tmpl    string
}

func (s stateString) CheckValue(v any) error {
	want, err := s.applied.expand(s.tmpl)
	if err != nil {
		return err
	}
	if got, ok := v.(string); !ok || got != want {
		return fmt.Errorf("expected %q, got %v", want, v)
	}
	return nil
}

func (s stateString) String() string {
	if want, err := s.applied.expand(s.tmpl); err == nil {
		return want
	}
	return s.tmpl
}

// queryVerdicts keeps, by list resource type, what the checks of a query step found, so
// that each type gets its own subtest after the run (the step's checks run in one go).
type queryVerdicts struct{ found map[string]error }

// of is one query check that runs the checks of typeName, applying their filters as
// plugin-testing does, and records what they found instead of failing the step.
func (v *queryVerdicts) of(typeName string, checks []querycheck.QueryResultCheck) querycheck.QueryResultCheck {
	return typeChecks{verdicts: v, typeName: typeName, checks: checks}
}

type typeChecks struct {
	verdicts *queryVerdicts
	typeName string
	checks   []querycheck.QueryResultCheck
}

func (c typeChecks) CheckQuery(ctx context.Context, req querycheck.CheckQueryRequest, _ *querycheck.CheckQueryResponse) {
	var errs []error
	for _, check := range c.checks {
		sub := req
		if filtered, ok := check.(querycheck.QueryResultCheckWithFilters); ok {
			var err error
			if sub.Query, err = kept(ctx, filtered.QueryFilters(ctx), req.Query); err != nil {
				errs = append(errs, err)
				continue
			}
		}
		var resp querycheck.CheckQueryResponse
		check.CheckQuery(ctx, sub, &resp)
		errs = append(errs, resp.Error)
	}
	c.verdicts.found[c.typeName] = errors.Join(errs...)
}

// kept are the results that one of filters includes (all without filters).
func kept(ctx context.Context, filters []queryfilter.QueryFilter, results []tfjson.ListResourceFoundData) ([]tfjson.ListResourceFoundData, error) {
	if len(filters) == 0 {
		return results, nil
	}
	var out []tfjson.ListResourceFoundData
	for _, r := range results {
		for _, f := range filters {
			var resp queryfilter.FilterQueryResponse
			f.Filter(ctx, queryfilter.FilterQueryRequest{QueryItem: r}, &resp)
			if resp.Error != nil {
				return nil, fmt.Errorf("query filter: %w", resp.Error)
			}
			if resp.Include {
				out = append(out, r)
				break
			}
		}
	}
	return out, nil
}

// schemasOf is the provider's schemas and resource identity schemas, as server reports them.
func schemasOf(t *testing.T, server tfprotov6.ProviderServer) (*tfprotov6.GetProviderSchemaResponse, *tfprotov6.GetResourceIdentitySchemasResponse) {
	t.Helper()
	ctx := context.Background()
	schemas, err := server.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	ids, err := server.GetResourceIdentitySchemas(ctx, &tfprotov6.GetResourceIdentitySchemasRequest{})
	if err != nil {
		t.Fatal(err)
	}
	return schemas, ids
}
