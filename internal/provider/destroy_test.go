package provider

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
)

// Destroy after the world moved (issue 21, item 3): another operator deleted the system
// that a data source reads (with the node this configuration placed in it), the node of
// the managed system, the datasource and the database it names. Before it plans the
// deletes, destroy reads the data source and plans the gone resources as creates; none of
// that may fail it. Before the change: "Failed to read apm_system ... System not found".
// Afterwards the managed system that still existed is deleted, and nothing is left.
func TestAccDestroy_afterObjectsWereDeletedOutsideTerraform(t *testing.T) {
	env := newAccEnv(t)
	shop, other, database := env.name("shop"), env.name("other"), env.name("db")
	env.must(env.admin.CreateSystem(env.ctx(), other))
	env.must(env.admin.CreateDatabase(env.ctx(), apm.DatabaseSpec{
		ResourceName: database, DatabaseType: "PostgreSQL", Host: "10.0.1.30", Port: 5432,
		DatabaseName: "orders", UserName: "shop", Password: "Test-only-1",
	}))
	t.Cleanup(func() {
		_ = env.admin.DeleteDatabase(env.ctx(), database)
		_ = env.admin.DeleteSystem(env.ctx(), other)
	})
	config := env.config(tf(t, "destroy/world_moved.tf", "system_name", shop, "other_name", other, "database_name", database))
	env.testUntilEmpty([]resource.TestStep{
		{Config: config, ConfigPlanChecks: applied()},
		{
			PreConfig: func() {
				env.deleteNode(shop, "web-01")
				env.deleteNode(other, "batch-01")
				env.must(env.admin.DeleteSystem(env.ctx(), other))
				env.must(env.admin.DeleteDatasource(env.ctx(), shop+"-ds"))
				env.must(env.admin.DeleteDatabase(env.ctx(), database))
			},
			Config:  config,
			Destroy: true,
		},
	})
}

// A data source that finds nothing warns rather than fails (a destroy must get past it),
// but what would be created with its values still fails at plan, before anything is
// sent; the data source alone plans, with a placeholder id made of the name it was given,
// and a list of what lives in the missing object lists nothing. Before the change both data
// sources failed: "System not found".
func TestAccDestroy_missingObjectOfADataSourceFailsThePlanOfWhatUsesIt(t *testing.T) {
	env := newAccEnv(t)
	other := env.name("nowhere")
	withNode := func(on bool) string {
		return env.config(tf(t, "destroy/missing_system.tf", "other_name", other, "with_node", on))
	}
	env.test([]resource.TestStep{
		{
			Config:      withNode(true),
			ExpectError: regexp.MustCompile(`(?s)Unknown system.*has no system with the id "` + regexp.QuoteMeta(other) + `".*placeholder id of a data source that found nothing`),
		},
		{
			Config: withNode(false),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("other_id", knownvalue.StringExact(other)),
				statecheck.ExpectKnownOutputValue("other_node_count", knownvalue.Int64Exact(0)),
			},
			Check: func(*terraform.State) error {
				if n := env.writes(); n != 0 {
					return fmt.Errorf("%d writes reached the manager; a plan that fails and a data source send none", n)
				}
				return nil
			},
		},
	})
}
