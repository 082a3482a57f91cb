package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
)

// datasourceTF is testdata/datasource/one.tf: apm_datasource.ds, named name, on
// apm_database.db, with the optional settings given as name and value pairs
// (min_pool_size, max_pool_size, initial_pool_size, max_wait, timeouts).
func datasourceTF(t testing.TB, name string, settings ...any) string {
	t.Helper()
	return tf(t, "datasource/one.tf", orNull(append([]any{"name", name, "database_id", hclExpr("apm_database.db.id")}, settings...),
		"min_pool_size", "max_pool_size", "initial_pool_size", "max_wait", "timeouts")...)
}

// checkDatasource passes when the manager's datasource name passes check.
func (e *accEnv) checkDatasource(name string, check func(d *apm.Datasource) error) resource.TestCheckFunc {
	return func(*terraform.State) error {
		d, err := e.admin.GetDatasource(e.ctx(), name)
		if err != nil {
			return fmt.Errorf("datasource %s: %w", name, err)
		}
		return check(d)
	}
}

// onDatabase checks a datasource's database.
func onDatabase(name string) func(d *apm.Datasource) error {
	return func(d *apm.Datasource) error {
		return want(d.DatabaseResourceName == name, "on database %s, want %s", d.DatabaseResourceName, name)
	}
}

func poolIs(minSize, maxSize, initial, maxWait int64) func(d *apm.Datasource) error {
	return func(d *apm.Datasource) error {
		return want(d.MinPoolSize == minSize && d.MaxPoolSize == maxSize && d.InitialPoolSize == initial && d.MaxWait == maxWait,
			"pool min %d max %d initial %d maxWait %d, want %d %d %d %d", d.MinPoolSize, d.MaxPoolSize, d.InitialPoolSize, d.MaxWait,
			minSize, maxSize, initial, maxWait)
	}
}

// Datasource: created with the manager's defaults (recorded, no drift), read by the data
// sources, imported, changed in place, repaired after an out-of-band change, created again
// after an out-of-band delete.
func TestAccDatasource_lifecycle(t *testing.T) {
	env := newAccEnv(t)
	env.needsSim("expects apm_datasources to list the test's datasource and no other")
	dbName, ds := env.name("orders-db"), env.name("orders-ds")
	db := databaseTF(t, dbName, "10.0.2.15", "password", dbPassword1)
	defaults := env.config(db + datasourceTF(t, ds) + tf(t, "datasource/data_sources.tf"))
	sized := env.config(db + datasourceTF(t, ds, "min_pool_size", 2, "max_pool_size", 20, "initial_pool_size", 5, "max_wait", 10000))
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
				attrString("apm_datasource.ds", "database_id", dbName),
				statecheck.ExpectKnownValue("data.apm_datasources.all", tfjsonpath.New("datasources"), knownvalue.ListExact([]knownvalue.Check{
					knownvalue.ObjectExact(map[string]knownvalue.Check{
						"id": knownvalue.StringExact(ds), "resource_name": knownvalue.StringExact(ds), "import_id": knownvalue.StringExact(ds),
						"database_id": knownvalue.StringExact(dbName), poolMin: knownvalue.Int64Exact(1), poolMax: knownvalue.Int64Exact(10),
					}),
				})),
			),
			Check: env.checkDatasource(ds, poolIs(1, 10, 1, 30000)),
		},
		{
			ResourceName:      "apm_datasource.ds",
			ImportState:       true,
			ImportStateId:     ds,
			ImportStateVerify: true,
		},
		{
			Config:            sized,
			ConfigPlanChecks:  applied(exactActions{"apm_datasource.ds": plancheck.ResourceActionUpdate}),
			ConfigStateChecks: pool("apm_datasource.ds", 2, 20, 5, 10000),
			Check:             env.checkDatasource(ds, poolIs(2, 20, 5, 10000)),
		},
		{
			PreConfig: func() {
				maxSize := int64(30)
				env.must(env.admin.ModifyDatasource(env.ctx(), ds, apm.DatasourceUpdate{MaxPoolSize: &maxSize}))
			},
			Config: sized,
			ConfigPlanChecks: applied(
				exactActions{"apm_datasource.ds": plancheck.ResourceActionUpdate},
				plancheck.ExpectKnownValue("apm_datasource.ds", tfjsonpath.New(poolMax), knownvalue.Int64Exact(20)),
			),
			Check: env.checkDatasource(ds, poolIs(2, 20, 5, 10000)),
		},
		{
			PreConfig:        func() { env.must(env.admin.DeleteDatasource(env.ctx(), ds)) },
			Config:           sized,
			ConfigPlanChecks: applied(exactActions{"apm_datasource.ds": plancheck.ResourceActionCreate}),
			Check:            env.checkDatasource(ds, poolIs(2, 20, 5, 10000)),
		},
		{
			// Raising min_pool_size above the initial size that the state recorded is refused
			// at plan, naming both values, rather than by the manager at apply.
			Config:      env.config(db + datasourceTF(t, ds, "min_pool_size", 8, "max_pool_size", 20, "max_wait", 10000)),
			PlanOnly:    true,
			ExpectError: errorMatching("min_pool_size (8) must not be greater than initial_pool_size (5)"),
		},
	})
}

// A datasource still attached to a WAS server made outside Terraform: its delete waits,
// then fails naming the server; once detached, the delete succeeds.
func TestAccDatasource_deleteBlockedByWASServer(t *testing.T) {
	env := newAccEnv(t)
	ds, shop := env.name("orders-ds"), env.name("shop")
	was := apm.ServerRef{Kind: apm.KindWAS, ServerID: "was-1", NodeName: "app-01", SystemName: shop}
	db := databaseTF(t, env.name("orders-db"), "10.0.2.15", "password", dbPassword1)
	withDS := env.config(db + datasourceTF(t, ds, "timeouts", hclExpr(`{ delete = "2s" }`)))
	env.test([]resource.TestStep{
		{Config: withDS, ConfigPlanChecks: applied()},
		{
			PreConfig: func() {
				env.must(env.admin.CreateSystem(env.ctx(), shop))
				env.must(env.admin.CreateNode(env.ctx(), apm.CreateNodeRequest{NodeName: "app-01", SystemName: shop, HostIP: "10.0.0.21", AgentPort: 7730}))
				env.must(env.admin.InstallServer(env.ctx(), apm.KindWAS, apm.ServerSpec{ServerID: "was-1", NodeName: "app-01", SystemName: shop, HTTPPort: 8080}))
				env.must(env.admin.AttachDatasource(env.ctx(), was, ds))
			},
			Config: env.config(db),
			ExpectError: errorMatching(`gave up after 2s`, fmt.Sprintf(`still held by WAS server "was-1" on node "app-01" of system %q`, shop),
				"is attached to WAS server(s)"),
		},
		{
			PreConfig: func() { env.must(env.admin.DetachDatasource(env.ctx(), was, ds)) },
			Config:    env.config(db),
			Check: func(*terraform.State) error {
				_, err := env.admin.GetDatasource(env.ctx(), ds)
				return want(apm.IsNotFound(err), "datasource still there after destroy: %v", err)
			},
		},
	})
}

// The rotation with the datasource naming its database by a literal name too: Terraform
// replaces only the database. The provider moves the datasource out of the way (detached
// from the server, deleted) for the database's replacement and puts it back as it was
// (pool settings and attachment); one apply, no wait, and no drift afterwards.
func TestAccDatasource_rotationDatabaseByName(t *testing.T) {
	env := newAccEnv(t)
	sim := env.needsSim("counts the requests of the rotation")
	ds := env.name("orders-ds")
	config := func(password string) string {
		return env.rotationTF(t, env.name("orders-db"), ds, "password", password)
	}
	env.test([]resource.TestStep{
		{Config: config(dbPassword1), ConfigPlanChecks: applied(), Check: env.checkDatasources(ds)},
		{
			PreConfig:        sim.ResetRequestCounts,
			Config:           config(dbPassword2),
			ConfigPlanChecks: applied(exactActions{"apm_database.db": plancheck.ResourceActionDestroyBeforeCreate}),
			Check: resource.ComposeAggregateTestCheckFunc(env.checkDatasources(ds), env.checkDatasource(ds, poolIs(2, 20, 2, 30000)),
				checkRoutes(sim, map[string]int{
					"DELETE /databases/{resourceName}": 2, "DELETE /datasources/{resourceName}": 1, "DELETE /datasource": 1,
					"POST /rest/resource/datasources": 1, "POST /datasource": 1,
				})),
		},
	})
}

// A datasource naming a database that neither the configuration nor the manager has is
// refused at plan, naming database_id, its value and what to do, with nothing sent (it
// was refused by the manager at apply, after the POST). A database this configuration
// declares, created in the same run, lets it through, and so does one the manager has.
func TestAccDatasource_unknownDatabaseRefusedAtPlan(t *testing.T) {
	env := newAccEnv(t)
	sim := env.needsSim("counts the requests the manager received")
	ds, db, missing, other := env.name("orders-ds"), env.name("orders-db"), env.name("nosuch-db"), env.name("other-db")
	database := databaseTF(t, db, "10.0.2.15", "password", dbPassword1)
	env.test([]resource.TestStep{
		{
			PreConfig: sim.ResetRequestCounts,
			Config:    env.config(database + datasourceTF(t, ds, "database_id", missing)),
			ExpectError: errorMatching("Unknown database", fmt.Sprintf("database_id is %q, but the manager has no database with the resource_name %q", missing, missing),
				"no resource planned before this one declares it", "database_id = apm_database.example.id", "or correct database_id"),
		},
		{
			PreConfig: func() {
				if n := env.writes(); n != 0 {
					t.Errorf("the datasource on a missing database was refused after %d writes, want none", n)
				}
				if _, err := env.admin.GetDatasource(env.ctx(), ds); !apm.IsNotFound(err) {
					t.Errorf("datasource %s: %v, want none", ds, err)
				}
			},
			Config:           env.config(database + datasourceTF(t, ds)),
			ConfigPlanChecks: applied(creates("apm_database.db"), creates("apm_datasource.ds")),
			Check:            env.checkDatasource(ds, onDatabase(db)),
		},
		{
			PreConfig: func() {
				env.must(env.admin.CreateDatabase(env.ctx(), apm.DatabaseSpec{ResourceName: other, DatabaseType: "PostgreSQL", Host: "10.0.0.40", Port: 5432,
					DatabaseName: "other", UserName: "app", Password: "Sw0rdfish!"}))
				t.Cleanup(func() { _ = env.admin.DeleteDatabase(env.ctx(), other) })
			},
			Config:           env.config(database + datasourceTF(t, ds, "database_id", other)),
			ConfigPlanChecks: applied(exactActions{"apm_datasource.ds": plancheck.ResourceActionDestroyBeforeCreate}),
			Check:            env.checkDatasource(ds, onDatabase(other)),
		},
	})
}
