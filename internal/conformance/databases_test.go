package conformance

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
)

// Helpers of the resources and administration tests carry the prefix "ra", so that they
// cannot clash with those of the other areas' files in this package.

// Cases for 4.5 against the demo seed: databases orders-db (PostgreSQL, used by the
// datasource orders-ds) and reports-db (MySQL, unused).
var _ = addCases(
	endpointCase{"GET /rest/resource/databases", func(ctx context.Context, c *apm.Client) error {
		return expectLen(c.ListDatabases(ctx))
	}},
	endpointCase{"GET /rest/resource/databases/{resourceName}", func(ctx context.Context, c *apm.Client) error {
		db, err := c.GetDatabase(ctx, "orders-db")
		if err == nil && (db.DatabaseType != "PostgreSQL" || db.UserName != "orders_app") {
			err = fmt.Errorf("orders-db = %+v", db)
		}
		return err
	}},
	endpointCase{"POST /rest/resource/databases", func(ctx context.Context, c *apm.Client) error {
		return c.CreateDatabase(ctx, apm.DatabaseSpec{ResourceName: "new-db", DatabaseType: "MariaDB", Host: "10.0.0.30",
			Port: 3306, DatabaseName: "shop", UserName: "shop", Password: "Maria-Db-1!"})
	}},
	endpointCase{"DELETE /rest/resource/databases/{resourceName}", func(ctx context.Context, c *apm.Client) error {
		return c.DeleteDatabase(ctx, "reports-db")
	}},
	endpointCase{"GET /rest/resource/datasources", func(ctx context.Context, c *apm.Client) error {
		return expectLen(c.ListDatasources(ctx))
	}},
	endpointCase{"POST /rest/resource/datasources", func(ctx context.Context, c *apm.Client) error {
		return c.CreateDatasource(ctx, apm.DatasourceSpec{ResourceName: "reports-ds", DatabaseResourceName: "reports-db"})
	}},
	endpointCase{"GET /rest/resource/datasources/{resourceName}", func(ctx context.Context, c *apm.Client) error {
		ds, err := c.GetDatasource(ctx, "orders-ds")
		if err == nil && (ds.DatabaseResourceName != "orders-db" || ds.MaxWait != 30000) {
			err = fmt.Errorf("orders-ds = %+v", ds)
		}
		return err
	}},
	endpointCase{"PUT /rest/resource/datasource/{resourceName}", func(ctx context.Context, c *apm.Client) error {
		return c.ModifyDatasource(ctx, "orders-ds", apm.DatasourceUpdate{MaxPoolSize: ptr[int64](30)})
	}},
	endpointCase{"DELETE /rest/resource/datasources/{resourceName}", func(ctx context.Context, c *apm.Client) error {
		// orders-ds is attached to was-01, and an attached datasource cannot be deleted.
		if err := c.DetachDatasource(ctx, svWAS01, "orders-ds"); err != nil {
			return err
		}
		return c.DeleteDatasource(ctx, "orders-ds")
	}},
)

func TestResourceBodiesHaveTheDocumentedShape(t *testing.T) {
	checkShapes(t, newFixture(t).sim, []shapeCase{
		{"/rest/resource/databases", "databases",
			"databaseName:string databaseType:string host:string port:number resourceName:string"},
		{"/rest/resource/databases/orders-db", "",
			"databaseName:string databaseType:string host:string port:number resourceName:string userName:string"},
		{"/rest/resource/datasources", "datasources",
			"databaseResourceName:string maxPoolSize:number minPoolSize:number resourceName:string"},
		{"/rest/resource/datasources/orders-ds", "",
			"databaseResourceName:string initialPoolSize:number maxPoolSize:number maxWait:number minPoolSize:number resourceName:string"},
	})
}

func TestResourceLifecycleThroughTheClient(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	c := f.admin
	spec := apm.DatabaseSpec{ResourceName: "pay-db", DatabaseType: "oracle", Host: "pay.db.internal", Port: 1521,
		DatabaseName: "PAY", UserName: "pay", Password: "Oracle-Pw-2"}
	checkErr(t, c.CreateDatabase(ctx, spec), wantErr{})
	db, err := c.GetDatabase(ctx, "pay-db")
	want := apm.Database{ResourceName: "pay-db", DatabaseType: "Oracle", Host: "pay.db.internal", Port: 1521, DatabaseName: "PAY", UserName: "pay"}
	if err != nil || *db != want {
		t.Fatalf("GetDatabase = %+v, %v", db, err)
	}
	dbs, err := c.ListDatabases(ctx)
	if err != nil || len(dbs) != 3 || dbs[1] != (apm.Database{ResourceName: "pay-db", DatabaseType: "Oracle", Host: "pay.db.internal", Port: 1521, DatabaseName: "PAY"}) {
		t.Fatalf("ListDatabases = %+v, %v", dbs, err)
	}

	checkErr(t, c.CreateDatasource(ctx, apm.DatasourceSpec{ResourceName: "pay-ds", DatabaseResourceName: "pay-db"}), wantErr{})
	ds, err := c.GetDatasource(ctx, "pay-ds")
	if err != nil || *ds != (apm.Datasource{ResourceName: "pay-ds", DatabaseResourceName: "pay-db", MinPoolSize: 1, MaxPoolSize: 10, InitialPoolSize: 1, MaxWait: 30000}) {
		t.Fatalf("defaults: %+v, %v", ds, err)
	}
	checkErr(t, c.ModifyDatasource(ctx, "pay-ds", apm.DatasourceUpdate{MinPoolSize: ptr[int64](0), InitialPoolSize: ptr[int64](0), MaxWait: ptr[int64](100)}), wantErr{})
	ds, err = c.GetDatasource(ctx, "pay-ds")
	if err != nil || *ds != (apm.Datasource{ResourceName: "pay-ds", DatabaseResourceName: "pay-db", MinPoolSize: 0, MaxPoolSize: 10, InitialPoolSize: 0, MaxWait: 100}) {
		t.Fatalf("after modify: %+v, %v", ds, err)
	}
	list, err := c.ListDatasources(ctx)
	if err != nil || !slices.Equal(list, []apm.Datasource{
		{ResourceName: "orders-ds", DatabaseResourceName: "orders-db", MinPoolSize: 2, MaxPoolSize: 20},
		{ResourceName: "pay-ds", DatabaseResourceName: "pay-db", MinPoolSize: 0, MaxPoolSize: 10},
	}) {
		t.Fatalf("ListDatasources = %+v, %v", list, err)
	}

	checkErr(t, c.DeleteDatabase(ctx, "pay-db"), wantErr{409, "CONFLICT", "Database pay-db is used by datasource(s) pay-ds; delete them first"})
	checkErr(t, c.DeleteDatasource(ctx, "pay-ds"), wantErr{})
	checkErr(t, c.DeleteDatabase(ctx, "pay-db"), wantErr{})
	_, err = c.GetDatabase(ctx, "pay-db")
	if !apm.IsNotFound(err) {
		t.Fatalf("after delete: %v", err)
	}
}

func TestResourceErrorsThroughTheClient(t *testing.T) {
	f := newFixture(t)
	c := f.admin
	db := func(mod func(*apm.DatabaseSpec)) apm.DatabaseSpec {
		s := apm.DatabaseSpec{ResourceName: "x-db", DatabaseType: "MySQL", Host: "10.0.0.9", Port: 3306,
			DatabaseName: "x", UserName: "x", Password: "X-pass-1"}
		mod(&s)
		return s
	}
	ds := func(mod func(*apm.DatasourceSpec)) apm.DatasourceSpec {
		s := apm.DatasourceSpec{ResourceName: "x-ds", DatabaseResourceName: "orders-db"}
		mod(&s)
		return s
	}
	bad := func(msg string) wantErr { return wantErr{400, "BAD_REQUEST", msg} }
	tests := []struct {
		name string
		call func(ctx context.Context) error
		want wantErr
	}{
		{"database without password", func(ctx context.Context) error {
			return c.CreateDatabase(ctx, db(func(s *apm.DatabaseSpec) { s.Password = "" }))
		}, bad("password is required")},
		{"database with port 0", func(ctx context.Context) error {
			return c.CreateDatabase(ctx, db(func(s *apm.DatabaseSpec) { s.Port = 0 }))
		}, bad("port must be between 1 and 65535")},
		{"database type", func(ctx context.Context) error {
			return c.CreateDatabase(ctx, db(func(s *apm.DatabaseSpec) { s.DatabaseType = "SQLite" }))
		}, bad("Invalid databaseType: SQLite (allowed: MySQL, Oracle, PostgreSQL, MariaDB, MSSQL, DB2)")},
		{"database port", func(ctx context.Context) error {
			return c.CreateDatabase(ctx, db(func(s *apm.DatabaseSpec) { s.Port = 70000 }))
		}, bad("port must be between 1 and 65535")},
		{"database name", func(ctx context.Context) error {
			return c.CreateDatabase(ctx, db(func(s *apm.DatabaseSpec) { s.ResourceName = "x db" }))
		}, bad("Invalid resourceName: x db (allowed: 1-64 characters: letters, digits, '.', '-' and '_')")},
		{"database duplicate", func(ctx context.Context) error {
			return c.CreateDatabase(ctx, db(func(s *apm.DatabaseSpec) { s.ResourceName = "orders-db" }))
		}, wantErr{409, "CONFLICT", "Database already exists: orders-db"}},
		{"database unknown", func(ctx context.Context) error { _, err := c.GetDatabase(ctx, "nope"); return err },
			wantErr{404, "NOT_FOUND", "Database not found: nope"}},
		{"database in use", func(ctx context.Context) error { return c.DeleteDatabase(ctx, "orders-db") },
			wantErr{409, "CONFLICT", "Database orders-db is used by datasource(s) orders-ds; delete them first"}},
		{"datasource on unknown database", func(ctx context.Context) error {
			return c.CreateDatasource(ctx, ds(func(s *apm.DatasourceSpec) { s.DatabaseResourceName = "nope" }))
		}, wantErr{404, "NOT_FOUND", "Database not found: nope"}},
		{"datasource min above max", func(ctx context.Context) error {
			return c.CreateDatasource(ctx, ds(func(s *apm.DatasourceSpec) { s.MinPoolSize, s.MaxPoolSize = ptr[int64](4), ptr[int64](3) }))
		}, bad("minPoolSize (4) must not be greater than maxPoolSize (3)")},
		{"datasource negative min", func(ctx context.Context) error {
			return c.CreateDatasource(ctx, ds(func(s *apm.DatasourceSpec) { s.MinPoolSize = ptr[int64](-1) }))
		}, bad("minPoolSize must not be negative")},
		{"datasource initial", func(ctx context.Context) error {
			return c.CreateDatasource(ctx, ds(func(s *apm.DatasourceSpec) { s.InitialPoolSize = ptr[int64](11) }))
		}, bad("initialPoolSize (11) must be between minPoolSize (1) and maxPoolSize (10)")},
		{"datasource wait", func(ctx context.Context) error {
			return c.CreateDatasource(ctx, ds(func(s *apm.DatasourceSpec) { s.MaxWait = ptr[int64](-1) }))
		}, bad("maxWait must not be negative")},
		{"datasource duplicate", func(ctx context.Context) error {
			return c.CreateDatasource(ctx, ds(func(s *apm.DatasourceSpec) { s.ResourceName = "orders-ds" }))
		}, wantErr{409, "CONFLICT", "Datasource already exists: orders-ds"}},
		{"datasource unknown", func(ctx context.Context) error { _, err := c.GetDatasource(ctx, "nope"); return err },
			wantErr{404, "NOT_FOUND", "Datasource not found: nope"}},
		{"modify unknown", func(ctx context.Context) error {
			return c.ModifyDatasource(ctx, "nope", apm.DatasourceUpdate{MaxPoolSize: ptr[int64](5)})
		}, wantErr{404, "NOT_FOUND", "Datasource not found: nope"}},
		{"modify below min", func(ctx context.Context) error {
			return c.ModifyDatasource(ctx, "orders-ds", apm.DatasourceUpdate{MaxPoolSize: ptr[int64](1)})
		}, bad("minPoolSize (2) must not be greater than maxPoolSize (1)")},
		{"delete unknown", func(ctx context.Context) error { return c.DeleteDatasource(ctx, "nope") },
			wantErr{404, "NOT_FOUND", "Datasource not found: nope"}},
		{"delete attached", func(ctx context.Context) error { return c.DeleteDatasource(ctx, "orders-ds") },
			wantErr{409, "CONFLICT", "Datasource orders-ds is attached to WAS server(s) was-01 (web-01/shop); detach it first"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			checkErr(t, tc.call(context.Background()), tc.want)
		})
	}
	// A password never appears in an error, even a failed create's.
	err := c.CreateDatabase(context.Background(), db(func(s *apm.DatabaseSpec) { s.Port = 0 }))
	if err == nil || strings.Contains(err.Error(), "X-pass-1") {
		t.Errorf("err = %v", err)
	}
}

// The datasource modify path is singular; the plural path has no PUT.
func TestDatasourceModifyPathIsSingular(t *testing.T) {
	f := newFixture(t)
	req := httptest.NewRequest(http.MethodPut, "/rest/resource/datasources/orders-ds?key="+adminKey, strings.NewReader(`{"maxPoolSize":5}`))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	f.sim.Handler().ServeHTTP(rec, req)
	if rec.Code != http.StatusMethodNotAllowed {
		t.Fatalf("PUT on the plural path: %d %s", rec.Code, rec.Body)
	}
	ds, err := f.admin.GetDatasource(context.Background(), "orders-ds")
	if err != nil || ds.MaxPoolSize != 20 {
		t.Fatalf("orders-ds = %+v, %v", ds, err)
	}
}

// viewerWrites are the write methods of 4.5 and 4.7, each valid for the demo seed.
var viewerWrites = map[string]func(ctx context.Context, c *apm.Client) error{
	"CreateDatabase": func(ctx context.Context, c *apm.Client) error {
		return c.CreateDatabase(ctx, apm.DatabaseSpec{ResourceName: "v", DatabaseType: "DB2", Host: "h", Port: 1, DatabaseName: "d", UserName: "u", Password: "p"})
	},
	"DeleteDatabase": func(ctx context.Context, c *apm.Client) error { return c.DeleteDatabase(ctx, "reports-db") },
	"CreateDatasource": func(ctx context.Context, c *apm.Client) error {
		return c.CreateDatasource(ctx, apm.DatasourceSpec{ResourceName: "v", DatabaseResourceName: "reports-db"})
	},
	"ModifyDatasource": func(ctx context.Context, c *apm.Client) error {
		return c.ModifyDatasource(ctx, "orders-ds", apm.DatasourceUpdate{MaxWait: ptr[int64](1)})
	},
	"DeleteDatasource": func(ctx context.Context, c *apm.Client) error { return c.DeleteDatasource(ctx, "orders-ds") },
	"CreateUser": func(ctx context.Context, c *apm.Client) error {
		return c.CreateUser(ctx, apm.UserSpec{UserID: "v", UserName: "V", Password: "Viewer-pw1"})
	},
	"ModifyUser": func(ctx context.Context, c *apm.Client) error {
		return c.ModifyUser(ctx, "operator", apm.UserUpdate{UserName: "V"})
	},
	"DeleteUser": func(ctx context.Context, c *apm.Client) error { return c.DeleteUser(ctx, "operator") },
	"GrantRole":  func(ctx context.Context, c *apm.Client) error { return c.GrantRole(ctx, "operator", "admins") },
	"RevokeRole": func(ctx context.Context, c *apm.Client) error { return c.RevokeRole(ctx, "operator", "operators") },
	"DeleteRole": func(ctx context.Context, c *apm.Client) error { return c.DeleteRole(ctx, "auditors") },
	"ModifyRole": func(ctx context.Context, c *apm.Client) error {
		return c.ModifyRole(ctx, "auditors", apm.RoleUpdate{AuthName: "V"})
	},
	"CreateRole": func(ctx context.Context, c *apm.Client) error {
		return c.CreateRole(ctx, apm.RoleSpec{AuthID: "v", AuthName: "V", ActionTypes: []apm.ActionType{apm.ActionRead}})
	},
}

// viewerWriteSetups prepare, with the admin key, what a write of viewerWrites needs beyond
// the demo seed.
var viewerWriteSetups = map[string]func(ctx context.Context, c *apm.Client) error{
	// orders-ds is attached to was-01, and an attached datasource cannot be deleted.
	"DeleteDatasource": func(ctx context.Context, c *apm.Client) error { return c.DetachDatasource(ctx, svWAS01, "orders-ds") },
}

// The viewer key may read but not write; each refused write lands in the trace log as a
// FAILURE of the viewer, and the admin key can do the same writes.
func TestViewerCannotWriteResourcesOrAdministration(t *testing.T) {
	ctx := context.Background()
	for _, name := range slices.Sorted(maps.Keys(viewerWrites)) {
		write := viewerWrites[name]
		t.Run(name, func(t *testing.T) {
			f := newFixture(t)
			if setup := viewerWriteSetups[name]; setup != nil {
				checkErr(t, setup(ctx, f.admin), wantErr{})
			}
			checkErr(t, write(ctx, f.viewer), wantErr{403, "FORBIDDEN", "Access denied"})
			logs, err := f.viewer.ActionTraceLogs(ctx, apm.TraceLogFilter{})
			if err != nil || len(logs) == 0 {
				t.Fatalf("trace log: %v, %v", logs, err)
			}
			if last := logs[len(logs)-1]; last.UserID != "viewer" || last.Result != "FAILURE" {
				t.Errorf("last log entry = %+v", last)
			}
			checkErr(t, write(ctx, f.admin), wantErr{})
		})
	}
}
