package provider

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/clitest"
)

// exampleConfig reads the .tf files of an example directory, without its terraform and
// provider blocks, which the test harness supplies.
func exampleConfig(t *testing.T, dir string) string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "..", "examples", dir, "*.tf")) // tests run in their package directory
	if err != nil || len(files) == 0 {
		t.Fatalf("no .tf files in examples/%s: %v", dir, err)
	}
	var b strings.Builder
	for _, f := range files {
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(text)
		b.WriteString("\n")
	}
	out := terraformBlock.ReplaceAllString(b.String(), "")
	out = strings.Replace(out, "provider \"apm\" {}\n", "", 1)
	if strings.Contains(out, "required_providers") || strings.Contains(out, `provider "apm"`) {
		t.Fatalf("examples/%s: could not take out its terraform and provider blocks", dir)
	}
	return out
}

// terraformBlock is a top-level terraform block: from its first line to the first line
// that closes it at the start of a line.
var terraformBlock = regexp.MustCompile(`(?ms)^terraform \{\n.*?^\}\n`)

// exampleVarFile reads a variable file of an example directory (such as day-two.tfvars) as
// configuration variables, so that a test applies what the file says.
func exampleVarFile(t *testing.T, dir, file string) config.Variables {
	t.Helper()
	path := filepath.Join("..", "..", "examples", dir, file)
	f, diags := hclparse.NewParser().ParseHCLFile(path)
	if diags.HasErrors() {
		t.Fatalf("examples/%s/%s: %v", dir, file, diags)
	}
	attrs, diags := f.Body.JustAttributes()
	if diags.HasErrors() {
		t.Fatalf("examples/%s/%s: %v", dir, file, diags)
	}
	vars := config.Variables{}
	for name, attr := range attrs {
		value, diags := attr.Expr.Value(nil)
		if diags.HasErrors() {
			t.Fatalf("examples/%s/%s: %s: %v", dir, file, name, diags)
		}
		text, err := ctyjson.SimpleJSONValue{Value: value}.MarshalJSON()
		if err != nil {
			t.Fatalf("examples/%s/%s: %s: %v", dir, file, name, err)
		}
		vars[name] = json.RawMessage(text)
	}
	return vars
}

// The topology example: applied cleanly (no drift, an empty plan), a WAS server stopped
// behind Terraform's back shows in the next plan and apply starts it again. Day two
// (day-two.tfvars) is one apply: was-2 goes with its worker and parts (scale-in), was-3 is
// replaced by an Enterprise edition that the workers name (replacement), and a new password
// version replaces the database, the datasource and its attachments (rotation). Removing it
// all from the configuration destroys everything, parts before their servers. Write-only
// passwords need Terraform 1.11 or OpenTofu.
func TestAccTopology_example(t *testing.T) {
	env := newAccEnv(t)
	topology, db, ds := env.name("topology"), env.name("orders-db"), env.name("orders-ds")
	cfg := env.config(exampleConfig(t, "topology"))
	// The web server's certificate and key, in the files the example reads.
	tlsDir, cert := t.TempDir(), newWebTestCert(t, "web-1.example", nil)
	for name, pem := range map[string]string{"web-1.crt": cert.certPEM, "web-1.key": cert.keyPEM} {
		clitest.MustWrite(t, filepath.Join(tlsDir, name), pem)
	}
	// The variables of a step: the names of this test's objects, the passwords (write-only,
	// so that giving them again at each step sends nothing unless their version changes),
	// and those of a variable file.
	vars := func(fromFile config.Variables) config.Variables {
		v := config.Variables{
			"system_name":            config.StringVariable(topology),
			"database_resource_name": config.StringVariable(db),
			"datasource_name":        config.StringVariable(ds),
			"database_password":      config.StringVariable("Test-only-1"),
			"tls_dir":                config.StringVariable(tlsDir),
			"operator_role_id":       config.StringVariable(env.name("shop-operators")),
			"operator_user_id":       config.StringVariable(env.name("shop-operator")),
			"operator_password":      config.StringVariable("Test-only-op-1"),
		}
		maps.Copy(v, fromFile)
		return v
	}
	dayTwo := exampleVarFile(t, "topology", "day-two.tfvars")
	dayTwo["database_password"] = config.StringVariable("Test-only-2")
	ref := func(kind apm.ServerKind, server, node string) apm.ServerRef {
		return apm.ServerRef{Kind: kind, ServerID: server, NodeName: node, SystemName: topology}
	}
	was1, was2, was3, web := ref(apm.KindWAS, "was-1", "app-01"), ref(apm.KindWAS, "was-2", "app-02"), ref(apm.KindWAS, "was-3", "app-03"), ref(apm.KindWeb, "web-1", "web-01")
	worker := func(server, node, host string) apm.Worker {
		return apm.Worker{ServerID: server, NodeName: node, SystemName: topology, Host: host, AJPPort: 8009, LBFactor: 1}
	}
	// Manager checks are state checks: a step's Check cannot read a state with for_each.
	inManager := func(check resource.TestCheckFunc) statecheck.StateCheck {
		return managerCheck(func(statecheck.CheckStateRequest) error { return check(nil) })
	}
	runsWith := func(edition apm.Edition) func(s *apm.Server) error {
		return func(s *apm.Server) error {
			return want(s.Status == "running" && s.Edition == edition && slices.Equal(s.Datasources, []string{ds}) && s.SessionCluster != nil,
				"%s is %s, edition %s, datasources %v, session cluster %v; want running, %s, [%s], clustered", s.ServerID, s.Status, s.Edition, s.Datasources, s.SessionCluster, edition, ds)
		}
	}
	replaced := plancheck.ResourceActionDestroyBeforeCreate
	runWriteOnlyAcc(t, env.checkAllGone, []resource.TestStep{
		{
			Config:           cfg,
			ConfigVariables:  vars(nil),
			ConfigPlanChecks: applied(),
			ConfigStateChecks: []statecheck.StateCheck{
				inManager(env.checkServer(was1, serverIs("running", 8080))),
				inManager(env.checkServer(web, func(s *apm.Server) error {
					return want(len(s.Workers) == 3 && len(s.URIs) == 2 && s.Status == "running", "workers %v, uris %v, %s", s.Workers, s.URIs, s.Status)
				})),
				inManager(env.checkServer(was1, runsWith(apm.EditionStandard))),
				inManager(env.checkDatabase(db, func(*apm.Database) error { return nil })),
				inManager(env.checkServer(web, sslIs(443))),
				inManager(env.checkUser(env.name("shop-operator"), userNamed("Shop operator", env.name("shop-operators")))),
			},
		},
		{
			PreConfig:         func() { env.must(env.admin.StopServer(env.ctx(), was1, true)) },
			Config:            cfg,
			ConfigVariables:   vars(nil),
			ConfigPlanChecks:  applied(exactActions{`apm_was_server.this["was-1"]`: plancheck.ResourceActionUpdate}),
			ConfigStateChecks: []statecheck.StateCheck{inManager(env.checkServer(was1, serverIs("running", 8080)))},
		},
		{
			Config:          cfg,
			ConfigVariables: vars(dayTwo),
			ConfigPlanChecks: applied(exactActions{
				`apm_was_server.this["was-2"]`:          plancheck.ResourceActionDestroy,
				`apm_was_session_cluster.this["was-2"]`: plancheck.ResourceActionDestroy,
				`apm_was_datasource.orders["was-2"]`:    plancheck.ResourceActionDestroy,
				`apm_was_application.shop["was-2"]`:     plancheck.ResourceActionDestroy,
				`apm_was_server.this["was-3"]`:          replaced,
				`apm_was_session_cluster.this["was-3"]`: replaced,
				`apm_was_datasource.orders["was-3"]`:    replaced,
				`apm_was_application.shop["was-3"]`:     replaced,
				"apm_web_workers.front":                 plancheck.ResourceActionUpdate,
				"apm_database.orders":                   replaced,
				"apm_datasource.orders":                 replaced,
				`apm_was_datasource.orders["was-1"]`:    replaced,
			}),
			ConfigStateChecks: []statecheck.StateCheck{
				inManager(env.checkGone(was2)),
				inManager(env.checkServer(web, workersAre(worker("was-1", "app-01", "10.0.1.21"), worker("was-3", "app-03", "10.0.1.23")))),
				inManager(env.checkServer(was1, runsWith(apm.EditionStandard))),
				inManager(env.checkServer(was3, runsWith(apm.EditionEnterprise))),
			},
		},
		{
			// Destroyed by a step, as the harness cannot read such a state before its own
			// destroy: no system is left.
			Config:            env.config(""),
			ConfigStateChecks: []statecheck.StateCheck{inManager(env.checkSystems())},
		},
	})
}
