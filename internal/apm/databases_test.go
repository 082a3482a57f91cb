package apm

import (
	"context"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"
)

func resI64(v int64) *int64 { return &v }

func TestResourceCalls(t *testing.T) {
	runRequestCases(t, resourceCalls())
}

// resourceCalls are the calls of databases and datasources and the request each sends;
// TestCoverageClientCallsSendTheirEndpoint runs them too.
func resourceCalls() []requestCase {
	ctx := context.Background()
	return []requestCase{
		{"ListDatabases", func(c *Client) error { _, err := c.ListDatabases(ctx); return err },
			"GET", "/rest/resource/databases", "", "", `{"databases":[]}`},
		{"GetDatabase escapes", func(c *Client) error { _, err := c.GetDatabase(ctx, "db 1/x"); return err },
			"GET", "/rest/resource/databases/db%201%2Fx", "", "", `{"resourceName":"db 1/x"}`},
		{"CreateDatabase", func(c *Client) error {
			return c.CreateDatabase(ctx, DatabaseSpec{ResourceName: "orders-db", DatabaseType: "PostgreSQL", Host: "10.0.0.5",
				Port: 5432, DatabaseName: "orders", UserName: "app", Password: "s3cret!"})
		}, "POST", "/rest/resource/databases", "",
			`{"resourceName":"orders-db","databaseType":"PostgreSQL","host":"10.0.0.5","port":5432,"databaseName":"orders","userName":"app","password":"s3cret!"}`,
			`{"actionResult":"Y"}`},
		{"DeleteDatabase", func(c *Client) error { return c.DeleteDatabase(ctx, "orders-db") },
			"DELETE", "/rest/resource/databases/orders-db", "", "", `{"actionResult":"Y"}`},
		{"ListDatasources", func(c *Client) error { _, err := c.ListDatasources(ctx); return err },
			"GET", "/rest/resource/datasources", "", "", `{"datasources":[]}`},
		{"GetDatasource", func(c *Client) error { _, err := c.GetDatasource(ctx, "orders-ds"); return err },
			"GET", "/rest/resource/datasources/orders-ds", "", "", `{"resourceName":"orders-ds"}`},
		{"CreateDatasource minimal", func(c *Client) error {
			return c.CreateDatasource(ctx, DatasourceSpec{ResourceName: "ds", DatabaseResourceName: "db"})
		}, "POST", "/rest/resource/datasources", "", `{"resourceName":"ds","databaseResourceName":"db"}`, `{"actionResult":"Y"}`},
		{"CreateDatasource full, zero minimum", func(c *Client) error {
			return c.CreateDatasource(ctx, DatasourceSpec{ResourceName: "ds", DatabaseResourceName: "db",
				MinPoolSize: resI64(0), MaxPoolSize: resI64(8), InitialPoolSize: resI64(2), MaxWait: resI64(5000)})
		}, "POST", "/rest/resource/datasources", "",
			`{"resourceName":"ds","databaseResourceName":"db","minPoolSize":0,"maxPoolSize":8,"initialPoolSize":2,"maxWait":5000}`,
			`{"actionResult":"Y"}`},
		{"ModifyDatasource uses the singular path", func(c *Client) error {
			return c.ModifyDatasource(ctx, "orders-ds", DatasourceUpdate{MaxPoolSize: resI64(30)})
		}, "PUT", "/rest/resource/datasource/orders-ds", "", `{"maxPoolSize":30}`, `{"actionResult":"Y"}`},
		{"DeleteDatasource", func(c *Client) error { return c.DeleteDatasource(ctx, "orders-ds") },
			"DELETE", "/rest/resource/datasources/orders-ds", "", "", `{"actionResult":"Y"}`},
	}
}

func TestResourceDecodingIsLenient(t *testing.T) {
	srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request, _ int) {
		switch r.URL.Path {
		case "/rest/resource/databases":
			reply(w, 200, `{"Databases":[{"resourceName":"a","databaseType":"MySQL","host":"h","port":"3306","databaseName":"d","extra":1}]}`)
		case "/rest/resource/databases/a":
			reply(w, 200, `{"resourceName":"a","databaseType":"MySQL","port":3306.0,"userName":"u"}`)
		case "/rest/resource/datasources":
			reply(w, 200, `[{"resourceName":"ds","databaseResourceName":"a","minPoolSize":"1","maxPoolSize":10}]`)
		default:
			reply(w, 200, `{"resourceName":"ds","databaseResourceName":"a","minPoolSize":1,"maxPoolSize":"10","initialPoolSize":"2","maxWait":"30000"}`)
		}
	})
	c := newTestClient(t, srv.URL)
	ctx := context.Background()

	dbs, err := c.ListDatabases(ctx)
	if err != nil || !reflect.DeepEqual(dbs, []Database{{ResourceName: "a", DatabaseType: "MySQL", Host: "h", Port: 3306, DatabaseName: "d"}}) {
		t.Errorf("ListDatabases = %+v, %v", dbs, err)
	}
	db, err := c.GetDatabase(ctx, "a")
	if err != nil || *db != (Database{ResourceName: "a", DatabaseType: "MySQL", Port: 3306, UserName: "u"}) {
		t.Errorf("GetDatabase = %+v, %v", db, err)
	}
	list, err := c.ListDatasources(ctx)
	if err != nil || !reflect.DeepEqual(list, []Datasource{{ResourceName: "ds", DatabaseResourceName: "a", MinPoolSize: 1, MaxPoolSize: 10}}) {
		t.Errorf("ListDatasources = %+v, %v", list, err)
	}
	ds, err := c.GetDatasource(ctx, "ds")
	want := Datasource{ResourceName: "ds", DatabaseResourceName: "a", MinPoolSize: 1, MaxPoolSize: 10, InitialPoolSize: 2, MaxWait: 30000}
	if err != nil || *ds != want {
		t.Errorf("GetDatasource = %+v, %v", ds, err)
	}
}

func TestDatabaseSpecHidesPassword(t *testing.T) {
	const pw = "Pa55word!unique"
	spec := DatabaseSpec{ResourceName: "db", DatabaseType: "MySQL", Host: "h", Port: 1, DatabaseName: "d", UserName: "u", Password: pw}
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%d", "%x"} {
		out := fmt.Sprintf(verb, spec)
		if strings.Contains(out, pw) || !strings.Contains(out, "REDACTED") {
			t.Errorf("%s: %s", verb, out)
		}
	}
	want := `apm.DatabaseSpec{ResourceName:"db", DatabaseType:"MySQL", Host:"h", Port:1, DatabaseName:"d", UserName:"u", Password:REDACTED}`
	if got := spec.String(); got != want {
		t.Errorf("String() = %s\nwant       %s", got, want)
	}
	// An unset password is shown as unset, not as REDACTED.
	if got := (DatabaseSpec{}).String(); !strings.Contains(got, `Password:""`) {
		t.Errorf("empty password shown as %s", got)
	}
}

// A manager that echoes the rejected password back must not put it into the error.
func TestCreateDatabaseErrorHidesEchoedPassword(t *testing.T) {
	const pw = "echo-Me-1!"
	srv, _ := serve(t, func(w http.ResponseWriter, _ *http.Request, _ int) {
		reply(w, 400, `{"error":"bad password `+pw+`","code":"BAD_REQUEST"}`)
	})
	err := newTestClient(t, srv.URL).CreateDatabase(context.Background(), DatabaseSpec{ResourceName: "db", Password: pw})
	if !IsBadRequest(err) {
		t.Fatalf("err = %v, want a 400", err)
	}
	if want := "POST /rest/resource/databases: 400 BAD_REQUEST: bad password REDACTED"; err.Error() != want {
		t.Errorf("err = %q, want %q", err, want)
	}
}
