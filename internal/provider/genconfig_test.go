package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/apmsim/apmsimtest"
	"github.com/apmplatform/terraform-provider-apm/internal/clifeatures"
	"github.com/apmplatform/terraform-provider-apm/internal/clitest"
)

// Adoption by generated configuration (issue 22, section 3). For every resource type, an
// object made outside Terraform is imported with `plan -generate-config-out`, by import ID
// and (Terraform and OpenTofu 1.12 and later) by identity; the block the CLI writes from
// the imported state (every CLI with its own algorithm: the framework v1.19.0 does not
// announce its GenerateResourceConfig, see TestGenerateResourceConfigForEveryType) must pass
// validate and plan no change, as written. The one exception is a type whose object holds
// a secret the manager never reports: its block fails validate with one message that
// names what to add, never with a wrong value, and once that is added it plans nothing
// but recording it.

// adoptable is the platform the tests adopt, made with the admin client as another
// operator would: one object of every resource type. Top-level names carry the test's
// prefix (env.name).
type adoptable struct {
	shop, db, ds, user, role string
	cert                     webTestCert
}

// Servers of the adoptable platform, all on node app-01. was-2 and web-2 are installed
// with only their first port, so that the manager reports the others as absent; web-1
// serves HTTPS, with the certificate of apm_web_ssl.
const (
	adoptNode = "app-01"
	adoptHost = "10.0.0.21"
)

// arrangeAdoptable makes the platform, and removes it when the test is done (on a real
// manager; each test's apmsim goes with the test).
func (e *accEnv) arrangeAdoptable() adoptable {
	e.t.Helper()
	ctx := e.ctx()
	p := adoptable{shop: e.name("shop"), db: e.name("orders-db"), ds: e.name("orders-ds"), user: e.name("alice"), role: e.name("operators"),
		cert: newWebTestCert(e.t, "web-1.example", nil)}
	ref := func(kind apm.ServerKind, id string) apm.ServerRef {
		return apm.ServerRef{Kind: kind, ServerID: id, NodeName: adoptNode, SystemName: p.shop}
	}
	was1, was2, web1, web2, session1 := ref(apm.KindWAS, "was-1"), ref(apm.KindWAS, "was-2"), ref(apm.KindWeb, "web-1"), ref(apm.KindWeb, "web-2"), ref(apm.KindSession, "session-1")
	e.t.Cleanup(func() {
		_ = e.admin.RevokeRole(ctx, p.user, p.role)
		_ = e.admin.DeleteUser(ctx, p.user)
		_ = e.admin.DeleteRole(ctx, p.role)
		_ = e.admin.SetWorkers(ctx, web1, nil)
		_ = e.admin.UndeployApplication(ctx, was1, "/shop")
		_ = e.admin.DetachDatasource(ctx, was1, p.ds)
		_ = e.admin.RemoveSessionCluster(ctx, was1)
		for _, s := range []apm.ServerRef{was1, was2, web1, web2, session1} {
			_ = e.admin.UninstallServer(ctx, s)
		}
		_ = e.admin.DeleteDatasource(ctx, p.ds)
		_ = e.admin.DeleteDatabase(ctx, p.db)
		if node, err := e.admin.GetNode(ctx, p.shop, adoptNode); err == nil {
			_ = e.admin.DeleteNode(ctx, p.shop, node.NodeID)
		}
		_ = e.admin.DeleteSystem(ctx, p.shop)
	})
	e.must(e.admin.CreateSystem(ctx, p.shop))
	e.must(e.admin.CreateNode(ctx, apm.CreateNodeRequest{NodeName: adoptNode, SystemName: p.shop, HostIP: adoptHost, AgentPort: 7730}))
	e.must(e.admin.InstallServer(ctx, apm.KindWAS, apm.ServerSpec{ServerID: was1.ServerID, NodeName: adoptNode, SystemName: p.shop, HTTPPort: 8080, AJPPort: 8009}))
	e.must(e.admin.InstallServer(ctx, apm.KindWAS, apm.ServerSpec{ServerID: was2.ServerID, NodeName: adoptNode, SystemName: p.shop, HTTPPort: 8180}))
	e.must(e.admin.InstallServer(ctx, apm.KindWeb, apm.ServerSpec{ServerID: web1.ServerID, NodeName: adoptNode, SystemName: p.shop, HTTPPort: 80}))
	e.must(e.admin.InstallServer(ctx, apm.KindWeb, apm.ServerSpec{ServerID: web2.ServerID, NodeName: adoptNode, SystemName: p.shop, HTTPPort: 8081}))
	e.must(e.admin.InstallServer(ctx, apm.KindSession, apm.ServerSpec{ServerID: session1.ServerID, NodeName: adoptNode, SystemName: p.shop, ServerPort: 5180}))
	e.must(e.admin.StartServer(ctx, was1))
	e.must(e.admin.SetSessionCluster(ctx, was1, apm.SessionCluster{PrimaryHost: adoptHost, PrimaryPort: 5180}))
	e.must(e.admin.CreateDatabase(ctx, apm.DatabaseSpec{ResourceName: p.db, DatabaseType: "PostgreSQL", Host: "10.0.0.40", Port: 5432,
		DatabaseName: "orders", UserName: "app", Password: "Sw0rdfish!"}))
	e.must(e.admin.CreateDatasource(ctx, apm.DatasourceSpec{ResourceName: p.ds, DatabaseResourceName: p.db}))
	e.must(e.admin.AttachDatasource(ctx, was1, p.ds))
	e.must(e.admin.DeployApplication(ctx, was1, apm.Deployment{ContextPath: "/shop", SourcePath: "/opt/apps/shop.war"}))
	e.must(e.admin.SetWorkers(ctx, web1, []apm.Worker{{ServerID: was1.ServerID, NodeName: adoptNode, SystemName: p.shop, LBFactor: 2}}))
	e.must(e.admin.AddURIs(ctx, web1, []string{"/shop/*"}))
	e.must(e.admin.ConfigureSSL(ctx, web1, apm.SSLConfig{HTTPSPort: 8443, CertificatePEM: p.cert.certPEM, PrivateKeyPEM: p.cert.keyPEM}))
	e.must(e.admin.CreateRole(ctx, apm.RoleSpec{AuthID: p.role, AuthName: "Operators", ActionTypes: []apm.ActionType{apm.ActionRead, apm.ActionExecute}}))
	e.must(e.admin.CreateUser(ctx, apm.UserSpec{UserID: p.user, UserName: "Alice", Password: "Adopt-Passw0rd!"}))
	e.must(e.admin.GrantRole(ctx, p.user, p.role))
	return p
}

// adoptCase is how the tests adopt one resource type's object of the adoptable platform.
type adoptCase struct {
	id func(p adoptable) string // its import ID
	// secret is set for a type whose object holds a secret the manager never reports.
	secret *adoptSecret
}

// adoptSecret is what the generated block of a type with a secret lacks.
type adoptSecret struct {
	// summary is the summary of the one error validate gives for the generated block: it
	// names the object, so that the errors of two blocks never read alike (which
	// Terraform 1.14 and later would keep one of).
	summary func(p adoptable) string
	// detail are fragments of the error's detail, in order.
	detail []string
	// add is what the user adds to the generated block: HCL expressions by attribute. The
	// CLIs without write-only attributes (Terraform before 1.11) take the sensitive form.
	add func(p adoptable, writeOnly bool) map[string]string
}

// message matches the one error validate gives for the generated block of p's object.
func (s *adoptSecret) message(p adoptable) *regexp.Regexp {
	return errorMatching(append([]string{s.summary(p)}, s.detail...)...)
}

// passwordSecret is the secret of a type whose secret is a password; object names the
// object whose password it is, as the error that asks for it does.
func passwordSecret(password string, object func(p adoptable) string) *adoptSecret {
	return &adoptSecret{
		summary: func(p adoptable) string { return "Missing password for " + object(p) },
		detail:  []string{"password_wo", "password", "never reports"},
		add: func(_ adoptable, writeOnly bool) map[string]string {
			if writeOnly {
				return map[string]string{"password_wo": strconv.Quote(password)}
			}
			return map[string]string{"password": strconv.Quote(password)}
		},
	}
}

// adoptCases has a case for every registered resource type (TestAdoptCasesCoverEveryType).
var adoptCases = map[string]adoptCase{
	"apm_system": {id: func(p adoptable) string { return p.shop }},
	"apm_node":   {id: func(p adoptable) string { return p.shop + "/" + adoptNode }},
	// was-2 has no AJP port, and web-2 no HTTPS port: absent, not 0.
	"apm_was_server":          {id: func(p adoptable) string { return p.shop + "/" + adoptNode + "/was-2" }},
	"apm_web_server":          {id: func(p adoptable) string { return p.shop + "/" + adoptNode + "/web-2" }},
	"apm_session_server":      {id: func(p adoptable) string { return p.shop + "/" + adoptNode + "/session-1" }},
	"apm_was_session_cluster": {id: func(p adoptable) string { return p.shop + "/" + adoptNode + "/was-1" }},
	"apm_was_datasource":      {id: func(p adoptable) string { return p.shop + "/" + adoptNode + "/was-1/" + p.ds }},
	"apm_was_application":     {id: func(p adoptable) string { return p.shop + "/" + adoptNode + "/was-1/shop" }},
	"apm_web_workers":         {id: func(p adoptable) string { return p.shop + "/" + adoptNode + "/web-1" }},
	"apm_web_uri_patterns":    {id: func(p adoptable) string { return p.shop + "/" + adoptNode + "/web-1" }},
	"apm_web_ssl": {
		id: func(p adoptable) string { return p.shop + "/" + adoptNode + "/web-1" },
		secret: &adoptSecret{
			summary: func(adoptable) string {
				return fmt.Sprintf("Missing certificate and private key for SSL set-up of web server %q on node %q", "web-1", adoptNode)
			},
			detail: []string{"certificate_pem", "private_key_pem_wo", "private_key_pem", "never reports"},
			add: func(p adoptable, writeOnly bool) map[string]string {
				key := "private_key_pem"
				if writeOnly {
					key = "private_key_pem_wo"
				}
				return map[string]string{"certificate_pem": strconv.Quote(p.cert.certPEM), key: strconv.Quote(p.cert.keyPEM)}
			},
		},
	},
	"apm_database":   {id: func(p adoptable) string { return p.db }, secret: passwordSecret("Sw0rdfish!", func(p adoptable) string { return fmt.Sprintf("database %q", p.db) })},
	"apm_datasource": {id: func(p adoptable) string { return p.ds }},
	"apm_user":       {id: func(p adoptable) string { return p.user }, secret: passwordSecret("Adopt-Passw0rd!", func(p adoptable) string { return fmt.Sprintf("user %q", p.user) })},
	// The role has no description: the manager reports "".
	"apm_role":      {id: func(p adoptable) string { return p.role }},
	"apm_user_role": {id: func(p adoptable) string { return p.user + "/" + p.role }},
}

// Every registered resource type has an adoption case, and every case a type: a type
// added later fails here until it can be adopted.
func TestAdoptCasesCoverEveryType(t *testing.T) {
	types := registeredTypes()
	for name := range types {
		if _, ok := adoptCases[name]; !ok {
			t.Errorf("resource type %s has no case in adoptCases (genconfig_test.go): say how its object is arranged and imported", name)
		}
	}
	for name := range adoptCases {
		if _, ok := types[name]; !ok {
			t.Errorf("adoptCases has a case for %s, which is not a registered resource type", name)
		}
	}
}

// adoptAddress is where the tests import each object.
const adoptAddress = "adopted"

// TestAccGeneratedConfig imports one object of every resource type with
// `plan -generate-config-out` on the CLI, by import ID and by identity, and runs validate,
// plan, apply and plan on the generated block as written (with the secret added, for the
// types that have one).
func TestAccGeneratedConfig(t *testing.T) {
	cli, version := accCLI(t)
	t.Parallel()
	start := time.Now()
	t.Run("type", func(t *testing.T) {
		for _, name := range slices.Sorted(maps.Keys(registeredTypes())) {
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				c, ok := adoptCases[name]
				if !ok {
					t.Fatalf("no adoption case for %s", name)
				}
				t.Run("id", func(t *testing.T) { adoptWithGeneratedConfig(t, cli, version, name, c, byImportID) })
				t.Run("identity", func(t *testing.T) {
					if why := clifeatures.Identity.Missing(version); why != "" {
						t.Skip(why)
					}
					adoptWithGeneratedConfig(t, cli, version, name, c, byIdentity)
				})
			})
		}
	})
	t.Logf("generated configuration: ran on %s (%s) in %s", cli, version, time.Since(start).Round(time.Second))
}

// TestAccGeneratedConfig_query adopts the whole adoptable platform with
// `terraform query -generate-config-out` over the guide's list blocks, which writes an
// import block by identity and a resource block for each object: once the secrets are added to
// the blocks of the types that have one, the generated file plans the import of every
// object it names and nothing else, the apply imports them, and the plan after it is empty.
func TestAccGeneratedConfig_query(t *testing.T) {
	cli, _ := needs(t, clifeatures.ListResources, clifeatures.QueryGenConfig)
	env := newAccEnv(t)
	env.needsSim("imports every object of the manager, of which a shared one holds more than the test's")
	p := env.arrangeAdoptable()
	dir := t.TempDir()
	clitest.MustWrite(t, filepath.Join(dir, "main.tf"), env.config(""))
	clitest.MustWrite(t, filepath.Join(dir, "adopt.tfquery.hcl"), guideSnippetText(t, guideSnippets(t), "query", "hcl"))
	run := func(args ...string) (string, bool) {
		out, ok := runCLI(t, cli, dir, args...)
		return redact(out, env.sim.AdminKey), ok
	}
	if out, ok := run("init", "-input=false", "-no-color", "-backend=false", "-plugin-dir="+t.TempDir()); !ok {
		t.Fatalf("init failed:\n%s", out)
	}
	// query takes no -input.
	if out, ok := run("query", "-no-color", "-generate-config-out=generated.tf"); !ok {
		t.Fatalf("query -generate-config-out failed:\n%s", out)
	}
	data, err := os.ReadFile(filepath.Join(dir, "generated.tf"))
	if err != nil {
		t.Fatalf("query -generate-config-out wrote no configuration: %v", err)
	}
	generated, recorded := withSecretsAdded(t, string(data), p)
	t.Logf("generated.tf, with the secrets added:\n%s", generated)
	clitest.MustWrite(t, filepath.Join(dir, "generated.tf"), generated)
	imported := map[string]int{}
	for addr := range recorded {
		typ, _, _ := strings.Cut(addr, ".")
		imported[typ]++
	}
	for _, name := range slices.Sorted(maps.Keys(registeredTypes())) {
		if imported[name] == 0 {
			t.Errorf("query -generate-config-out wrote no %s, of which the platform has one", name)
		}
	}
	if n := len(regexp.MustCompile(`(?m)^import \{$`).FindAllString(generated, -1)); n != len(recorded) {
		t.Errorf("generated.tf has %d import blocks for %d resources", n, len(recorded))
	}

	if out, ok := run("plan", "-input=false", "-no-color", "-lock=false", "-out=tfplan"); !ok {
		t.Fatalf("plan of the generated configuration failed:\n%s", out)
	}
	shown, ok := run("show", "-json", "tfplan")
	if !ok {
		t.Fatalf("show -json failed:\n%s", shown)
	}
	if err := onlyImported(shown, recorded); err != nil {
		t.Error(err)
	}
	if out, ok := run("apply", "-input=false", "-no-color", "-lock=false", "-auto-approve", "tfplan"); !ok {
		t.Fatalf("apply of the imports failed:\n%s", out)
	}
	if out, ok := run("plan", "-input=false", "-no-color", "-lock=false", "-detailed-exitcode"); !ok {
		t.Errorf("the plan after the imports is not empty:\n%s", out)
	}
}

// generatedResource is a resource block of generated configuration: its type and name.
var generatedResource = regexp.MustCompile(`(?ms)^resource "(\w+)" "(\w+)" \{$.*?^\}$`)

// withSecretsAdded adds to each generated resource block of a type with a secret what its
// user adds (the write-only form: the CLIs that generate from a query take it), and
// returns the configuration and, by address of every resource block, the attributes added.
func withSecretsAdded(t *testing.T, generated string, p adoptable) (string, map[string][]string) {
	t.Helper()
	recorded := map[string][]string{}
	edited := generatedResource.ReplaceAllStringFunc(generated, func(block string) string {
		m := generatedResource.FindStringSubmatch(block)
		addr := m[1] + "." + m[2]
		recorded[addr] = nil
		c, ok := adoptCases[m[1]]
		if !ok {
			t.Errorf("generated.tf has a block of %s, which has no adoption case", m[1])
			return block
		}
		if c.secret == nil {
			return block
		}
		add := c.secret.add(p, true)
		recorded[addr] = slices.Sorted(maps.Keys(add))
		return setAttributes(t, block, add)
	})
	return edited, recorded
}

// writeOnlyCLI reports whether the CLI of version (the first line of `<cli> version`)
// takes write-only attributes.
func writeOnlyCLI(version string) bool { return clifeatures.WriteOnly.Has(version) }

// importKind is how an import block names its object: the argument it gives, for the
// object of the import ID id.
type importKind func(t *testing.T, env *accEnv, typeName, id string) string

// byImportID names the object by its import ID.
func byImportID(_ *testing.T, _ *accEnv, _, id string) string { return fmt.Sprintf("id = %q", id) }

// byIdentity names the object by the identity that the provider reports for it.
func byIdentity(t *testing.T, env *accEnv, typeName, id string) string {
	t.Helper()
	ctx := context.Background()
	srv := NewProtocol6Server("test")()
	configureProtocolServer(ctx, t, srv, env.sim.URL, env.sim.AdminKey)
	state, _ := importAndRead(ctx, t, srv, typeName, id)
	schemas, err := srv.GetResourceIdentitySchemas(ctx, &tfprotov6.GetResourceIdentitySchemasRequest{})
	if err != nil || state.identity == nil {
		t.Fatalf("%s has no identity (%v)", typeName, err)
	}
	identity, err := state.identity.IdentityData.Unmarshal(schemas.IdentitySchemas[typeName].ValueType())
	if err != nil {
		t.Fatal(err)
	}
	var attrs map[string]tftypes.Value
	if err := identity.As(&attrs); err != nil {
		t.Fatal(err)
	}
	var parts []string
	for _, name := range slices.Sorted(maps.Keys(attrs)) {
		var value string
		if err := attrs[name].As(&value); err != nil {
			t.Fatalf("identity attribute %s of %s: %v", name, typeName, err)
		}
		parts = append(parts, fmt.Sprintf("%s = %q", name, value))
	}
	return "identity = { " + strings.Join(parts, ", ") + " }"
}

// adoptWithGeneratedConfig adopts the type's object of a fresh adoptable platform, with an
// import block that names it the way of kind.
func adoptWithGeneratedConfig(t *testing.T, cli, version, typeName string, c adoptCase, kind importKind) {
	writeOnly := writeOnlyCLI(version)
	env := newAccEnv(t)
	p := env.arrangeAdoptable()
	addr := typeName + "." + adoptAddress
	dir := t.TempDir()
	clitest.MustWrite(t, filepath.Join(dir, "main.tf"), env.config(fmt.Sprintf("\nimport {\n  to = %s\n  %s\n}\n", addr, kind(t, env, typeName, c.id(p)))))
	run := func(args ...string) (string, bool) {
		out, ok := runCLI(t, cli, dir, args...)
		return redact(out, env.sim.AdminKey), ok
	}
	if out, ok := run("init", "-input=false", "-no-color", "-backend=false", "-plugin-dir="+t.TempDir()); !ok {
		t.Fatalf("init failed:\n%s", out)
	}
	out, planned := run("plan", "-input=false", "-no-color", "-lock=false", "-generate-config-out=generated.tf")
	data, err := os.ReadFile(filepath.Join(dir, "generated.tf"))
	if err != nil {
		t.Fatalf("plan -generate-config-out wrote no configuration (%v):\n%s", err, out)
	}
	generated := string(data)
	t.Logf("generated configuration:\n%s", generated)
	if fixed, ok := quoteMapKeys(generated); ok {
		// The CLI's own bug: no schema can avoid it. It costs the user one edit, which the
		// plan's error points at.
		if quotesMapKeys(version) {
			t.Errorf("%s wrote map keys that are not identifiers without quotes:\n%s", version, generated)
		}
		t.Logf("%s writes map keys that are not identifiers without quotes (opentofu/opentofu#3978, hashicorp/terraform#35752): quoted by hand", version)
		generated, planned = fixed, true
		clitest.MustWrite(t, filepath.Join(dir, "generated.tf"), generated)
	}
	validated, validOK := run("validate", "-no-color")

	if c.secret == nil {
		if !planned {
			t.Errorf("plan -generate-config-out failed:\n%s", out)
		}
		if !validOK {
			t.Fatalf("the generated configuration does not validate:\n%s\n%s", validated, generated)
		}
	} else {
		// The block cannot hold the secret: validate says what to add, once.
		t.Logf("validate:\n%s", validated)
		if validOK {
			t.Fatalf("the generated configuration validates without the secret the manager never reports:\n%s", generated)
		}
		if n := len(cliErrors.FindAllString(validated, -1)); n != 1 {
			t.Errorf("validate gave %d errors, want exactly one that names what to add:\n%s", n, validated)
		}
		if want := c.secret.message(p); !want.MatchString(validated) {
			t.Errorf("validate's error does not match %q:\n%s", want, validated)
		}
		add := c.secret.add(p, writeOnly)
		for attr := range add {
			if !regexp.MustCompile(`(?m)^\s*` + attr + `\s*=\s*null\b`).MatchString(generated) {
				t.Errorf("the generated block must leave %s null (the manager never reports it), got:\n%s", attr, generated)
			}
		}
		generated = setAttributes(t, generated, add)
		clitest.MustWrite(t, filepath.Join(dir, "generated.tf"), generated)
		if out, ok := run("validate", "-no-color"); !ok {
			t.Fatalf("the generated configuration with %v added does not validate:\n%s", slices.Sorted(maps.Keys(add)), out)
		}
	}

	if out, ok := run("plan", "-input=false", "-no-color", "-lock=false", "-out=tfplan"); !ok {
		t.Fatalf("plan of the generated configuration failed:\n%s", out)
	}
	shown, ok := run("show", "-json", "tfplan")
	if !ok {
		t.Fatalf("show -json failed:\n%s", shown)
	}
	var recorded []string
	if c.secret != nil {
		recorded = slices.Collect(maps.Keys(c.secret.add(p, writeOnly)))
	}
	if err := onlyImported(shown, map[string][]string{addr: recorded}); err != nil {
		t.Errorf("%v\n%s", err, generated)
	}
	if out, ok := run("apply", "-input=false", "-no-color", "-lock=false", "-auto-approve", "tfplan"); !ok {
		t.Fatalf("apply of the import failed:\n%s", out)
	}
	if out, ok := run("plan", "-input=false", "-no-color", "-lock=false", "-detailed-exitcode"); !ok {
		t.Errorf("the plan after the import is not empty:\n%s", out)
	}
}

// quotesMapKeys reports whether the CLI of version quotes the keys of a generated map
// attribute that are not identifiers (the ids of WAS servers in apm_web_workers).
func quotesMapKeys(version string) bool { return clifeatures.QuotedMapKeys.Has(version) }

// unquotedMapKey is a map key of generated HCL that is not an identifier, written without
// quotes: hclwrite formats SYS-0001/app-01/was-1 as SYS-0001 / app-01 / was-1.
var unquotedMapKey = regexp.MustCompile(`(?m)^(\s*)([A-Za-z0-9_.-]+(?: / [A-Za-z0-9_.-]+)+) = \{$`)

// quoteMapKeys quotes the unquoted map keys of a generated block, as its user must; ok
// reports whether it had any.
func quoteMapKeys(block string) (string, bool) {
	if !unquotedMapKey.MatchString(block) {
		return block, false
	}
	return unquotedMapKey.ReplaceAllStringFunc(block, func(line string) string {
		m := unquotedMapKey.FindStringSubmatch(line)
		return m[1] + strconv.Quote(strings.ReplaceAll(m[2], " / ", "/")) + " = {"
	}), true
}

// cliErrors matches the start of each error diagnostic in a CLI's output.
var cliErrors = regexp.MustCompile(`(?m)^[│|]?\s*Error: `)

// setAttributes sets attributes of a generated block to HCL expressions, as a user edits
// it: each attribute's line is replaced.
func setAttributes(t *testing.T, block string, values map[string]string) string {
	t.Helper()
	for attr, expr := range values {
		line := regexp.MustCompile(`(?m)^(\s*)` + attr + `\s*=.*$`)
		if !line.MatchString(block) {
			t.Fatalf("the generated block has no line for %s:\n%s", attr, block)
		}
		block = line.ReplaceAllLiteralString(block, "  "+attr+" = "+expr)
	}
	return block
}

// onlyImported checks a saved plan, as `show -json` prints it: it imports each address of
// recorded and changes nothing else; each import is a no-op, or an update that records
// only the attributes named for its address (values the manager never reports, added to
// the configuration).
func onlyImported(shown string, recorded map[string][]string) error {
	var plan tfjson.Plan
	if err := json.Unmarshal([]byte(shown[strings.Index(shown, "{"):]), &plan); err != nil {
		return fmt.Errorf("show -json: %w", err)
	}
	var problems []string
	found := map[string]bool{}
	for _, rc := range plan.ResourceChanges {
		attrs, ok := recorded[rc.Address]
		if !ok {
			problems = append(problems, fmt.Sprintf("%s is in the plan (%v)", rc.Address, rc.Change.Actions))
			continue
		}
		found[rc.Address] = true
		problems = append(problems, importProblems(rc, attrs)...)
	}
	for _, addr := range slices.Sorted(maps.Keys(recorded)) {
		if !found[addr] {
			problems = append(problems, addr+" is not in the plan")
		}
	}
	if len(problems) > 0 {
		return fmt.Errorf("the plan of the generated configuration must import %s and change nothing else: %s",
			strings.Join(slices.Sorted(maps.Keys(recorded)), ", "), strings.Join(problems, "; "))
	}
	return nil
}

// importProblems are what is wrong with the change of an imported object: not imported,
// or changing more than the attributes recorded.
func importProblems(rc *tfjson.ResourceChange, recorded []string) []string {
	var problems []string
	if rc.Change.Importing == nil {
		problems = append(problems, rc.Address+" is not imported")
	}
	if rc.Change.Actions.NoOp() {
		return problems
	}
	if !rc.Change.Actions.Update() {
		return append(problems, fmt.Sprintf("%s: %v, want the import alone", rc.Address, rc.Change.Actions))
	}
	before, _ := rc.Change.Before.(map[string]any)
	after, _ := rc.Change.After.(map[string]any)
	for _, attr := range slices.Sorted(maps.Keys(after)) {
		if !slices.Contains(recorded, attr) && fmt.Sprint(before[attr]) != fmt.Sprint(after[attr]) {
			problems = append(problems, fmt.Sprintf("%s.%s: %v -> %v", rc.Address, attr, before[attr], after[attr]))
		}
	}
	return problems
}

// TestGenerateResourceConfigForEveryType runs the generation of Terraform 1.14 and later
// (the GenerateResourceConfig RPC, the framework's algorithm) through the provider's
// protocol server, as the CLI calls it: for one object of every type, import, read,
// generate; the configuration generated must validate (or, for a type with a secret, fail
// with the one message, and validate once the secret is added) and plan no change and no
// replacement from the imported state. The framework (v1.19.0) offers no hook for a
// provider's own generation, and does not announce the RPC in its server capabilities, so
// that Terraform 1.14 generates with its own copy of the same algorithm: this covers both.
func TestGenerateResourceConfigForEveryType(t *testing.T) {
	ctx := context.Background()
	schemas := providerSchemas(t)
	for _, name := range slices.Sorted(maps.Keys(registeredTypes())) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			c, ok := adoptCases[name]
			if !ok {
				t.Fatalf("no adoption case for %s", name)
			}
			env := newAccEnv(t)
			p := env.arrangeAdoptable()
			srv := NewProtocol6Server("test")()
			configureProtocolServer(ctx, t, srv, env.sim.URL, env.sim.AdminKey)
			schema := schemas.ResourceSchemas[name]
			typ := schema.ValueType()
			state, private := importAndRead(ctx, t, srv, name, c.id(p))

			generated, err := srv.GenerateResourceConfig(ctx, &tfprotov6.GenerateResourceConfigRequest{TypeName: name, State: dynamicValue(t, typ, state.value)})
			if err != nil || failed(generated.Diagnostics) {
				t.Fatalf("generate: %v %s", err, diagText(generated.Diagnostics))
			}
			config, err := generated.Config.Unmarshal(typ)
			if err != nil {
				t.Fatal(err)
			}
			var recorded []string
			if c.secret != nil {
				errs := validateErrors(ctx, t, srv, name, typ, config)
				if len(errs) != 1 || !c.secret.message(p).MatchString(diagText(errs)) {
					t.Errorf("the generated configuration must fail validation with one error that asks for the secret, got: %s", diagText(errs))
				}
				add := c.secret.add(p, true)
				config = withStrings(t, config, add)
				recorded = slices.Collect(maps.Keys(add))
			}
			if errs := validateErrors(ctx, t, srv, name, typ, config); len(errs) > 0 {
				t.Fatalf("the generated configuration does not validate: %s", diagText(errs))
			}
			proposed := proposedNew(t, schema, state.value, config)
			plan, err := srv.PlanResourceChange(ctx, &tfprotov6.PlanResourceChangeRequest{
				TypeName: name, PriorState: dynamicValue(t, typ, state.value), ProposedNewState: dynamicValue(t, typ, proposed),
				Config: dynamicValue(t, typ, config), PriorPrivate: private, PriorIdentity: state.identity,
			})
			if err != nil || failed(plan.Diagnostics) {
				t.Fatalf("plan: %v %s", err, diagText(plan.Diagnostics))
			}
			if len(plan.RequiresReplace) > 0 {
				t.Errorf("the plan replaces the object for %v", plan.RequiresReplace)
			}
			planned, err := plan.PlannedState.Unmarshal(typ)
			if err != nil {
				t.Fatal(err)
			}
			for attr, diff := range attributeDiffs(t, state.value, planned) {
				if !slices.Contains(recorded, attr) {
					t.Errorf("the plan changes %s: %s", attr, diff)
				}
			}
		})
	}
}

// The error that asks for a missing secret names the object where the configuration is
// wholly known (a generated block: its errors must not read alike), and only then: an
// unknown name would read as "".
func TestMissingSecretNamesTheObject(t *testing.T) {
	ctx := context.Background()
	srv := protocolServer(t)
	schema := providerSchemas(t).ResourceSchemas["apm_database"]
	typ := schema.ValueType()
	database := func(name tftypes.Value) tftypes.Value {
		vals := map[string]tftypes.Value{}
		for _, a := range schema.Block.Attributes {
			vals[a.Name] = tftypes.NewValue(a.ValueType(), nil)
		}
		vals["resource_name"] = name
		vals["database_type"] = tftypes.NewValue(tftypes.String, "PostgreSQL")
		vals["host"] = tftypes.NewValue(tftypes.String, "10.0.0.40")
		vals["port"] = tftypes.NewValue(tftypes.Number, 5432)
		vals["database_name"] = tftypes.NewValue(tftypes.String, "orders")
		vals["user_name"] = tftypes.NewValue(tftypes.String, "app")
		return tftypes.NewValue(typ, vals)
	}
	for _, c := range []struct {
		name tftypes.Value
		want string
	}{
		{tftypes.NewValue(tftypes.String, "orders-db"), `Missing password for database "orders-db"`},
		{tftypes.NewValue(tftypes.String, tftypes.UnknownValue), "Missing password"},
	} {
		errs := validateErrors(ctx, t, srv, "apm_database", typ, database(c.name))
		if len(errs) != 1 || errs[0].Summary != c.want {
			t.Errorf("resource_name %s: got %s, want one error %q", c.name, diagText(errs), c.want)
		}
	}
}

// A server adopted while it starts (or stops) gets the configuration of the state it is on
// its way to: the configuration generated from its imported state validates and plans no
// change. It read "starting" before, which the generated `state` repeated and validate
// refused.
func TestGeneratedConfigOfServerInTransition(t *testing.T) {
	ctx := context.Background()
	env := newAccEnvWith(t, apmsimtest.WithTransitionDelay(time.Hour))
	p := env.arrangeAdoptable()
	srv := NewProtocol6Server("test")()
	configureProtocolServer(ctx, t, srv, env.sim.URL, env.sim.AdminKey)
	ref := apm.ServerRef{Kind: apm.KindWAS, ServerID: "was-2", NodeName: adoptNode, SystemName: p.shop}
	env.must(env.admin.StartServer(ctx, ref))
	schema := providerSchemas(t).ResourceSchemas["apm_was_server"]
	typ := schema.ValueType()
	state, private := importAndRead(ctx, t, srv, "apm_was_server", adoptCases["apm_was_server"].id(p))
	generated, err := srv.GenerateResourceConfig(ctx, &tfprotov6.GenerateResourceConfigRequest{TypeName: "apm_was_server", State: dynamicValue(t, typ, state.value)})
	if err != nil || failed(generated.Diagnostics) {
		t.Fatalf("generate: %v %s", err, diagText(generated.Diagnostics))
	}
	config, err := generated.Config.Unmarshal(typ)
	if err != nil {
		t.Fatal(err)
	}
	if errs := validateErrors(ctx, t, srv, "apm_was_server", typ, config); len(errs) > 0 {
		t.Fatalf("the configuration generated for a starting server does not validate: %s", diagText(errs))
	}
	plan, err := srv.PlanResourceChange(ctx, &tfprotov6.PlanResourceChangeRequest{
		TypeName: "apm_was_server", PriorState: dynamicValue(t, typ, state.value), ProposedNewState: dynamicValue(t, typ, proposedNew(t, schema, state.value, config)),
		Config: dynamicValue(t, typ, config), PriorPrivate: private, PriorIdentity: state.identity,
	})
	if err != nil || failed(plan.Diagnostics) {
		t.Fatalf("plan: %v %s", err, diagText(plan.Diagnostics))
	}
	planned, err := plan.PlannedState.Unmarshal(typ)
	if err != nil {
		t.Fatal(err)
	}
	if diffs := attributeDiffs(t, state.value, planned); len(diffs) > 0 {
		t.Errorf("the plan of the generated configuration changes %v", diffs)
	}
}

// readState is a resource's state, with its identity (nil for a type without one).
type readState struct {
	value    tftypes.Value
	identity *tfprotov6.ResourceIdentityData
}

// importAndRead imports the object of id as the CLI does (import, then a read), and
// returns its state and private state.
func importAndRead(ctx context.Context, t *testing.T, srv tfprotov6.ProviderServer, name, id string) (readState, []byte) {
	t.Helper()
	imported, err := srv.ImportResourceState(ctx, &tfprotov6.ImportResourceStateRequest{TypeName: name, ID: id})
	if err != nil || failed(imported.Diagnostics) || len(imported.ImportedResources) != 1 {
		t.Fatalf("import %s: %v %s", id, err, diagText(imported.Diagnostics))
	}
	object := imported.ImportedResources[0]
	read, err := srv.ReadResource(ctx, &tfprotov6.ReadResourceRequest{
		TypeName: name, CurrentState: object.State, Private: object.Private, CurrentIdentity: object.Identity,
		ClientCapabilities: &tfprotov6.ReadResourceClientCapabilities{},
	})
	if err != nil || failed(read.Diagnostics) || read.NewState == nil {
		t.Fatalf("read %s: %v %s", id, err, diagText(read.Diagnostics))
	}
	schema := providerSchemas(t).ResourceSchemas[name]
	value, err := read.NewState.Unmarshal(schema.ValueType())
	if err != nil {
		t.Fatal(err)
	}
	if value.IsNull() {
		t.Fatalf("read %s: the imported object is gone", id)
	}
	return readState{value: value, identity: read.NewIdentity}, read.Private
}

// validateErrors are the errors of ValidateResourceConfig for config, from a CLI that
// takes write-only attributes.
func validateErrors(ctx context.Context, t *testing.T, srv tfprotov6.ProviderServer, name string, typ tftypes.Type, config tftypes.Value) []*tfprotov6.Diagnostic {
	t.Helper()
	resp, err := srv.ValidateResourceConfig(ctx, &tfprotov6.ValidateResourceConfigRequest{
		TypeName: name, Config: dynamicValue(t, typ, config),
		ClientCapabilities: &tfprotov6.ValidateResourceConfigClientCapabilities{WriteOnlyAttributesAllowed: true},
	})
	if err != nil {
		t.Fatal(err)
	}
	return slices.DeleteFunc(resp.Diagnostics, func(d *tfprotov6.Diagnostic) bool { return d.Severity != tfprotov6.DiagnosticSeverityError })
}

// proposedNew is the proposed new state that Terraform sends with a plan, for a
// configuration whose nested values are complete (a generated one): for an attribute the
// provider computes and the configuration leaves null, the prior value; for a write-only
// one, null; for any other, the configuration's.
func proposedNew(t *testing.T, schema *tfprotov6.Schema, prior, config tftypes.Value) tftypes.Value {
	t.Helper()
	var p, c map[string]tftypes.Value
	if err := prior.As(&p); err != nil {
		t.Fatal(err)
	}
	if err := config.As(&c); err != nil {
		t.Fatal(err)
	}
	out := make(map[string]tftypes.Value, len(c))
	for _, a := range schema.Block.Attributes {
		switch {
		case a.WriteOnly:
			out[a.Name] = tftypes.NewValue(a.ValueType(), nil)
		case a.Computed && (!a.Optional || c[a.Name].IsNull()):
			out[a.Name] = p[a.Name]
		default:
			out[a.Name] = c[a.Name]
		}
	}
	return tftypes.NewValue(config.Type(), out)
}

// withStrings is config with the attributes set to the strings that the HCL string
// literals of values hold.
func withStrings(t *testing.T, config tftypes.Value, values map[string]string) tftypes.Value {
	t.Helper()
	var attrs map[string]tftypes.Value
	if err := config.As(&attrs); err != nil {
		t.Fatal(err)
	}
	for attr, literal := range values {
		s, err := strconv.Unquote(literal)
		if err != nil {
			t.Fatalf("%s: %v", attr, err)
		}
		attrs[attr] = tftypes.NewValue(tftypes.String, s)
	}
	return tftypes.NewValue(config.Type(), attrs)
}

// attributeDiffs are the top-level attributes whose values differ between a and b.
func attributeDiffs(t *testing.T, a, b tftypes.Value) map[string]string {
	t.Helper()
	var av, bv map[string]tftypes.Value
	if err := a.As(&av); err != nil {
		t.Fatal(err)
	}
	if err := b.As(&bv); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for name, v := range av {
		if !v.Equal(bv[name]) {
			out[name] = fmt.Sprintf("%s -> %s", v, bv[name])
		}
	}
	return out
}

func dynamicValue(t *testing.T, typ tftypes.Type, v tftypes.Value) *tfprotov6.DynamicValue {
	t.Helper()
	dv, err := tfprotov6.NewDynamicValue(typ, v)
	if err != nil {
		t.Fatal(err)
	}
	return &dv
}

// diagText is the diagnostics as text, for messages.
func diagText(diags []*tfprotov6.Diagnostic) string {
	var b strings.Builder
	for _, d := range diags {
		fmt.Fprintf(&b, "\n%s: %s: %s", d.Severity, d.Summary, d.Detail)
	}
	return b.String()
}

// A server's mode left out means register (an adopted server's generated configuration
// has none): between the two nothing is replaced, also long after the import; a real
// change of mode still replaces the server.
func TestServerModeLeftOutMeansRegister(t *testing.T) {
	ctx := context.Background()
	srv := protocolServer(t)
	schema := providerSchemas(t).ResourceSchemas["apm_was_server"]
	typ := schema.ValueType()
	// server is a WAS server with mode (nil: left out), as state, plan and configuration.
	server := func(mode any) tftypes.Value {
		vals := map[string]tftypes.Value{}
		for _, a := range schema.Block.Attributes {
			vals[a.Name] = tftypes.NewValue(a.ValueType(), nil)
		}
		vals["id"] = tftypes.NewValue(tftypes.String, "SYS-0001/app-01/was-1")
		vals["node_id"] = tftypes.NewValue(tftypes.String, "SYS-0001/app-01")
		vals["server_id"] = tftypes.NewValue(tftypes.String, "was-1")
		vals["http_port"] = tftypes.NewValue(tftypes.Number, 8080)
		vals["force_stop"] = tftypes.NewValue(tftypes.Bool, false)
		vals["mode"] = tftypes.NewValue(tftypes.String, mode)
		return tftypes.NewValue(typ, vals)
	}
	for _, c := range []struct {
		from, to any
		replaces bool
	}{
		{nil, modeRegister, false},
		{modeRegister, nil, false},
		{modeInstall, nil, true},
		{nil, modeInstall, true},
		{modeRegister, modeInstall, true},
	} {
		resp, err := srv.PlanResourceChange(ctx, &tfprotov6.PlanResourceChangeRequest{
			TypeName: "apm_was_server", PriorState: dynamicValue(t, typ, server(c.from)),
			ProposedNewState: dynamicValue(t, typ, server(c.to)), Config: dynamicValue(t, typ, server(c.to)),
		})
		if err != nil || failed(resp.Diagnostics) {
			t.Fatalf("mode %v -> %v: %v %s", c.from, c.to, err, diagText(resp.Diagnostics))
		}
		if replaces := len(resp.RequiresReplace) > 0; replaces != c.replaces {
			t.Errorf("mode %v -> %v: replaces %v, want %v", c.from, c.to, replaces, c.replaces)
		}
	}
}
