package provider

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
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

// The topology example: applied cleanly (no drift, an empty plan), a WAS server stopped
// behind Terraform's back shows in the next plan and apply starts it again, and removing
// it all from the configuration destroys everything, parts before their servers.
func TestAccTopology_example(t *testing.T) {
	env := newAccEnv(t)
	topology, db, ds := env.name("topology"), env.name("orders-db"), env.name("orders-ds")
	env.must(env.admin.CreateDatabase(env.ctx(), apm.DatabaseSpec{ResourceName: db, DatabaseType: "PostgreSQL",
		Host: "10.0.1.30", Port: 5432, DatabaseName: "orders", UserName: "shop", Password: "Test-only-1"}))
	env.must(env.admin.CreateDatasource(env.ctx(), apm.DatasourceSpec{ResourceName: ds, DatabaseResourceName: db}))
	t.Cleanup(func() {
		if err := errors.Join(env.admin.DeleteDatasource(env.ctx(), ds), env.admin.DeleteDatabase(env.ctx(), db)); err != nil {
			t.Errorf("removing the datasource and database that the test arranged: %v", err)
		}
	})
	cfg := env.config(exampleConfig(t, "topology"))
	names := config.Variables{"system_name": config.StringVariable(topology), "datasource_name": config.StringVariable(ds)}
	was1 := apm.ServerRef{Kind: apm.KindWAS, ServerID: "was-1", NodeName: "app-01", SystemName: topology}
	// Manager checks are state checks: a step's Check cannot read a state with for_each.
	inManager := func(check resource.TestCheckFunc) statecheck.StateCheck {
		return managerCheck(func(statecheck.CheckStateRequest) error { return check(nil) })
	}
	env.test([]resource.TestStep{
		{
			Config:           cfg,
			ConfigVariables:  names,
			ConfigPlanChecks: applied(),
			ConfigStateChecks: []statecheck.StateCheck{
				inManager(env.checkServer(was1, serverIs("running", 8080))),
				inManager(env.checkServer(apm.ServerRef{Kind: apm.KindWeb, ServerID: "web-1", NodeName: "web-01", SystemName: topology}, func(s *apm.Server) error {
					return want(len(s.Workers) == 2 && len(s.URIs) == 2 && s.Status == "running", "workers %v, uris %v, %s", s.Workers, s.URIs, s.Status)
				})),
				inManager(env.checkServer(was1, func(s *apm.Server) error {
					return want(s.SessionCluster != nil && len(s.Datasources) == 1, "session cluster %v, datasources %v", s.SessionCluster, s.Datasources)
				})),
			},
		},
		{
			PreConfig:         func() { env.must(env.admin.StopServer(env.ctx(), was1, true)) },
			Config:            cfg,
			ConfigVariables:   names,
			ConfigPlanChecks:  applied(exactActions{`apm_was_server.this["was-1"]`: plancheck.ResourceActionUpdate}),
			ConfigStateChecks: []statecheck.StateCheck{inManager(env.checkServer(was1, serverIs("running", 8080)))},
		},
		{
			// Destroyed by a step, as the harness cannot read such a state before its own
			// destroy: no system is left.
			Config:            env.config(""),
			ConfigStateChecks: []statecheck.StateCheck{inManager(env.checkSystems())},
		},
	})
}
