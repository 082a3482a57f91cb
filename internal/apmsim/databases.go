package apmsim

import (
	"encoding/json"
	"net/http"
	"net/netip"
	"slices"
	"strings"
)

// resourcesArea serves /rest/resource (spec 4.5): database resources and the datasources
// (connection pools) defined on them. Both are identified by resourceName, in separate
// namespaces. Databases cannot be modified (api/decisions.md: a change means
// replacement); a datasource is modified through the singular path
// /rest/resource/datasource/{resourceName} only, so PUT on the plural path is a 405.
type resourcesArea struct{ s *Sim }

var resourcesState = newExtKey[resourceData]("resources")

// resourceData is the area's slot in the world. Datasources refer to their database by
// name, which is stable: databases have no rename.
type resourceData struct {
	Databases   map[string]*database   `json:"databases"`   // by resourceName
	Datasources map[string]*datasource `json:"datasources"` // by resourceName
}

func (d *resourceData) init() {
	d.Databases = map[string]*database{}
	d.Datasources = map[string]*datasource{}
}

// database is a database resource. Only a fingerprint of the password is kept (see
// fingerprint), so neither a response nor the state file can reveal it.
type database struct {
	Name         string `json:"resourceName"`
	Type         string `json:"databaseType"`
	Host         string `json:"host"`
	Port         int    `json:"port"`
	DatabaseName string `json:"databaseName"`
	UserName     string `json:"userName"`
	// Password is the password's fingerprint. The JSON name is that of older versions,
	// which kept a plain SHA-256 there, so that state files stay readable both ways.
	Password fingerprint `json:"passwordSha256"`
}

type datasource struct {
	Name     string `json:"resourceName"`
	Database string `json:"databaseResourceName"`
	pool
}

// pool holds a datasource's pool settings; MaxWait is in milliseconds.
type pool struct {
	Min     int `json:"minPoolSize"`
	Max     int `json:"maxPoolSize"`
	Initial int `json:"initialPoolSize"`
	MaxWait int `json:"maxWait"`
}

// Defaults of a datasource created without pool settings.
const (
	defaultMinPool   = 1
	defaultMaxPool   = 10 // or minPoolSize, when that is larger
	defaultMaxWaitMS = 30000
	maxResourceName  = 64
	resourceNameRule = "1-64 characters: letters, digits, '.', '-' and '_'"
	maxDatabaseHost  = 253
)

// databaseTypes are the accepted databaseType values in their canonical spelling; input
// is matched case-insensitively and stored in this spelling.
var databaseTypes = []string{"MySQL", "Oracle", "PostgreSQL", "MariaDB", "MSSQL", "DB2"}

func (a resourcesArea) register(r *router) {
	r.handle("GET /rest/resource/databases", a.listDatabases)
	r.handle("GET /rest/resource/databases/{resourceName}", a.getDatabase)
	r.handle("POST /rest/resource/databases", a.createDatabase)
	r.handle("DELETE /rest/resource/databases/{resourceName}", a.deleteDatabase)
	r.handle("GET /rest/resource/datasources", a.listDatasources)
	r.handle("POST /rest/resource/datasources", a.createDatasource)
	r.handle("GET /rest/resource/datasources/{resourceName}", a.getDatasource)
	r.handle("PUT /rest/resource/datasource/{resourceName}", a.modifyDatasource)
	r.handle("DELETE /rest/resource/datasources/{resourceName}", a.deleteDatasource)
}

// hasDatasource implements datasourceRegistry for the WAS area.
func (a resourcesArea) hasDatasource(wd *world, name string) bool {
	_, ok := resourcesState.of(wd).Datasources[name]
	return ok
}

// --- databases ---

type databaseJSON struct {
	ResourceName string `json:"resourceName"`
	DatabaseType string `json:"databaseType"`
	Host         string `json:"host"`
	Port         int    `json:"port"`
	DatabaseName string `json:"databaseName"`
}

type databaseDetailJSON struct {
	databaseJSON
	UserName string `json:"userName"`
}

func (d *database) summary() databaseJSON {
	return databaseJSON{ResourceName: d.Name, DatabaseType: d.Type, Host: d.Host, Port: d.Port, DatabaseName: d.DatabaseName}
}

func (a resourcesArea) listDatabases(w http.ResponseWriter, _ *http.Request) {
	serveList(a.s, w, "databases", func(wd *world) map[string]*database { return resourcesState.of(wd).Databases },
		func(d *database) string { return d.Name }, (*database).summary)
}

func (a resourcesArea) getDatabase(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("resourceName")
	var out databaseDetailJSON
	var err error
	a.s.read(func(wd *world) {
		d := resourcesState.of(wd).Databases[name]
		if d == nil {
			err = notFound("Database not found: %s", name)
			return
		}
		out = databaseDetailJSON{databaseJSON: d.summary(), UserName: d.UserName}
	})
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

type createDatabaseBody struct {
	ResourceName string          `json:"resourceName"`
	DatabaseType string          `json:"databaseType"`
	Host         string          `json:"host"`
	Port         json.RawMessage `json:"port"` // number or numeric string
	DatabaseName string          `json:"databaseName"`
	UserName     string          `json:"userName"`
	Password     string          `json:"password"`
}

// check validates a database: required fields first (in body order), then formats. It
// returns the database to store, with the type in its canonical spelling.
func (b createDatabaseBody) check() (*database, error) {
	port, havePort, portErr := intField("port", b.Port)
	for _, f := range []struct {
		name    string
		missing bool
	}{
		{"resourceName", b.ResourceName == ""}, {"databaseType", b.DatabaseType == ""}, {"host", b.Host == ""},
		{"port", portErr == nil && !havePort}, {"databaseName", b.DatabaseName == ""},
		{"userName", b.UserName == ""}, {"password", b.Password == ""},
	} {
		if f.missing {
			return nil, badRequest("%s is required", f.name)
		}
	}
	if err := validResourceName(b.ResourceName); err != nil {
		return nil, err
	}
	dbType, err := canonicalDatabaseType(b.DatabaseType)
	if err != nil {
		return nil, err
	}
	if err := validDatabaseHost(b.Host); err != nil {
		return nil, err
	}
	if portErr != nil {
		return nil, portErr
	}
	if err := validPort("port", port); err != nil {
		return nil, err
	}
	return &database{
		Name: b.ResourceName, Type: dbType, Host: b.Host, Port: port, DatabaseName: b.DatabaseName,
		UserName: b.UserName, Password: newFingerprint(b.Password),
	}, nil
}

func (a resourcesArea) createDatabase(w http.ResponseWriter, r *http.Request) {
	var body createDatabaseBody
	if err := decodeBody(r, &body); err != nil {
		writeErr(w, err)
		return
	}
	db, err := body.check()
	if err != nil {
		writeErr(w, err)
		return
	}
	err = a.s.update(func(wd *world) error {
		st := resourcesState.of(wd)
		if st.Databases[db.Name] != nil {
			return conflict("Database already exists: %s", db.Name)
		}
		st.addDatabase(db)
		return nil
	})
	answer(w, err)
}

// deleteDatabase refuses to delete a database that datasources still use rather than
// cascading: the datasources may be attached to WAS servers.
func (a resourcesArea) deleteDatabase(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("resourceName")
	err := a.s.update(func(wd *world) error {
		st := resourcesState.of(wd)
		if st.Databases[name] == nil {
			return notFound("Database not found: %s", name)
		}
		if users := st.datasourcesOn(name); len(users) > 0 {
			return conflict("Database %s is used by datasource(s) %s; delete them first", name, strings.Join(users, ", "))
		}
		delete(st.Databases, name)
		return nil
	})
	answer(w, err)
}

// datasourcesOn returns the sorted names of the datasources defined on database db.
func (d *resourceData) datasourcesOn(db string) []string {
	var out []string
	for _, ds := range d.Datasources {
		if ds.Database == db {
			out = append(out, ds.Name)
		}
	}
	slices.Sort(out)
	return out
}

// addDatabase and addDatasource create the maps if a state file held null for them.
func (d *resourceData) addDatabase(db *database) {
	if d.Databases == nil {
		d.Databases = map[string]*database{}
	}
	d.Databases[db.Name] = db
}

func (d *resourceData) addDatasource(ds *datasource) {
	if d.Datasources == nil {
		d.Datasources = map[string]*datasource{}
	}
	d.Datasources[ds.Name] = ds
}

func validResourceName(name string) error {
	if !nameOK(name, maxResourceName, ".-_") {
		return badRequest("Invalid resourceName: %s (allowed: %s)", name, resourceNameRule)
	}
	return nil
}

func canonicalDatabaseType(v string) (string, error) {
	for _, t := range databaseTypes {
		if strings.EqualFold(v, t) {
			return t, nil
		}
	}
	return "", badRequest("Invalid databaseType: %s (allowed: %s)", v, strings.Join(databaseTypes, ", "))
}

// validDatabaseHost accepts an IP address or a host name (labels of letters, digits and
// '-', separated by dots). Ports belong in "port", not here.
func validDatabaseHost(host string) error {
	if _, err := netip.ParseAddr(host); err == nil {
		return nil
	}
	ok := nameOK(host, maxDatabaseHost, ".-")
	for _, label := range strings.Split(host, ".") {
		ok = ok && label != "" && !strings.HasPrefix(label, "-") && !strings.HasSuffix(label, "-")
	}
	if !ok {
		return badRequest("Invalid host: %s", host)
	}
	return nil
}

// --- datasources ---

type datasourceJSON struct {
	ResourceName         string `json:"resourceName"`
	DatabaseResourceName string `json:"databaseResourceName"`
	MinPoolSize          int    `json:"minPoolSize"`
	MaxPoolSize          int    `json:"maxPoolSize"`
}

type datasourceDetailJSON struct {
	datasourceJSON
	InitialPoolSize int `json:"initialPoolSize"`
	MaxWait         int `json:"maxWait"`
}

func (ds *datasource) summary() datasourceJSON {
	return datasourceJSON{ResourceName: ds.Name, DatabaseResourceName: ds.Database, MinPoolSize: ds.Min, MaxPoolSize: ds.Max}
}

func (a resourcesArea) listDatasources(w http.ResponseWriter, _ *http.Request) {
	serveList(a.s, w, "datasources", func(wd *world) map[string]*datasource { return resourcesState.of(wd).Datasources },
		func(ds *datasource) string { return ds.Name }, (*datasource).summary)
}

func (a resourcesArea) getDatasource(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("resourceName")
	var out datasourceDetailJSON
	var err error
	a.s.read(func(wd *world) {
		ds := resourcesState.of(wd).Datasources[name]
		if ds == nil {
			err = notFound("Datasource not found: %s", name)
			return
		}
		out = datasourceDetailJSON{datasourceJSON: ds.summary(), InitialPoolSize: ds.Initial, MaxWait: ds.MaxWait}
	})
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// poolBody holds the pool fields of POST and PUT; each may be a number or a numeric
// string, and absent, null or "" means "not given".
type poolBody struct {
	MinPoolSize     json.RawMessage `json:"minPoolSize"`
	MaxPoolSize     json.RawMessage `json:"maxPoolSize"`
	InitialPoolSize json.RawMessage `json:"initialPoolSize"`
	MaxWait         json.RawMessage `json:"maxWait"`
}

// optInt is an integer body field that may be absent.
type optInt struct {
	v   int
	set bool
}

func (o optInt) or(def int) int {
	if o.set {
		return o.v
	}
	return def
}

// poolInput is a parsed poolBody.
type poolInput struct{ min, max, initial, maxWait optInt }

func (b poolBody) parse() (poolInput, error) {
	var in poolInput
	for _, f := range []struct {
		name string
		raw  json.RawMessage
		dst  *optInt
	}{
		{"minPoolSize", b.MinPoolSize, &in.min}, {"maxPoolSize", b.MaxPoolSize, &in.max},
		{"initialPoolSize", b.InitialPoolSize, &in.initial}, {"maxWait", b.MaxWait, &in.maxWait},
	} {
		v, set, err := intField(f.name, f.raw)
		if err != nil {
			return in, err
		}
		*f.dst = optInt{v, set}
	}
	return in, nil
}

// newPool applies the defaults of a new datasource to what the request gave: min 1, max
// 10 (or min when larger), initial = min, maxWait 30000 ms.
func (in poolInput) newPool() pool {
	p := pool{Min: in.min.or(defaultMinPool)}
	p.Max = in.max.or(max(defaultMaxPool, p.Min))
	p.Initial = in.initial.or(p.Min)
	p.MaxWait = in.maxWait.or(defaultMaxWaitMS)
	return p
}

// merged applies a modification to cur. An initialPoolSize that is not given is pulled
// into the new [min, max] range, so that changing only the bounds does not fail because
// of a value the caller never set.
func (in poolInput) merged(cur pool) pool {
	p := pool{Min: in.min.or(cur.Min), Max: in.max.or(cur.Max), MaxWait: in.maxWait.or(cur.MaxWait)}
	p.Initial = in.initial.or(max(p.Min, min(cur.Initial, p.Max)))
	return p
}

// check enforces the pool rules, in this order.
func (p pool) check() error {
	switch {
	case p.Min < 0:
		return badRequest("minPoolSize must not be negative")
	case p.Max < 1:
		return badRequest("maxPoolSize must be at least 1")
	case p.Min > p.Max:
		return badRequest("minPoolSize (%d) must not be greater than maxPoolSize (%d)", p.Min, p.Max)
	case p.Initial < p.Min || p.Initial > p.Max:
		return badRequest("initialPoolSize (%d) must be between minPoolSize (%d) and maxPoolSize (%d)", p.Initial, p.Min, p.Max)
	case p.MaxWait < 0:
		return badRequest("maxWait must not be negative")
	}
	return nil
}

type createDatasourceBody struct {
	ResourceName         string `json:"resourceName"`
	DatabaseResourceName string `json:"databaseResourceName"`
	poolBody
}

// check validates a new datasource: required fields, the name rule, then the pool. The
// database's existence is checked under the lock.
func (b createDatasourceBody) check() (*datasource, error) {
	switch {
	case b.ResourceName == "":
		return nil, badRequest("resourceName is required")
	case b.DatabaseResourceName == "":
		return nil, badRequest("databaseResourceName is required")
	}
	if err := validResourceName(b.ResourceName); err != nil {
		return nil, err
	}
	in, err := b.parse()
	if err != nil {
		return nil, err
	}
	p := in.newPool()
	if err := p.check(); err != nil {
		return nil, err
	}
	return &datasource{Name: b.ResourceName, Database: b.DatabaseResourceName, pool: p}, nil
}

func (a resourcesArea) createDatasource(w http.ResponseWriter, r *http.Request) {
	var body createDatasourceBody
	if err := decodeBody(r, &body); err != nil {
		writeErr(w, err)
		return
	}
	ds, err := body.check()
	if err != nil {
		writeErr(w, err)
		return
	}
	err = a.s.update(func(wd *world) error {
		st := resourcesState.of(wd)
		if st.Databases[ds.Database] == nil {
			return notFound("Database not found: %s", ds.Database)
		}
		if st.Datasources[ds.Name] != nil {
			return conflict("Datasource already exists: %s", ds.Name)
		}
		st.addDatasource(ds)
		return nil
	})
	answer(w, err)
}

// modifyDatasource changes the pool settings. The database of a datasource cannot be
// changed; a databaseResourceName in the body is ignored like any unknown field.
func (a resourcesArea) modifyDatasource(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("resourceName")
	var body poolBody
	if err := decodeBody(r, &body); err != nil {
		writeErr(w, err)
		return
	}
	in, err := body.parse()
	if err != nil {
		writeErr(w, err)
		return
	}
	err = a.s.update(func(wd *world) error {
		ds := resourcesState.of(wd).Datasources[name]
		if ds == nil {
			return notFound("Datasource not found: %s", name)
		}
		p := in.merged(ds.pool)
		if err := p.check(); err != nil {
			return err
		}
		ds.pool = p
		return nil
	})
	answer(w, err)
}

// deleteDatasource refuses to delete a datasource that is attached to WAS servers, like
// deleteDatabase, rather than detaching it: the servers would be left naming a datasource
// that no longer exists.
func (a resourcesArea) deleteDatasource(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("resourceName")
	err := a.s.update(func(wd *world) error {
		st := resourcesState.of(wd)
		if st.Datasources[name] == nil {
			return notFound("Datasource not found: %s", name)
		}
		if holders := a.s.datasourceHolders(wd, name); len(holders) > 0 {
			return conflict("Datasource %s is attached to WAS server(s) %s; detach it first", name, strings.Join(holders, ", "))
		}
		delete(st.Datasources, name)
		return nil
	})
	answer(w, err)
}

// seed adds the demo resources: the PostgreSQL database orders-db with the datasource
// orders-ds on it, and the unused MySQL database reports-db.
func (a resourcesArea) seed(wd *world, seed string) {
	if seed != SeedDemo {
		return
	}
	st := resourcesState.of(wd)
	st.addDatabase(&database{Name: "orders-db", Type: "PostgreSQL", Host: "10.0.0.21", Port: 5432,
		DatabaseName: "orders", UserName: "orders_app", Password: demoFingerprint()})
	st.addDatabase(&database{Name: "reports-db", Type: "MySQL", Host: "reports.db.internal", Port: 3306,
		DatabaseName: "reports", UserName: "reporter", Password: demoFingerprint()})
	st.addDatasource(&datasource{Name: "orders-ds", Database: "orders-db",
		pool: pool{Min: 2, Max: 20, Initial: 5, MaxWait: defaultMaxWaitMS}})
}
