package provider

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
)

// Passwords of the tests: at least 16 characters, so that planHoldsKey and stateHoldsKey,
// which look for the lines of a PEM, look for the whole password.
const (
	dbPassword1 = "Orders-Pa55word-first-0001"
	dbPassword2 = "Orders-Pa55word-second-0002"
)

// databaseHCL declares apm_database.db, orders-db; extra lines go into the block.
func databaseHCL(extra ...string) string {
	return fmt.Sprintf(`
resource "apm_database" "db" {
  resource_name = "orders-db"
  database_type = "PostgreSQL"
  port          = 5432
  database_name = "orders"
  user_name     = "orders_app"
  %s
}
`, strings.Join(extra, "\n  "))
}

// datasourceHCL declares apm_datasource.ds on apm_database.db; extra lines go into it.
func datasourceHCL(extra ...string) string {
	return fmt.Sprintf(`
resource "apm_datasource" "ds" {
  resource_name = "orders-ds"
  database_id   = apm_database.db.id
  %s
}
`, strings.Join(extra, "\n  "))
}

// checkDatabase passes when the manager's database orders-db passes check.
func (e *accEnv) checkDatabase(check func(d *apm.Database) error) resource.TestCheckFunc {
	const name = "orders-db"
	return func(*terraform.State) error {
		d, err := e.admin.GetDatabase(e.ctx(), name)
		if err != nil {
			return fmt.Errorf("database %s: %w", name, err)
		}
		return check(d)
	}
}

// checkDatasource passes when the manager's datasource orders-ds passes check.
func (e *accEnv) checkDatasource(check func(d *apm.Datasource) error) resource.TestCheckFunc {
	const name = "orders-ds"
	return func(*terraform.State) error {
		d, err := e.admin.GetDatasource(e.ctx(), name)
		if err != nil {
			return fmt.Errorf("datasource %s: %w", name, err)
		}
		return check(d)
	}
}

func poolIs(minSize, maxSize, initial, maxWait int64) func(d *apm.Datasource) error {
	return func(d *apm.Datasource) error {
		return want(d.MinPoolSize == minSize && d.MaxPoolSize == maxSize && d.InitialPoolSize == initial && d.MaxWait == maxWait,
			"pool min %d max %d initial %d maxWait %d, want %d %d %d %d", d.MinPoolSize, d.MaxPoolSize, d.InitialPoolSize, d.MaxWait,
			minSize, maxSize, initial, maxWait)
	}
}

// flatStateLacks is a check on the state as the harness flattens it: no attribute of any
// resource holds the secret.
func flatStateLacks(secret string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		for addr, rs := range s.RootModule().Resources {
			for name, v := range rs.Primary.Attributes {
				if strings.Contains(v, secret) {
					return fmt.Errorf("%s.%s holds the password", addr, name)
				}
			}
		}
		return nil
	}
}

// Database with the sensitive password, which every CLI supports: created, read by the
// data sources (never with a password), imported, replaced on any change, and created
// again after an out-of-band delete. The password is in plan and state, as documented:
// the same checks that prove the write-only one absent find it here.
func TestAccDatabase_lifecycle(t *testing.T) {
	env := newAccEnv(t)
	password := fmt.Sprintf("password = %q", dbPassword1)
	first := env.config(databaseHCL(`host = "10.0.2.15"`, password) + `
data "apm_database" "db" {
  resource_name = apm_database.db.resource_name
}

data "apm_databases" "all" {
  depends_on = [apm_database.db]
}
`)
	moved := env.config(databaseHCL(`host = "db2.internal.example"`, password))
	env.test([]resource.TestStep{
		{
			Config:           first,
			ConfigPlanChecks: applied(creates("apm_database.db"), planHoldsKey{dbPassword1, true}),
			ConfigStateChecks: []statecheck.StateCheck{
				stateHoldsKey{dbPassword1, true},
				statecheck.ExpectSensitiveValue("apm_database.db", tfjsonpath.New("password")),
				attrString("apm_database.db", "id", "orders-db"),
				attrNull("apm_database.db", "password_wo"),
				attrString("data.apm_database.db", "user_name", "orders_app"),
				attrString("data.apm_database.db", "database_type", "PostgreSQL"),
				// The demo-less sim has exactly this database.
				statecheck.ExpectKnownValue("data.apm_databases.all", tfjsonpath.New("databases"), knownvalue.ListExact([]knownvalue.Check{
					knownvalue.ObjectExact(map[string]knownvalue.Check{
						"id": knownvalue.StringExact("orders-db"), "resource_name": knownvalue.StringExact("orders-db"),
						"database_type": knownvalue.StringExact("PostgreSQL"), "host": knownvalue.StringExact("10.0.2.15"),
						"port": knownvalue.Int64Exact(5432), "database_name": knownvalue.StringExact("orders"),
					}),
				})),
			},
			Check: env.checkDatabase(func(d *apm.Database) error {
				return want(d.Host == "10.0.2.15" && d.DatabaseType == "PostgreSQL" && d.UserName == "orders_app", "database %+v", *d)
			}),
		},
		{
			// The manager never returns the password.
			ResourceName:            "apm_database.db",
			ImportState:             true,
			ImportStateId:           "orders-db",
			ImportStateVerify:       true,
			ImportStateVerifyIgnore: []string{"password", "password_wo_version"},
		},
		{
			// No modify endpoint: a new host replaces the database.
			Config:           moved,
			ConfigPlanChecks: applied(exactActions{"apm_database.db": plancheck.ResourceActionDestroyBeforeCreate}),
			Check: env.checkDatabase(func(d *apm.Database) error {
				return want(d.Host == "db2.internal.example", "host %q", d.Host)
			}),
		},
		{
			PreConfig:        func() { env.must(env.admin.DeleteDatabase(env.ctx(), "orders-db")) },
			Config:           moved,
			ConfigPlanChecks: applied(exactActions{"apm_database.db": plancheck.ResourceActionCreate}),
			Check:            env.checkDatabase(func(*apm.Database) error { return nil }),
		},
	})
}

// Database with the write-only password (Terraform 1.11 and later, OpenTofu): it reaches
// the manager but never the plan, the state, `show -json` or the TRACE log; a new version
// replaces the database with the new password.
func TestAccDatabase_writeOnlyPassword(t *testing.T) {
	env := newAccEnv(t)
	cliLog := filepath.Join(t.TempDir(), "cli.log")
	setenv(t, "TF_LOG", "TRACE")
	setenv(t, "TF_ACC_LOG_PATH", cliLog)
	// Read with file(), as the docs advise: a literal would be part of the configuration.
	dir := t.TempDir()
	config := func(password string, version int) string {
		file := filepath.Join(dir, fmt.Sprintf("password-%d", version))
		if err := os.WriteFile(file, []byte(password), 0o600); err != nil {
			t.Fatal(err)
		}
		return env.config(databaseHCL(`host = "10.0.2.15"`,
			fmt.Sprintf("password_wo = file(%q)", file), fmt.Sprintf("password_wo_version = %d", version)))
	}
	runWriteOnlyAcc(t, env.checkAllGone, []resource.TestStep{
		{
			Config:            config(dbPassword1, 1),
			ConfigPlanChecks:  applied(creates("apm_database.db"), planHoldsKey{dbPassword1, false}),
			ConfigStateChecks: writeOnlyStored("apm_database.db", "password", 1, dbPassword1, dbPassword2),
			Check:             resource.ComposeAggregateTestCheckFunc(flatStateLacks(dbPassword1), env.checkDatabase(func(*apm.Database) error { return nil })),
		},
		{
			// A rotation: the new version replaces the database, sending the new password.
			PreConfig:         env.sim.Sim.ResetRequestCounts,
			Config:            config(dbPassword2, 2),
			ConfigPlanChecks:  applied(exactActions{"apm_database.db": plancheck.ResourceActionDestroyBeforeCreate}, planHoldsKey{dbPassword2, false}),
			ConfigStateChecks: writeOnlyStored("apm_database.db", "password", 2, dbPassword1, dbPassword2),
			Check: resource.ComposeAggregateTestCheckFunc(flatStateLacks(dbPassword2), func(*terraform.State) error {
				counts := env.sim.Sim.RequestCounts()
				n := 0
				for route, c := range counts {
					if strings.HasPrefix(route, "POST ") && strings.Contains(route, "/rest/resource/databases") {
						n += c
					}
				}
				return want(n == 1, "%d database creates sent, want 1 (%v)", n, counts)
			}),
		},
	})
	data, err := os.ReadFile(cliLog)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	if !strings.Contains(text, "apm_path=/rest/resource/databases") {
		t.Errorf("the TRACE log (%d bytes) has no line of the database create; the check below would prove nothing", len(data))
	}
	for _, p := range []string{dbPassword1, dbPassword2} {
		if strings.Contains(text, p) {
			t.Errorf("the TRACE log contains the password %q", p)
		}
	}
}

// Datasource: created with the manager's defaults (recorded, no drift), read by the data
// sources, imported, changed in place, repaired after an out-of-band change, created again
// after an out-of-band delete.
func TestAccDatasource_lifecycle(t *testing.T) {
	env := newAccEnv(t)
	db := databaseHCL(`host = "10.0.2.15"`, fmt.Sprintf("password = %q", dbPassword1))
	defaults := env.config(db + datasourceHCL() + `
data "apm_datasource" "ds" {
  resource_name = apm_datasource.ds.resource_name
}

data "apm_datasources" "all" {
  depends_on = [apm_datasource.ds]
}
`)
	sized := env.config(db + datasourceHCL("min_pool_size = 2", "max_pool_size = 20", "initial_pool_size = 5", "max_wait = 10000"))
	pool := func(addr string, minSize, maxSize, initial, maxWait int64) []statecheck.StateCheck {
		return []statecheck.StateCheck{
			statecheck.ExpectKnownValue(addr, tfjsonpath.New(poolMin), knownvalue.Int64Exact(minSize)),
			statecheck.ExpectKnownValue(addr, tfjsonpath.New(poolMax), knownvalue.Int64Exact(maxSize)),
			statecheck.ExpectKnownValue(addr, tfjsonpath.New(poolInitial), knownvalue.Int64Exact(initial)),
			statecheck.ExpectKnownValue(addr, tfjsonpath.New(poolMaxWait), knownvalue.Int64Exact(maxWait)),
		}
	}
	env.test([]resource.TestStep{
		{
			Config:           defaults,
			ConfigPlanChecks: applied(creates("apm_datasource.ds")),
			ConfigStateChecks: append(append(pool("apm_datasource.ds", 1, 10, 1, 30000), pool("data.apm_datasource.ds", 1, 10, 1, 30000)...),
				attrString("apm_datasource.ds", "database_id", "orders-db"),
				statecheck.ExpectKnownValue("data.apm_datasources.all", tfjsonpath.New("datasources"), knownvalue.ListExact([]knownvalue.Check{
					knownvalue.ObjectExact(map[string]knownvalue.Check{
						"id": knownvalue.StringExact("orders-ds"), "resource_name": knownvalue.StringExact("orders-ds"),
						"database_id": knownvalue.StringExact("orders-db"), poolMin: knownvalue.Int64Exact(1), poolMax: knownvalue.Int64Exact(10),
					}),
				})),
			),
			Check: env.checkDatasource(poolIs(1, 10, 1, 30000)),
		},
		{
			ResourceName:      "apm_datasource.ds",
			ImportState:       true,
			ImportStateId:     "orders-ds",
			ImportStateVerify: true,
		},
		{
			Config:            sized,
			ConfigPlanChecks:  applied(exactActions{"apm_datasource.ds": plancheck.ResourceActionUpdate}),
			ConfigStateChecks: pool("apm_datasource.ds", 2, 20, 5, 10000),
			Check:             env.checkDatasource(poolIs(2, 20, 5, 10000)),
		},
		{
			PreConfig: func() {
				maxSize := int64(30)
				env.must(env.admin.ModifyDatasource(env.ctx(), "orders-ds", apm.DatasourceUpdate{MaxPoolSize: &maxSize}))
			},
			Config: sized,
			ConfigPlanChecks: applied(
				exactActions{"apm_datasource.ds": plancheck.ResourceActionUpdate},
				plancheck.ExpectKnownValue("apm_datasource.ds", tfjsonpath.New(poolMax), knownvalue.Int64Exact(20)),
			),
			Check: env.checkDatasource(poolIs(2, 20, 5, 10000)),
		},
		{
			PreConfig:        func() { env.must(env.admin.DeleteDatasource(env.ctx(), "orders-ds")) },
			Config:           sized,
			ConfigPlanChecks: applied(exactActions{"apm_datasource.ds": plancheck.ResourceActionCreate}),
			Check:            env.checkDatasource(poolIs(2, 20, 5, 10000)),
		},
		{
			// Raising min_pool_size above the initial size that the state recorded is refused
			// at plan, naming both values, rather than by the manager at apply.
			Config:      env.config(db + datasourceHCL("min_pool_size = 8", "max_pool_size = 20", "max_wait = 10000")),
			PlanOnly:    true,
			ExpectError: errorMatching("min_pool_size (8) must not be greater than initial_pool_size (5)"),
		},
	})
}

// A database still used by a datasource made outside Terraform: its delete waits, then
// fails naming the datasource; once the datasource is gone, the delete succeeds.
func TestAccDatabase_deleteBlockedByDatasource(t *testing.T) {
	env := newAccEnv(t)
	withDB := env.config(databaseHCL(`host = "10.0.2.15"`, fmt.Sprintf("password = %q", dbPassword1), `timeouts = { delete = "2s" }`))
	without := env.config("")
	env.test([]resource.TestStep{
		{Config: withDB, ConfigPlanChecks: applied()},
		{
			PreConfig: func() {
				env.must(env.admin.CreateDatasource(env.ctx(), apm.DatasourceSpec{ResourceName: "stray-ds", DatabaseResourceName: "orders-db"}))
			},
			Config:      without,
			ExpectError: errorMatching(`gave up after 2s`, `still held by datasource "stray-ds"`, "is used by datasource(s) stray-ds"),
		},
		{
			PreConfig: func() { env.must(env.admin.DeleteDatasource(env.ctx(), "stray-ds")) },
			Config:    without,
			Check: func(*terraform.State) error {
				_, err := env.admin.GetDatabase(env.ctx(), "orders-db")
				return want(apm.IsNotFound(err), "database still there after destroy: %v", err)
			},
		},
	})
}

// A datasource still attached to a WAS server made outside Terraform: its delete waits,
// then fails naming the server; once detached, the delete succeeds.
func TestAccDatasource_deleteBlockedByWASServer(t *testing.T) {
	env := newAccEnv(t)
	db := databaseHCL(`host = "10.0.2.15"`, fmt.Sprintf("password = %q", dbPassword1))
	withDS := env.config(db + datasourceHCL(`timeouts = { delete = "2s" }`))
	env.test([]resource.TestStep{
		{Config: withDS, ConfigPlanChecks: applied()},
		{
			PreConfig: func() {
				env.must(env.admin.CreateSystem(env.ctx(), "shop"))
				env.must(env.admin.CreateNode(env.ctx(), apm.CreateNodeRequest{NodeName: "app-01", SystemName: "shop", HostIP: "10.0.0.21", AgentPort: 7730}))
				env.must(env.admin.InstallServer(env.ctx(), apm.KindWAS, apm.ServerSpec{ServerID: "was-1", NodeName: "app-01", SystemName: "shop", HTTPPort: 8080}))
				env.must(env.admin.AttachDatasource(env.ctx(), wasRef("was-1"), "orders-ds"))
			},
			Config: env.config(db),
			ExpectError: errorMatching(`gave up after 2s`, `still held by WAS server "was-1" on node "app-01" of system "shop"`,
				"is attached to WAS server(s)"),
		},
		{
			PreConfig: func() { env.must(env.admin.DetachDatasource(env.ctx(), wasRef("was-1"), "orders-ds")) },
			Config:    env.config(db),
			Check: func(*terraform.State) error {
				_, err := env.admin.GetDatasource(env.ctx(), "orders-ds")
				return want(apm.IsNotFound(err), "datasource still there after destroy: %v", err)
			},
		},
	})
}
