package apmsim

import (
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const ordersDB = `{"resourceName":"orders-db","databaseType":"PostgreSQL","host":"10.0.0.5","port":5432,` +
	`"databaseName":"orders","userName":"app","password":"Db-Secret-77"}`

// dsBody is a datasource on the orders-db database of ordersDB.
func dsBody(name string) string {
	return `{"resourceName":"` + name + `","databaseResourceName":"orders-db"}`
}

func TestDatabaseLifecycle(t *testing.T) {
	h := newTestSim(t).Handler()
	expect(t, call(t, h, "GET", admin("/rest/resource/databases"), ""), 200, `{"databases":[]}`)

	mustOK(t, h, "POST", admin("/rest/resource/databases"), ordersDB)
	// Type matched case-insensitively and stored in its canonical spelling; port as a string.
	mustOK(t, h, "POST", admin("/rest/resource/databases"), `{"resourceName":"a.db","databaseType":"mssql","host":"sql.example.com",`+
		`"port":"1433","databaseName":"main","userName":"sa","password":"x"}`)
	expect(t, call(t, h, "GET", admin("/rest/resource/databases"), ""), 200, `{"databases":[`+
		`{"resourceName":"a.db","databaseType":"MSSQL","host":"sql.example.com","port":1433,"databaseName":"main"},`+
		`{"resourceName":"orders-db","databaseType":"PostgreSQL","host":"10.0.0.5","port":5432,"databaseName":"orders"}]}`)
	expect(t, call(t, h, "GET", admin("/rest/resource/databases/orders-db"), ""), 200,
		`{"resourceName":"orders-db","databaseType":"PostgreSQL","host":"10.0.0.5","port":5432,"databaseName":"orders","userName":"app"}`)

	expect(t, call(t, h, "POST", admin("/rest/resource/databases"), ordersDB), 409,
		errJSON("CONFLICT", "Database already exists: orders-db"))
	mustOK(t, h, "DELETE", admin("/rest/resource/databases/orders-db"), "")
	expect(t, call(t, h, "GET", admin("/rest/resource/databases/orders-db"), ""), 404,
		errJSON("NOT_FOUND", "Database not found: orders-db"))
	// The name is free again.
	mustOK(t, h, "POST", admin("/rest/resource/databases"), ordersDB)
}

func TestDatabaseErrors(t *testing.T) {
	h := newTestSim(t).Handler()
	mustOK(t, h, "POST", admin("/rest/resource/databases"), ordersDB)
	body := func(replace map[string]string) string {
		fields := map[string]string{"resourceName": `"db"`, "databaseType": `"MySQL"`, "host": `"h"`, "port": `3306`,
			"databaseName": `"d"`, "userName": `"u"`, "password": `"p"`}
		for k, v := range replace {
			fields[k] = v
		}
		var parts []string
		for _, k := range []string{"resourceName", "databaseType", "host", "port", "databaseName", "userName", "password"} {
			if v := fields[k]; v != "" {
				parts = append(parts, `"`+k+`":`+v)
			}
		}
		return "{" + strings.Join(parts, ",") + "}"
	}
	nameRule := " (allowed: 1-64 characters: letters, digits, '.', '-' and '_')"
	bad := func(msg string) string { return errJSON("BAD_REQUEST", msg) }
	tests := []struct {
		name   string
		body   string
		status int
		want   string
	}{
		{"nothing", `{}`, 400, bad("resourceName is required")},
		{"no type", body(map[string]string{"databaseType": `""`}), 400, bad("databaseType is required")},
		{"no host", body(map[string]string{"host": `null`}), 400, bad("host is required")},
		{"no port", body(map[string]string{"port": ""}), 400, bad("port is required")},
		{"empty port", body(map[string]string{"port": `""`}), 400, bad("port is required")},
		{"no databaseName", body(map[string]string{"databaseName": `""`}), 400, bad("databaseName is required")},
		{"no userName", body(map[string]string{"userName": ""}), 400, bad("userName is required")},
		{"no password", body(map[string]string{"password": ""}), 400, bad("password is required")},
		{"required before format", body(map[string]string{"resourceName": `"a b"`, "password": ""}), 400, bad("password is required")},
		{"bad name", body(map[string]string{"resourceName": `"a b"`}), 400, bad("Invalid resourceName: a b" + nameRule)},
		{"long name", body(map[string]string{"resourceName": `"` + strings.Repeat("n", 65) + `"`}), 400,
			bad("Invalid resourceName: " + strings.Repeat("n", 65) + nameRule)},
		{"bad type", body(map[string]string{"databaseType": `"Mongo"`}), 400,
			bad("Invalid databaseType: Mongo (allowed: MySQL, Oracle, PostgreSQL, MariaDB, MSSQL, DB2)")},
		{"host with port", body(map[string]string{"host": `"db:5432"`}), 400, bad("Invalid host: db:5432")},
		{"host with space", body(map[string]string{"host": `"a b"`}), 400, bad("Invalid host: a b")},
		{"host empty label", body(map[string]string{"host": `"a..b"`}), 400, bad("Invalid host: a..b")},
		{"host label dash", body(map[string]string{"host": `"-a.b"`}), 400, bad("Invalid host: -a.b")},
		{"port text", body(map[string]string{"port": `"abc"`}), 400, bad("port must be an integer")},
		{"port fraction", body(map[string]string{"port": `1.5`}), 400, bad("port must be an integer")},
		{"port zero", body(map[string]string{"port": `0`}), 400, bad("port must be between 1 and 65535")},
		{"port too big", body(map[string]string{"port": `65536`}), 400, bad("port must be between 1 and 65535")},
		{"type is a number", body(map[string]string{"databaseType": `5`}), 400,
			bad("invalid JSON body: databaseType must be a string, not number")},
		{"duplicate", ordersDB, 409, errJSON("CONFLICT", "Database already exists: orders-db")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			expect(t, call(t, h, "POST", admin("/rest/resource/databases"), tc.body), tc.status, tc.want)
		})
	}
	for _, ok := range []map[string]string{
		{"resourceName": `"ipv6"`, "host": `"::1"`},
		{"resourceName": `"upper"`, "databaseType": `"db2"`, "port": `65535`},
		{"resourceName": `"oracle"`, "databaseType": `"ORACLE"`, "host": `"db-1.prod.example"`, "port": `1`},
	} {
		mustOK(t, h, "POST", admin("/rest/resource/databases"), body(ok))
	}
	expect(t, call(t, h, "GET", admin("/rest/resource/databases/oracle"), ""), 200,
		`{"resourceName":"oracle","databaseType":"Oracle","host":"db-1.prod.example","port":1,"databaseName":"d","userName":"u"}`)
	expect(t, call(t, h, "DELETE", admin("/rest/resource/databases/nope"), ""), 404, errJSON("NOT_FOUND", "Database not found: nope"))
}

func TestDatabaseUsedByDatasourcesCannotBeDeleted(t *testing.T) {
	h := newTestSim(t).Handler()
	mustOK(t, h, "POST", admin("/rest/resource/databases"), ordersDB)
	mustOK(t, h, "POST", admin("/rest/resource/datasources"), dsBody("zeta-ds"))
	mustOK(t, h, "POST", admin("/rest/resource/datasources"), dsBody("alpha-ds"))
	expect(t, call(t, h, "DELETE", admin("/rest/resource/databases/orders-db"), ""), 409,
		errJSON("CONFLICT", "Database orders-db is used by datasource(s) alpha-ds, zeta-ds; delete them first"))
	mustOK(t, h, "DELETE", admin("/rest/resource/datasources/alpha-ds"), "")
	expect(t, call(t, h, "DELETE", admin("/rest/resource/databases/orders-db"), ""), 409,
		errJSON("CONFLICT", "Database orders-db is used by datasource(s) zeta-ds; delete them first"))
	mustOK(t, h, "DELETE", admin("/rest/resource/datasources/zeta-ds"), "")
	mustOK(t, h, "DELETE", admin("/rest/resource/databases/orders-db"), "")
}

// A datasource attached to WAS servers, by POST .../datasource or by importing it, cannot
// be deleted (409) until it is detached from every one; the message names the servers,
// sorted by serverId, node and system. Nothing is detached on the way.
func TestDatasourceAttachedToWASServersCannotBeDeleted(t *testing.T) {
	h := newSrvFixture(t).h // demo: orders-ds attached to was-01 on web-01
	del := func() response { return call(t, h, "DELETE", admin("/rest/resource/datasources/orders-ds"), "") }
	conflictWith := func(servers string) string {
		return errJSON("CONFLICT", "Datasource orders-ds is attached to WAS server(s) "+servers+"; detach it first")
	}
	// Another was-01, on app-01, with the datasource imported; was-02 attaches it.
	mustOK(t, h, "POST", admin("/rest/was/servers"),
		`{"type":"install","serverId":"was-01","nodeName":"app-01","systemName":"shop","httpPort":9080}`)
	mustOK(t, h, "POST", admin(srvPath("was", "was-01", "app-01", "/resource")), `{"resourceType":"datasource","resourceName":"orders-ds"}`)
	mustOK(t, h, "POST", admin(srvPath("was", "was-02", "web-01", "/datasource")), `{"resourceName":"orders-ds"}`)
	expect(t, del(), 409, conflictWith("was-01 (app-01/shop), was-01 (web-01/shop), was-02 (web-01/shop)"))

	mustOK(t, h, "DELETE", admin(srvPath("was", "was-01", "web-01", "/datasource?resourceName=orders-ds")), "")
	mustOK(t, h, "DELETE", admin(srvPath("was", "was-02", "web-01", "/datasource?resourceName=orders-ds")), "")
	expect(t, del(), 409, conflictWith("was-01 (app-01/shop)"))
	// The refusals changed nothing.
	if got := call(t, h, "GET", admin(srvPath("was", "was-01", "app-01", "")), ""); !strings.Contains(got.body, `"datasources":["orders-ds"]`) {
		t.Fatalf("was-01 on app-01: %s", got.body)
	}
	expect(t, call(t, h, "GET", admin("/rest/resource/datasources/orders-ds"), ""), 200, "")

	// A rename of the system shows in the message; only WAS servers of this datasource count.
	mustOK(t, h, "PUT", admin("/rest/systems/shop"), `{"systemName":"store"}`)
	mustOK(t, h, "POST", admin("/rest/resource/datasources"), `{"resourceName":"other-ds","databaseResourceName":"orders-db"}`)
	mustOK(t, h, "POST", admin("/rest/was/servers/was-02/nodes/web-01/systems/store/datasource"), `{"resourceName":"other-ds"}`)
	expect(t, del(), 409, conflictWith("was-01 (app-01/store)"))

	mustOK(t, h, "DELETE", admin("/rest/was/servers/was-01/nodes/app-01/systems/store/datasource?resourceName=orders-ds"), "")
	mustOK(t, h, "DELETE", admin("/rest/resource/datasources/orders-ds"), "")
	expect(t, del(), 404, errJSON("NOT_FOUND", "Datasource not found: orders-ds"))
	expect(t, call(t, h, "DELETE", admin("/rest/resource/datasources/other-ds"), ""), 409,
		errJSON("CONFLICT", "Datasource other-ds is attached to WAS server(s) was-02 (web-01/store); detach it first"))
}

func TestDatasourceLifecycle(t *testing.T) {
	s := newTestSim(t)
	h := s.Handler()
	expect(t, call(t, h, "GET", admin("/rest/resource/datasources"), ""), 200, `{"datasources":[]}`)
	mustOK(t, h, "POST", admin("/rest/resource/databases"), ordersDB)

	// Defaults: min 1, max 10, initial = min, maxWait 30000 ms.
	mustOK(t, h, "POST", admin("/rest/resource/datasources"), dsBody("orders-ds"))
	expect(t, call(t, h, "GET", admin("/rest/resource/datasources/orders-ds"), ""), 200,
		`{"resourceName":"orders-ds","databaseResourceName":"orders-db","minPoolSize":1,"maxPoolSize":10,"initialPoolSize":1,"maxWait":30000}`)
	// All fields given, as numbers or numeric strings; a large minimum raises the default maximum.
	mustOK(t, h, "POST", admin("/rest/resource/datasources"),
		`{"resourceName":"big-ds","databaseResourceName":"orders-db","minPoolSize":"20","initialPoolSize":20.0,"maxWait":0}`)
	expect(t, call(t, h, "GET", admin("/rest/resource/datasources/big-ds"), ""), 200,
		`{"resourceName":"big-ds","databaseResourceName":"orders-db","minPoolSize":20,"maxPoolSize":20,"initialPoolSize":20,"maxWait":0}`)
	expect(t, call(t, h, "GET", admin("/rest/resource/datasources"), ""), 200, `{"datasources":[`+
		`{"resourceName":"big-ds","databaseResourceName":"orders-db","minPoolSize":20,"maxPoolSize":20},`+
		`{"resourceName":"orders-ds","databaseResourceName":"orders-db","minPoolSize":1,"maxPoolSize":10}]}`)

	// Modify through the singular path only.
	mustOK(t, h, "PUT", admin("/rest/resource/datasource/orders-ds"), `{"minPoolSize":0,"maxPoolSize":"40","maxWait":5000}`)
	expect(t, call(t, h, "GET", admin("/rest/resource/datasources/orders-ds"), ""), 200,
		`{"resourceName":"orders-ds","databaseResourceName":"orders-db","minPoolSize":0,"maxPoolSize":40,"initialPoolSize":1,"maxWait":5000}`)
	// An empty body changes nothing; a databaseResourceName is ignored.
	mustOK(t, h, "PUT", admin("/rest/resource/datasource/orders-ds"), `{"databaseResourceName":"other"}`)
	expect(t, call(t, h, "GET", admin("/rest/resource/datasources/orders-ds"), ""), 200,
		`{"resourceName":"orders-ds","databaseResourceName":"orders-db","minPoolSize":0,"maxPoolSize":40,"initialPoolSize":1,"maxWait":5000}`)
	got := call(t, h, "PUT", admin("/rest/resource/datasources/orders-ds"), `{"maxPoolSize":5}`)
	expect(t, got, 405, errJSON("METHOD_NOT_ALLOWED", "Method not allowed: PUT /rest/resource/datasources/orders-ds"))
	expect(t, call(t, h, "GET", admin("/rest/resource/datasource/orders-ds"), ""), 405,
		errJSON("METHOD_NOT_ALLOWED", "Method not allowed: GET /rest/resource/datasource/orders-ds"))

	mustOK(t, h, "DELETE", admin("/rest/resource/datasources/orders-ds"), "")
	for _, c := range []struct{ method, path, body string }{
		{"GET", "/rest/resource/datasources/orders-ds", ""},
		{"PUT", "/rest/resource/datasource/orders-ds", `{}`},
		{"DELETE", "/rest/resource/datasources/orders-ds", ""},
	} {
		expect(t, call(t, h, c.method, admin(c.path), c.body), 404, errJSON("NOT_FOUND", "Datasource not found: orders-ds"))
	}
	var exists, gone bool
	s.read(func(wd *world) { exists, gone = s.datasourceExists(wd, "big-ds"), !s.datasourceExists(wd, "orders-ds") })
	if !exists || !gone {
		t.Errorf("datasourceExists: big-ds %t, orders-ds gone %t", exists, gone)
	}
}

func TestDatasourceErrors(t *testing.T) {
	h := newTestSim(t).Handler()
	mustOK(t, h, "POST", admin("/rest/resource/databases"), ordersDB)
	mustOK(t, h, "POST", admin("/rest/resource/datasources"),
		`{"resourceName":"ds","databaseResourceName":"orders-db","minPoolSize":2,"maxPoolSize":8,"initialPoolSize":4}`)
	bad := func(msg string) string { return errJSON("BAD_REQUEST", msg) }
	create := func(extra string) string {
		return `{"resourceName":"new","databaseResourceName":"orders-db"` + extra + `}`
	}
	tests := []struct {
		name, method, path, body string
		status                   int
		want                     string
	}{
		{"no name", "POST", "/rest/resource/datasources", `{"databaseResourceName":"orders-db"}`, 400, bad("resourceName is required")},
		{"no database", "POST", "/rest/resource/datasources", `{"resourceName":"x"}`, 400, bad("databaseResourceName is required")},
		{"bad name", "POST", "/rest/resource/datasources", `{"resourceName":"a/b","databaseResourceName":"orders-db"}`, 400,
			bad("Invalid resourceName: a/b (allowed: 1-64 characters: letters, digits, '.', '-' and '_')")},
		{"size not integer", "POST", "/rest/resource/datasources", create(`,"maxPoolSize":"ten"`), 400, bad("maxPoolSize must be an integer")},
		{"negative min", "POST", "/rest/resource/datasources", create(`,"minPoolSize":-1`), 400, bad("minPoolSize must not be negative")},
		{"max zero", "POST", "/rest/resource/datasources", create(`,"maxPoolSize":0`), 400, bad("maxPoolSize must be at least 1")},
		{"min above max", "POST", "/rest/resource/datasources", create(`,"minPoolSize":5,"maxPoolSize":2`), 400,
			bad("minPoolSize (5) must not be greater than maxPoolSize (2)")},
		{"initial below min", "POST", "/rest/resource/datasources", create(`,"minPoolSize":2,"initialPoolSize":1`), 400,
			bad("initialPoolSize (1) must be between minPoolSize (2) and maxPoolSize (10)")},
		{"initial above max", "POST", "/rest/resource/datasources", create(`,"initialPoolSize":11`), 400,
			bad("initialPoolSize (11) must be between minPoolSize (1) and maxPoolSize (10)")},
		{"negative wait", "POST", "/rest/resource/datasources", create(`,"maxWait":-5`), 400, bad("maxWait must not be negative")},
		{"unknown database", "POST", "/rest/resource/datasources", `{"resourceName":"x","databaseResourceName":"nope"}`, 404,
			errJSON("NOT_FOUND", "Database not found: nope")},
		{"duplicate", "POST", "/rest/resource/datasources", dsBody("ds"), 409,
			errJSON("CONFLICT", "Datasource already exists: ds")},
		{"modify min above current max", "PUT", "/rest/resource/datasource/ds", `{"minPoolSize":9}`, 400,
			bad("minPoolSize (9) must not be greater than maxPoolSize (8)")},
		{"modify initial out of range", "PUT", "/rest/resource/datasource/ds", `{"initialPoolSize":9}`, 400,
			bad("initialPoolSize (9) must be between minPoolSize (2) and maxPoolSize (8)")},
		{"modify negative wait", "PUT", "/rest/resource/datasource/ds", `{"maxWait":-1}`, 400, bad("maxWait must not be negative")},
		{"modify not integer", "PUT", "/rest/resource/datasource/ds", `{"minPoolSize":true}`, 400, bad("minPoolSize must be an integer")},
		{"modify unknown", "PUT", "/rest/resource/datasource/nope", `{"maxPoolSize":3}`, 404, errJSON("NOT_FOUND", "Datasource not found: nope")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			expect(t, call(t, h, tc.method, admin(tc.path), tc.body), tc.status, tc.want)
		})
	}
	// Failed modifications left ds as it was.
	expect(t, call(t, h, "GET", admin("/rest/resource/datasources/ds"), ""), 200,
		`{"resourceName":"ds","databaseResourceName":"orders-db","minPoolSize":2,"maxPoolSize":8,"initialPoolSize":4,"maxWait":30000}`)
	// Narrowing the bounds without initialPoolSize pulls it into the new range.
	mustOK(t, h, "PUT", admin("/rest/resource/datasource/ds"), `{"minPoolSize":5,"maxPoolSize":6}`)
	expect(t, call(t, h, "GET", admin("/rest/resource/datasources/ds"), ""), 200,
		`{"resourceName":"ds","databaseResourceName":"orders-db","minPoolSize":5,"maxPoolSize":6,"initialPoolSize":5,"maxWait":30000}`)
	mustOK(t, h, "PUT", admin("/rest/resource/datasource/ds"), `{"minPoolSize":1,"maxPoolSize":3}`)
	expect(t, call(t, h, "GET", admin("/rest/resource/datasources/ds"), ""), 200,
		`{"resourceName":"ds","databaseResourceName":"orders-db","minPoolSize":1,"maxPoolSize":3,"initialPoolSize":3,"maxWait":30000}`)
}

func TestResourceWritesNeedAdmin(t *testing.T) {
	h := newTestSim(t, func(o *Options) { o.Seed = SeedDemo }).Handler()
	for _, c := range []struct{ method, path, body string }{
		{"POST", "/rest/resource/databases", ordersDB},
		{"DELETE", "/rest/resource/databases/reports-db", ""},
		{"POST", "/rest/resource/datasources", dsBody("x")},
		{"PUT", "/rest/resource/datasource/orders-ds", `{"maxPoolSize":3}`},
		{"DELETE", "/rest/resource/datasources/orders-ds", ""},
	} {
		expect(t, call(t, h, c.method, viewer(c.path), c.body), 403, errJSON("FORBIDDEN", "Access denied"))
	}
	for _, p := range []string{"/rest/resource/databases", "/rest/resource/databases/orders-db",
		"/rest/resource/datasources", "/rest/resource/datasources/orders-ds"} {
		expect(t, call(t, h, "GET", viewer(p), ""), 200, "")
	}
	// Nothing changed.
	expect(t, call(t, h, "GET", admin("/rest/resource/datasources/orders-ds"), ""), 200,
		`{"resourceName":"orders-ds","databaseResourceName":"orders-db","minPoolSize":2,"maxPoolSize":20,"initialPoolSize":5,"maxWait":30000}`)
}

func TestResourcesDemoSeed(t *testing.T) {
	h := newTestSim(t, func(o *Options) { o.Seed = SeedDemo }).Handler()
	expect(t, call(t, h, "GET", admin("/rest/resource/databases"), ""), 200, `{"databases":[`+
		`{"resourceName":"orders-db","databaseType":"PostgreSQL","host":"10.0.0.21","port":5432,"databaseName":"orders"},`+
		`{"resourceName":"reports-db","databaseType":"MySQL","host":"reports.db.internal","port":3306,"databaseName":"reports"}]}`)
	expect(t, call(t, h, "GET", admin("/rest/resource/databases/orders-db"), ""), 200,
		`{"resourceName":"orders-db","databaseType":"PostgreSQL","host":"10.0.0.21","port":5432,"databaseName":"orders","userName":"orders_app"}`)
	expect(t, call(t, h, "GET", admin("/rest/resource/datasources"), ""), 200,
		`{"datasources":[{"resourceName":"orders-ds","databaseResourceName":"orders-db","minPoolSize":2,"maxPoolSize":20}]}`)
}

// Passwords are neither returned nor written to the state file in clear text.
func TestPasswordsAreNeverExposed(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	h := newTestSim(t, stateOpts(path)).Handler()
	const dbPw, userPw, userPw2 = "Db-Secret-77", "User-Secret-88!", "Changed-Secret-99!"
	mustOK(t, h, "POST", admin("/rest/resource/databases"), ordersDB)
	mustOK(t, h, "POST", admin("/rest/admin/user"), `{"usrId":"bob","usrNm":"Bob","usrPw":"`+userPw+`"}`)
	mustOK(t, h, "PUT", admin("/rest/admin/user/bob"), `{"usrPw":"`+userPw2+`"}`)
	var seen strings.Builder
	for _, p := range []string{"/rest/resource/databases", "/rest/resource/databases/orders-db",
		"/rest/admin/users", "/rest/admin/user/bob", "/rest/admin/actionTraceLogList"} {
		got := call(t, h, "GET", admin(p), "")
		if got.status != http.StatusOK {
			t.Fatalf("GET %s: %d %s", p, got.status, got.body)
		}
		seen.WriteString(got.body)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	seen.Write(data)
	for _, pw := range []string{dbPw, userPw, userPw2} {
		if strings.Contains(seen.String(), pw) {
			t.Errorf("password %q exposed", pw)
		}
	}
	for _, field := range []string{`"password"`, `"usrPw"`} {
		if strings.Contains(seen.String(), field) {
			t.Errorf("field %s present in a response or the state file", field)
		}
	}
	// The fingerprint did change with the password (the database's is the other one).
	fps := storedFingerprints(t, path)
	if len(fps) != 2 || !slices.ContainsFunc(fps, func(fp string) bool { return fingerprintMatches(t, fp, "", userPw2) }) ||
		slices.ContainsFunc(fps, func(fp string) bool { return fingerprintMatches(t, fp, "", userPw) }) {
		t.Errorf("state file does not hold the new password's fingerprint: %q", fps)
	}
}
