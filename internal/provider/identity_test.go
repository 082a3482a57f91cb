package provider

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/zclconf/go-cty/cty"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/clifeatures"
)

// identityCase is how the identity test exercises one resource type: a configuration of
// the type's own acceptance tests that declares it (with the parents it needs), the
// resource of it under test, and the identity that resource must have.
type identityCase struct {
	addr   string
	config func(e *accEnv) string // a whole configuration, provider block included
	// identity is the expected identity; every attribute must also equal the state's.
	identity func(e *accEnv) map[string]knownvalue.Check
	// records are the inputs the manager does not report: the plan that imports the
	// object records them, and changes nothing else.
	records []string
}

// Identity values whose system id the manager chooses.
var (
	aSystemID = knownvalue.StringRegexp(regexp.MustCompile(`^[^/]+$`))
	appNode   = knownvalue.StringRegexp(regexp.MustCompile(`^[^/]+/app-01$`))
)

func onApp(serverID string) knownvalue.Check {
	return knownvalue.StringRegexp(regexp.MustCompile(`^[^/]+/app-01/` + regexp.QuoteMeta(serverID) + `$`))
}

func exact(s string) knownvalue.Check { return knownvalue.StringExact(s) }

// serverIdentityCase is the case of a server kind: oneServer on the shop's node app-01,
// stopped. (Its state is written out: a state left out of the configuration would be
// planned from the imported "stopped" to null.)
func serverIdentityCase(kind apm.ServerKind, addr, serverID string) identityCase {
	return identityCase{
		addr:   addr,
		config: func(e *accEnv) string { return e.serverConfig(kind, "state", "stopped") },
		identity: func(*accEnv) map[string]knownvalue.Check {
			return map[string]knownvalue.Check{"node_id": appNode, "server_id": exact(serverID)}
		},
		records: []string{"mode"},
	}
}

// webPartIdentityCase is the case of a part of the web server web-1 on app-01.
func webPartIdentityCase(addr string, records []string, config func(e *accEnv) string) identityCase {
	return identityCase{
		addr: addr, config: config, records: records,
		identity: func(*accEnv) map[string]knownvalue.Check {
			return map[string]knownvalue.Check{"web_server_id": onApp("web-1")}
		},
	}
}

// identityCases has one case for every registered resource type.
var identityCases = map[string]identityCase{
	"apm_system": {
		addr:   "apm_system.test",
		config: func(e *accEnv) string { return e.config(tf(e.t, "system/one.tf", "name", e.name("shop"))) },
		// The system's id, never its name: a rename keeps the identity.
		identity: func(*accEnv) map[string]knownvalue.Check { return map[string]knownvalue.Check{"id": aSystemID} },
	},
	"apm_node": {
		addr:   "apm_node.test",
		config: func(e *accEnv) string { return e.config(systemWithNode(e.t, e.name("shop"), "10.0.0.11", 7730)) },
		identity: func(*accEnv) map[string]knownvalue.Check {
			return map[string]knownvalue.Check{"system_id": aSystemID, "name": exact("web-01")}
		},
	},
	"apm_was_server":     serverIdentityCase(apm.KindWAS, "apm_was_server.a", "was-1"),
	"apm_web_server":     serverIdentityCase(apm.KindWeb, "apm_web_server.w", "web-1"),
	"apm_session_server": serverIdentityCase(apm.KindSession, "apm_session_server.s", "session-1"),
	"apm_was_session_cluster": {
		addr: "apm_was_session_cluster.c",
		config: func(e *accEnv) string {
			return e.config(tf(e.t, "was_session_cluster/on_two_servers.tf", "system_name", e.name("shop"), "server_id", "was-1",
				"primary_port", 15200, "secondary_host", hclNull, "secondary_port", hclNull))
		},
		identity: func(*accEnv) map[string]knownvalue.Check {
			return map[string]knownvalue.Check{"was_server_id": onApp("was-1")}
		},
	},
	"apm_was_datasource": {
		addr: "apm_was_datasource.d",
		config: func(e *accEnv) string {
			return e.config(tf(e.t, "was_datasource/attached.tf", "system_name", e.name("shop"), "datasource_name", e.createDatasources("orders-ds")[0]))
		},
		identity: func(e *accEnv) map[string]knownvalue.Check {
			return map[string]knownvalue.Check{"was_server_id": onApp("was-1"), "datasource_name": exact(e.name("orders-ds"))}
		},
	},
	"apm_was_application": {
		addr: "apm_was_application.shop",
		config: func(e *accEnv) string {
			return e.config(tf(e.t, "was_application/deployed.tf", "system_name", e.name("shop"), "context_path", "/shop",
				"source_path", "/opt/releases/shop-1.0.war"))
		},
		identity: func(*accEnv) map[string]knownvalue.Check {
			return map[string]knownvalue.Check{"was_server_id": onApp("was-1"), "context_path": exact("/shop")}
		},
		records: []string{"application_name", "source_path"},
	},
	"apm_web_workers": webPartIdentityCase("apm_web_workers.w", nil, func(e *accEnv) string {
		return e.config(tf(e.t, "web_workers/two_workers.tf", "system_name", e.name("shop"), "first", "was-1", "second", "was-2",
			"second_host", hclNull, "second_lb_factor", hclNull))
	}),
	"apm_web_uri_patterns": webPartIdentityCase("apm_web_uri_patterns.u", nil, func(e *accEnv) string {
		return e.config(tf(e.t, "web_uri_patterns/two_patterns.tf", "system_name", e.name("shop"), "first", "/shop/*", "second", "/api/*"))
	}),
	"apm_web_ssl": webPartIdentityCase("apm_web_ssl.s", []string{"certificate_pem", "private_key_pem"}, func(e *accEnv) string {
		cert := newWebTestCert(e.t, "web-1.example", nil)
		return e.config(tf(e.t, "web_ssl/sensitive_key.tf", "system_name", e.name("shop"), "https_port", 8443,
			"certificate_pem", cert.certPEM, "private_key_pem", cert.keyPEM, "ca_chain_pem", hclNull))
	}),
	"apm_database": {
		addr: "apm_database.db",
		config: func(e *accEnv) string {
			return e.config(databaseTF(e.t, e.name("orders-db"), "10.0.2.15", "password", dbPassword1))
		},
		identity: func(e *accEnv) map[string]knownvalue.Check {
			return map[string]knownvalue.Check{"resource_name": exact(e.name("orders-db"))}
		},
		records: []string{"password"},
	},
	"apm_datasource": {
		addr: "apm_datasource.ds",
		config: func(e *accEnv) string {
			return e.config(databaseTF(e.t, e.name("orders-db"), "10.0.2.15", "password", dbPassword1) + datasourceTF(e.t, e.name("orders-ds")))
		},
		identity: func(e *accEnv) map[string]knownvalue.Check {
			return map[string]knownvalue.Check{"resource_name": exact(e.name("orders-ds"))}
		},
	},
	"apm_user": {
		addr:   "apm_user.a",
		config: func(e *accEnv) string { return e.config(userTF(e.t, e.name("alice"), "Alice", "password", userPw1)) },
		identity: func(e *accEnv) map[string]knownvalue.Check {
			return map[string]knownvalue.Check{"user_id": exact(e.name("alice"))}
		},
		records: []string{"password"},
	},
	"apm_role": {
		addr: "apm_role.r",
		config: func(e *accEnv) string {
			return e.config(roleTF(e.t, e.name("ops"), "Operators", []string{"READ"}, "description", "Runs the shop"))
		},
		identity: func(e *accEnv) map[string]knownvalue.Check {
			return map[string]knownvalue.Check{"role_id": exact(e.name("ops"))}
		},
	},
	"apm_user_role": {
		addr: "apm_user_role.g",
		config: func(e *accEnv) string {
			return e.config(userTF(e.t, e.name("alice"), "Alice", "password", userPw1) + roleTF(e.t, e.name("ops"), "Operators", []string{"READ"}) +
				tf(e.t, "user_role/one.tf", "user_id", hclExpr("apm_user.a.id"), "role_id", hclExpr("apm_role.r.id")))
		},
		identity: func(e *accEnv) map[string]knownvalue.Check {
			return map[string]knownvalue.Check{"user_id": exact(e.name("alice")), "role_id": exact(e.name("ops"))}
		},
	},
}

// Every resource type has a resource identity (Terraform and OpenTofu 1.12 and later), on
// the configuration of its own acceptance tests:
//  1. applied by the provider as released before identities (identityless), which leaves
//     a state without identity;
//  2. planned by this provider: no change and no drift, and the refresh fills the identity
//     (checked against the expected values and the state's attributes);
//  3. imported by an import block with that identity, which plans no change (or records
//     the inputs the manager does not report, and nothing else) and the same identity;
//  4. replaced (tainted): the create leaves the identity too.
//
// A type registered without a case fails the test, on every CLI.
func TestAccResourceIdentity(t *testing.T) {
	registered := registeredTypes()
	for name := range identityCases {
		if _, ok := registered[name]; !ok {
			t.Errorf("identityCases has a case for %s, which is not registered", name)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(registered)) {
		c, ok := identityCases[name]
		if !ok {
			t.Errorf("resource type %s has no identity case: add one to identityCases with a configuration of its acceptance tests", name)
			continue
		}
		t.Run(name, func(t *testing.T) {
			needs(t, clifeatures.Identity)
			env := newAccEnv(t)
			cfg := c.config(env)
			want := c.identity(env)
			identityChecks := []statecheck.StateCheck{statecheck.ExpectIdentity(c.addr, want)}
			for _, attr := range slices.Sorted(maps.Keys(want)) {
				identityChecks = append(identityChecks, statecheck.ExpectIdentityValueMatchesState(c.addr, tfjsonpath.New(attr)))
			}
			// The provider starts as released before identities and is upgraded for step 2.
			var released atomic.Bool
			released.Store(true)
			accTest(t, resource.TestCase{
				PreCheck:                 func() { testAccPreCheck(t) },
				ProtoV6ProviderFactories: identityUntilUpgraded(&released),
				CheckDestroy:             env.checkAllGone,
				Steps: []resource.TestStep{
					{
						Config:            cfg,
						ConfigStateChecks: []statecheck.StateCheck{noIdentity{c.addr}},
					},
					{
						PreConfig:         func() { released.Store(false) },
						Config:            cfg,
						ConfigPlanChecks:  resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{noDrift{}, plancheck.ExpectEmptyPlan()}},
						ConfigStateChecks: identityChecks,
					},
					{
						ResourceName:       c.addr,
						ImportState:        true,
						ImportStateKind:    resource.ImportBlockWithResourceIdentity,
						ExpectNonEmptyPlan: len(c.records) > 0,
						ImportPlanChecks:   resource.ImportPlanChecks{PreApply: []plancheck.PlanCheck{recordsOnly{c.addr, c.records}}},
					},
					{
						Config:            cfg,
						Taint:             []string{c.addr},
						ConfigPlanChecks:  applied(plancheck.ExpectResourceAction(c.addr, plancheck.ResourceActionReplace)),
						ConfigStateChecks: identityChecks,
					},
				},
			})
		})
	}
}

// The identity import example of every resource type (which the docs show) imports a
// resource of that type with an identity that the type accepts: its attributes, each in
// the form of its part of the import ID.
func TestIdentityImportExamplesFitTheIdentity(t *testing.T) {
	for name, typ := range registeredTypes() {
		t.Run(name, func(t *testing.T) {
			file := filepath.Join("..", "..", "examples", "resources", name, "import-by-identity.tf")
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			to, identity, err := identityImport(src, file)
			if err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			if !strings.HasPrefix(to, name+".") {
				t.Errorf("%s imports into %s, not into an %s", file, to, name)
			}
			checker, ok := typ.(interface{ CheckIdentity(map[string]string) error })
			if !ok {
				t.Fatalf("%s cannot check identities", name)
			}
			if err := checker.CheckIdentity(identity); err != nil {
				t.Errorf("%s: the identity %v does not fit %s: %v", file, identity, name, err)
			}
		})
	}
}

// identityImport reads the one import block of an example: its target and its identity's
// literal strings.
func identityImport(src []byte, file string) (to string, identity map[string]string, err error) {
	f, diags := hclparse.NewParser().ParseHCL(src, file)
	if diags.HasErrors() {
		return "", nil, diags
	}
	content, diags := f.Body.Content(&hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "import"}}})
	if diags.HasErrors() || len(content.Blocks) != 1 {
		return "", nil, fmt.Errorf("want one import block and nothing else: %v", diags)
	}
	attrs, diags := content.Blocks[0].Body.JustAttributes()
	if diags.HasErrors() || len(attrs) != 2 || attrs["to"] == nil || attrs["identity"] == nil {
		return "", nil, fmt.Errorf("want an import block with to and identity only: %v", diags)
	}
	traversal, diags := hcl.AbsTraversalForExpr(attrs["to"].Expr)
	if diags.HasErrors() || len(traversal) != 2 {
		return "", nil, fmt.Errorf("to is no resource address: %v", diags)
	}
	to = traversal.RootName() + "." + traversal[1].(hcl.TraverseAttr).Name //nolint:forcetypeassert // the second step of an address is an attribute
	value, diags := attrs["identity"].Expr.Value(nil)
	if diags.HasErrors() || !value.Type().IsObjectType() {
		return "", nil, fmt.Errorf("identity is no object of literals: %v", diags)
	}
	identity = map[string]string{}
	for k, v := range value.AsValueMap() {
		if v.Type() != cty.String || v.IsNull() {
			return "", nil, fmt.Errorf("identity.%s is not a string", k)
		}
		identity[k] = v.AsString()
	}
	return to, identity, nil
}

// identityUntilUpgraded serves the provider, and while released is true serves it as
// releases before resource identity did: the same schemas and states, and no identity in
// any answer. A state written then is what the CLI wrote for those releases, through the
// CLI's own code rather than a hand-written state file that could drift from its format.
func identityUntilUpgraded(released *atomic.Bool) map[string]func() (tfprotov6.ProviderServer, error) {
	return map[string]func() (tfprotov6.ProviderServer, error){
		"apm": func() (tfprotov6.ProviderServer, error) { //nolint:unparam // the harness's factory type
			return identityless{NewProtocol6Server("test")(), released}, nil
		},
	}
}

// identityless is a provider server with identities taken out of its answers while
// active is true.
type identityless struct {
	tfprotov6.ProviderServer
	active *atomic.Bool
}

func (s identityless) GetResourceIdentitySchemas(ctx context.Context, req *tfprotov6.GetResourceIdentitySchemasRequest) (*tfprotov6.GetResourceIdentitySchemasResponse, error) {
	if !s.active.Load() {
		return s.ProviderServer.GetResourceIdentitySchemas(ctx, req)
	}
	return &tfprotov6.GetResourceIdentitySchemasResponse{IdentitySchemas: map[string]*tfprotov6.ResourceIdentitySchema{}}, nil
}

func (s identityless) ReadResource(ctx context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	resp, err := s.ProviderServer.ReadResource(ctx, req)
	if resp != nil && s.active.Load() {
		resp.NewIdentity = nil
	}
	return resp, err
}

func (s identityless) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	resp, err := s.ProviderServer.PlanResourceChange(ctx, req)
	if resp != nil && s.active.Load() {
		resp.PlannedIdentity = nil
	}
	return resp, err
}

func (s identityless) ApplyResourceChange(ctx context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	resp, err := s.ProviderServer.ApplyResourceChange(ctx, req)
	if resp != nil && s.active.Load() {
		resp.NewIdentity = nil
	}
	return resp, err
}

func (s identityless) ImportResourceState(ctx context.Context, req *tfprotov6.ImportResourceStateRequest) (*tfprotov6.ImportResourceStateResponse, error) {
	resp, err := s.ProviderServer.ImportResourceState(ctx, req)
	if resp != nil && s.active.Load() {
		for _, r := range resp.ImportedResources {
			r.Identity = nil
		}
	}
	return resp, err
}

// noIdentity is a state check: addr has no identity (the premise of the upgrade).
type noIdentity struct{ addr string }

func (c noIdentity) CheckState(_ context.Context, req statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	if req.State == nil || req.State.Values == nil || req.State.Values.RootModule == nil {
		resp.Error = fmt.Errorf("no state")
		return
	}
	for _, r := range req.State.Values.RootModule.Resources {
		if r.Address == c.addr {
			if len(r.IdentityValues) > 0 {
				resp.Error = fmt.Errorf("%s has the identity %v; a provider without identities must leave none", c.addr, r.IdentityValues)
			}
			return
		}
	}
	resp.Error = fmt.Errorf("%s is not in the state", c.addr)
}

// recordsOnly is a plan check of an import: addr is imported and changes nothing but the
// attributes named, each from null (inputs the manager does not report, recorded from
// the configuration).
type recordsOnly struct {
	addr  string
	attrs []string
}

func (c recordsOnly) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	for _, rc := range req.Plan.ResourceChanges {
		if rc.Address != c.addr || rc.Change == nil {
			continue
		}
		before, _ := rc.Change.Before.(map[string]any)
		after, _ := rc.Change.After.(map[string]any)
		var changed []string
		for name, v := range after {
			if !reflect.DeepEqual(before[name], v) {
				changed = append(changed, name)
				if before[name] != nil {
					resp.Error = fmt.Errorf("%s: the import plans %s from %v to %v; only inputs the manager does not report may change, from null", c.addr, name, before[name], v)
					return
				}
			}
		}
		sort.Strings(changed)
		want := slices.Sorted(slices.Values(c.attrs))
		if !slices.Equal(changed, want) {
			resp.Error = fmt.Errorf("%s: the import plans changes of [%s], want exactly [%s]", c.addr, strings.Join(changed, " "), strings.Join(want, " "))
		}
		return
	}
	resp.Error = fmt.Errorf("%s is not in the plan", c.addr)
}
