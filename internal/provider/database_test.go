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

// orNull is vars, name and value pairs for tf, with each of optional that vars does not
// give set to null.
func orNull(vars []any, optional ...string) []any {
	given := map[any]bool{}
	for i := 0; i < len(vars); i += 2 {
		given[vars[i]] = true
	}
	for _, name := range optional {
		if !given[name] {
			vars = append(vars, name, hclNull)
		}
	}
	return vars
}

// databaseTF is testdata/database/one.tf: apm_database.db, the PostgreSQL database name on
// host, with the optional settings given as name and value pairs (password, password_wo,
// password_wo_version, timeouts).
func databaseTF(t testing.TB, name, host string, settings ...any) string {
	t.Helper()
	return tf(t, "database/one.tf", orNull(append([]any{"name", name, "host", host}, settings...),
		"password", "password_wo", "password_wo_version", "timeouts")...)
}

// checkDatabase passes when the manager's database name passes check.
func (e *accEnv) checkDatabase(name string, check func(d *apm.Database) error) resource.TestCheckFunc {
	return func(*terraform.State) error {
		d, err := e.admin.GetDatabase(e.ctx(), name)
		if err != nil {
			return fmt.Errorf("database %s: %w", name, err)
		}
		return check(d)
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
	env.needsSim("expects apm_databases to list the test's database and no other")
	db := env.name("orders-db")
	first := env.config(databaseTF(t, db, "10.0.2.15", "password", dbPassword1) + tf(t, "database/data_sources.tf"))
	moved := env.config(databaseTF(t, db, "db2.internal.example", "password", dbPassword1))
	env.test([]resource.TestStep{
		{
			Config:           first,
			ConfigPlanChecks: applied(creates("apm_database.db"), planHoldsKey{dbPassword1, true}),
			ConfigStateChecks: []statecheck.StateCheck{
				stateHoldsKey{dbPassword1, true},
				statecheck.ExpectSensitiveValue("apm_database.db", tfjsonpath.New("password")),
				attrString("apm_database.db", "id", db),
				attrNull("apm_database.db", "password_wo"),
				attrString("data.apm_database.db", "user_name", "orders_app"),
				attrString("data.apm_database.db", "database_type", "PostgreSQL"),
				// The demo-less sim has exactly this database.
				statecheck.ExpectKnownValue("data.apm_databases.all", tfjsonpath.New("databases"), knownvalue.ListExact([]knownvalue.Check{
					knownvalue.ObjectExact(map[string]knownvalue.Check{
						"id": knownvalue.StringExact(db), "resource_name": knownvalue.StringExact(db), "import_id": knownvalue.StringExact(db),
						"database_type": knownvalue.StringExact("PostgreSQL"), "host": knownvalue.StringExact("10.0.2.15"),
						"port": knownvalue.Int64Exact(5432), "database_name": knownvalue.StringExact("orders"),
					}),
				})),
			},
			Check: env.checkDatabase(db, func(d *apm.Database) error {
				return want(d.Host == "10.0.2.15" && d.DatabaseType == "PostgreSQL" && d.UserName == "orders_app", "database %+v", *d)
			}),
		},
		{
			// The manager never returns the password.
			ResourceName:            "apm_database.db",
			ImportState:             true,
			ImportStateId:           db,
			ImportStateVerify:       true,
			ImportStateVerifyIgnore: []string{"password", "password_wo_version"},
		},
		{
			// No modify endpoint: a new host replaces the database.
			Config:           moved,
			ConfigPlanChecks: applied(exactActions{"apm_database.db": plancheck.ResourceActionDestroyBeforeCreate}),
			Check: env.checkDatabase(db, func(d *apm.Database) error {
				return want(d.Host == "db2.internal.example", "host %q", d.Host)
			}),
		},
		{
			PreConfig:        func() { env.must(env.admin.DeleteDatabase(env.ctx(), db)) },
			Config:           moved,
			ConfigPlanChecks: applied(exactActions{"apm_database.db": plancheck.ResourceActionCreate}),
			Check:            env.checkDatabase(db, func(*apm.Database) error { return nil }),
		},
	})
}

// Database with the write-only password (Terraform 1.11 and later, OpenTofu): it reaches
// the manager but never the plan, the state, `show -json` or the TRACE log; a new version
// replaces the database with the new password.
func TestAccDatabase_writeOnlyPassword(t *testing.T) {
	env := newAccEnv(t)
	sim := env.needsSim("counts the database creates the manager received")
	db := env.name("orders-db")
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
		return env.config(databaseTF(t, db, "10.0.2.15",
			"password_wo", hclExpr(fmt.Sprintf("file(%q)", file)), "password_wo_version", version))
	}
	runWriteOnlyAcc(t, env.checkAllGone, []resource.TestStep{
		{
			Config:            config(dbPassword1, 1),
			ConfigPlanChecks:  applied(creates("apm_database.db"), planHoldsKey{dbPassword1, false}),
			ConfigStateChecks: writeOnlyStored("apm_database.db", "password", 1, dbPassword1, dbPassword2),
			Check:             resource.ComposeAggregateTestCheckFunc(flatStateLacks(dbPassword1), env.checkDatabase(db, func(*apm.Database) error { return nil })),
		},
		{
			// A rotation: the new version replaces the database, sending the new password.
			PreConfig:         sim.ResetRequestCounts,
			Config:            config(dbPassword2, 2),
			ConfigPlanChecks:  applied(exactActions{"apm_database.db": plancheck.ResourceActionDestroyBeforeCreate}, planHoldsKey{dbPassword2, false}),
			ConfigStateChecks: writeOnlyStored("apm_database.db", "password", 2, dbPassword1, dbPassword2),
			Check: resource.ComposeAggregateTestCheckFunc(flatStateLacks(dbPassword2), func(*terraform.State) error {
				counts := sim.RequestCounts()
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

// A database still used by a datasource made outside Terraform: its delete waits, then
// fails naming the datasource; once the datasource is gone, the delete succeeds.
func TestAccDatabase_deleteBlockedByDatasource(t *testing.T) {
	env := newAccEnv(t)
	db, stray := env.name("orders-db"), env.name("stray-ds")
	withDB := env.config(databaseTF(t, db, "10.0.2.15", "password", dbPassword1, "timeouts", hclExpr(`{ delete = "2s" }`)))
	without := env.config("")
	env.test([]resource.TestStep{
		{Config: withDB, ConfigPlanChecks: applied()},
		{
			PreConfig: func() {
				env.must(env.admin.CreateDatasource(env.ctx(), apm.DatasourceSpec{ResourceName: stray, DatabaseResourceName: db}))
			},
			Config:      without,
			ExpectError: errorMatching(`gave up after 2s`, fmt.Sprintf("still held by datasource %q", stray), "is used by datasource(s) "+stray),
		},
		{
			PreConfig: func() { env.must(env.admin.DeleteDatasource(env.ctx(), stray)) },
			Config:    without,
			Check: func(*terraform.State) error {
				_, err := env.admin.GetDatabase(env.ctx(), db)
				return want(apm.IsNotFound(err), "database still there after destroy: %v", err)
			},
		},
	})
}
