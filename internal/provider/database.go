package provider

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
)

// Resources of the manager (spec 4.5): databases, and datasources (connection pools) on
// them. Both are identified by their resourceName, which never changes, so it is their id.
// A database has no modify endpoint (api/decisions.md): every change replaces it. A
// datasource's pool settings are modified in place, on the singular path.

func databaseResources() []func() resource.Resource {
	return []func() resource.Resource{engine.NewResource(databaseType), engine.NewResource(datasourceType)}
}

func databaseDataSources() []func() datasource.DataSource {
	return []func() datasource.DataSource{
		newDatabaseDataSource, newDatabasesDataSource, newDatasourceDataSource, newDatasourcesDataSource,
	}
}

// resourceNamePattern is the manager's rule for the name of a database or datasource.
var resourceNamePattern = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)

func resourceNameValidators() []validator.String {
	return []validator.String{
		stringvalidator.RegexMatches(resourceNamePattern, "must be 1 to 64 characters, each a letter, a digit, '.', '-' or '_'"),
		// As path segments these are cleaned away: such a resource could never be read back.
		stringvalidator.NoneOf(".", ".."),
	}
}

// databaseTypes are the database types the manager accepts, in their canonical spelling.
var databaseTypes = []string{"MySQL", "Oracle", "PostgreSQL", "MariaDB", "MSSQL", "DB2"}

// resourceIdentity is the import ID of a database or datasource: its resource_name.
func resourceIdentity(example string) importID {
	return importID{Parts: []idPart{{Attr: "resource_name", Form: "<resource_name>"}}, Example: example}
}

// ---- databases ----

var databasePassword = engine.Secret{
	Name: "password", What: "the database user's password",
	Change:   "The manager cannot change a database.",
	Replaces: true,
	Rules:    []validator.String{stringvalidator.LengthAtLeast(1)},
}

var databaseFields = append([]engine.Field[apm.Database]{
	engine.StringField("id", "The database's `resource_name`, which never changes: refer to the database by it, as in `database_id = apm_database.example.id`.",
		func(d *apm.Database) string { return d.ResourceName }).DerivedFrom(engine.Joined("resource_name")),
	engine.StringField("resource_name", "Name of the database resource: 1 to 64 letters, digits, `.`, `-` or `_`.",
		func(d *apm.Database) string { return d.ResourceName }).Replacing().Validate(resourceNameValidators()...),
	engine.StringField("database_type", "Type of the database, one of `"+strings.Join(databaseTypes, "`, `")+"`. "+
		"The manager takes any case; write the spelling shown here.",
		func(d *apm.Database) string { return d.DatabaseType }).Replacing().
		Validate(stringvalidator.OneOf(databaseTypes...)).SameString(strings.EqualFold),
	engine.StringField("host", "Host name or IP address of the database server.",
		func(d *apm.Database) string { return d.Host }).Replacing().Validate(hostValidators()...).SameString(sameHost),
	engine.Int64Field("port", "Port of the database server, 1 to 65535.",
		func(d *apm.Database) int64 { return d.Port }).Replacing().ValidateInt64(portValidators()...),
	engine.StringField("database_name", "Name of the database on the server.",
		func(d *apm.Database) string { return d.DatabaseName }).Replacing().Validate(stringvalidator.LengthAtLeast(1)),
	engine.StringField("user_name", "Name of the database user the datasources connect as.",
		func(d *apm.Database) string { return d.UserName }).In(engine.InResource | engine.InDetail).Replacing().Validate(stringvalidator.LengthAtLeast(1)),
}, engine.SecretFields[apm.Database](databasePassword)...)

// sameHost reports whether two spellings name the same host: one IP address, or one DNS
// name in another case.
func sameHost(a, b string) bool { return strings.EqualFold(a, b) || sameIP(a, b) }

var databaseType = resourceType[apm.Database]{
	Name: "database",
	Description: "A database resource: the connection details of a database server that datasources connect to. " +
		"The manager has no operation that changes a database, so changing any attribute replaces it (its datasources then " +
		"have to go first: refer to the database by `id` so Terraform replaces them too). The manager never reports the password; " +
		"give it as the write-only `password_wo` where the CLI supports it (Terraform 1.11 or later, OpenTofu), which keeps it out of plan and state. " +
		"Deleting a database waits while datasources still use it.",
	Fields:        databaseFields,
	ImportID:      resourceIdentity("orders-db"),
	DeleteTimeout: engine.DefaultDeleteTimeout,
	Validators:    databasePassword.Validators(),
	Describe:      func(a engine.Attrs) string { return fmt.Sprintf("database %q", a.Str("resource_name")) },
	Create: func(ctx context.Context, m *conn, plan engine.Attrs) error {
		return m.CreateDatabase(ctx, apm.DatabaseSpec{
			ResourceName: plan.Str("resource_name"), DatabaseType: plan.Str("database_type"),
			Host: plan.Str("host"), Port: plan.Int64("port"), DatabaseName: plan.Str("database_name"),
			UserName: plan.Str("user_name"), Password: databasePassword.Value(plan),
		})
	},
	Read: func(ctx context.Context, m *conn, state engine.Attrs) (*apm.Database, error) {
		return m.GetDatabase(ctx, state.Str("resource_name"))
	},
	Update: func(context.Context, *conn, engine.Attrs, engine.Attrs) error {
		// Every managed attribute replaces the database; only recorded inputs (the
		// password version right after an import) reach here, and the engine sends nothing for those.
		return nil
	},
	Delete: func(ctx context.Context, m *conn, state engine.Attrs) error {
		return m.DeleteDatabase(ctx, state.Str("resource_name"))
	},
	Blockers: func(ctx context.Context, m *conn, state engine.Attrs) ([]string, error) {
		all, err := m.ListDatasources(ctx)
		if err != nil {
			return nil, err
		}
		var names []string
		for _, ds := range all {
			if ds.DatabaseResourceName == state.Str("resource_name") {
				names = append(names, fmt.Sprintf("datasource %q", ds.ResourceName))
			}
		}
		slices.Sort(names)
		return names, nil
	},
}

var newDatabaseDataSource = engine.NewDataSource(dataSourceType[apm.Database]{
	Name:        "database",
	Description: "Reads one database resource by name. The manager never reports the password. Fails when the database does not exist.",
	Fields:      databaseFields,
	Keys:        []string{"resource_name"},
	Read: func(ctx context.Context, m *conn, config engine.Attrs) (*apm.Database, error) {
		return m.GetDatabase(ctx, config.Str("resource_name"))
	},
})

var newDatabasesDataSource = engine.NewListDataSource(listDataSourceType[apm.Database]{
	Name:            "databases",
	Description:     "Lists every database resource of the manager, sorted by name. The manager never reports passwords, nor in its list the user names.",
	ListName:        "databases",
	ListDescription: "The databases.",
	Fields:          databaseFields,
	List: func(ctx context.Context, m *conn, _ engine.Attrs) ([]apm.Database, error) {
		all, err := m.ListDatabases(ctx)
		slices.SortFunc(all, func(a, b apm.Database) int { return strings.Compare(a.ResourceName, b.ResourceName) })
		return all, err
	},
})

// ---- datasources ----

// The pool attributes of a datasource.
const (
	poolMin     = "min_pool_size"
	poolMax     = "max_pool_size"
	poolInitial = "initial_pool_size"
	poolMaxWait = "max_wait"
)

var datasourceFields = []engine.Field[apm.Datasource]{
	engine.StringField("id", "The datasource's `resource_name`, which never changes.",
		func(d *apm.Datasource) string { return d.ResourceName }).DerivedFrom(engine.Joined("resource_name")),
	engine.StringField("resource_name", "Name of the datasource: 1 to 64 letters, digits, `.`, `-` or `_`.",
		func(d *apm.Datasource) string { return d.ResourceName }).Replacing().Validate(resourceNameValidators()...),
	engine.StringField("database_id", "The `id` of the database the pool connects to, such as `apm_database.example.id` (the database's `resource_name`).",
		func(d *apm.Datasource) string { return d.DatabaseResourceName }).Replacing().Validate(resourceNameValidators()...),
	engine.Int64Field(poolMin, "Minimum number of connections of the pool, 0 or more. Defaults to the manager's `1`.",
		func(d *apm.Datasource) int64 { return d.MinPoolSize }).DefaultedInput().ValidateInt64(int64validator.AtLeast(0)),
	engine.Int64Field(poolMax, "Maximum number of connections of the pool, 1 or more and at least `min_pool_size`. "+
		"Defaults to the manager's `10`, or `min_pool_size` when that is larger.",
		func(d *apm.Datasource) int64 { return d.MaxPoolSize }).DefaultedInput().ValidateInt64(int64validator.AtLeast(1)),
	engine.Int64Field(poolInitial, "Number of connections the pool opens at start, from `min_pool_size` to `max_pool_size`. Defaults to `min_pool_size`.",
		func(d *apm.Datasource) int64 { return d.InitialPoolSize }).In(engine.InResource | engine.InDetail).DefaultedInput().ValidateInt64(int64validator.AtLeast(0)),
	engine.Int64Field(poolMaxWait, "How long a request waits for a free connection, in milliseconds, 0 or more. Defaults to the manager's `30000`.",
		func(d *apm.Datasource) int64 { return d.MaxWait }).In(engine.InResource | engine.InDetail).DefaultedInput().ValidateInt64(int64validator.AtLeast(0)),
}

var datasourceType = resourceType[apm.Datasource]{
	Name: "datasource",
	Description: "A datasource: a connection pool on a database resource. Its pool settings are updated in place; its name and database " +
		"replace it. A pool setting left out takes the manager's default, which is recorded (leaving one out later keeps the recorded value). " +
		"Deleting a datasource waits while WAS servers still have it attached.",
	Fields:        datasourceFields,
	ImportID:      resourceIdentity("orders-ds"),
	DeleteTimeout: engine.DefaultDeleteTimeout,
	Validators:    []resource.ConfigValidator{poolValidator{}},
	Describe:      func(a engine.Attrs) string { return fmt.Sprintf("datasource %q", a.Str("resource_name")) },
	CheckPlan:     checkPoolPlan,
	Create: func(ctx context.Context, m *conn, plan engine.Attrs) error {
		return m.CreateDatasource(ctx, apm.DatasourceSpec{
			ResourceName: plan.Str("resource_name"), DatabaseResourceName: plan.Str("database_id"),
			MinPoolSize: knownInt(plan, poolMin), MaxPoolSize: knownInt(plan, poolMax),
			InitialPoolSize: knownInt(plan, poolInitial), MaxWait: knownInt(plan, poolMaxWait),
		})
	},
	Read: func(ctx context.Context, m *conn, state engine.Attrs) (*apm.Datasource, error) {
		return m.GetDatasource(ctx, state.Str("resource_name"))
	},
	Update: func(ctx context.Context, m *conn, plan, state engine.Attrs) error {
		return m.ModifyDatasource(ctx, state.Str("resource_name"), apm.DatasourceUpdate{
			MinPoolSize: knownInt(plan, poolMin), MaxPoolSize: knownInt(plan, poolMax),
			InitialPoolSize: knownInt(plan, poolInitial), MaxWait: knownInt(plan, poolMaxWait),
		})
	},
	Delete: func(ctx context.Context, m *conn, state engine.Attrs) error {
		return m.DeleteDatasource(ctx, state.Str("resource_name"))
	},
	Blockers: datasourceHolders,
}

// knownInt is a number attribute of a plan, nil when null or unknown (then the manager
// keeps or defaults it).
func knownInt(a engine.Attrs, name string) *int64 {
	if !a.Known(name) {
		return nil
	}
	n := a.Int64(name)
	return &n
}

// datasourceHolders names the WAS servers that have the datasource attached.
func datasourceHolders(ctx context.Context, m *conn, state engine.Attrs) ([]string, error) {
	servers, err := m.ListServers(ctx, apm.KindWAS)
	if err != nil {
		return nil, err
	}
	name := state.Str("resource_name")
	var names []string
	for _, s := range servers {
		detail, err := m.GetServer(ctx, s.Ref())
		if err != nil {
			if engine.IsGone(err) {
				continue
			}
			return nil, err
		}
		if slices.Contains(detail.Datasources, name) {
			names = append(names, fmt.Sprintf("WAS server %q on node %q of system %q", s.ServerID, s.NodeName, s.SystemName))
		}
	}
	slices.Sort(names)
	return names, nil
}

// poolRule is one of the manager's rules on a pool: the value of attribute a must not be
// below the value of attribute b.
type poolRule struct{ low, high string }

var poolRules = []poolRule{{poolMin, poolMax}, {poolMin, poolInitial}, {poolInitial, poolMax}}

// poolProblems checks the rules between the pool sizes given (nil: unknown or left out);
// each problem comes with the attribute to report it on.
func poolProblems(values map[string]*int64, what string) (problems []poolProblem) {
	for _, r := range poolRules {
		lo, hi := values[r.low], values[r.high]
		if lo == nil || hi == nil || *lo <= *hi {
			continue
		}
		problems = append(problems, poolProblem{attr: r.high, detail: fmt.Sprintf(
			"%s (%d) must not be greater than %s (%d)%s: the manager requires min_pool_size <= initial_pool_size <= max_pool_size.",
			r.low, *lo, r.high, *hi, what)})
	}
	return problems
}

type poolProblem struct{ attr, detail string }

// poolValidator checks the pool sizes of a datasource's configuration against each other.
type poolValidator struct{}

func (poolValidator) Description(context.Context) string {
	return "min_pool_size <= initial_pool_size <= max_pool_size"
}

func (v poolValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (poolValidator) ValidateResource(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	values := map[string]*int64{}
	for _, name := range []string{poolMin, poolMax, poolInitial} {
		var v types.Int64
		if diags := req.Config.GetAttribute(ctx, path.Root(name), &v); diags.HasError() || v.IsNull() || v.IsUnknown() {
			continue
		}
		n := v.ValueInt64()
		values[name] = &n
	}
	for _, p := range poolProblems(values, "") {
		resp.Diagnostics.AddAttributeError(path.Root(p.attr), "Invalid pool sizes", p.detail)
	}
}

// checkPoolPlan checks the rules on the planned pool sizes, which include the values a
// left-out size keeps from the state: raising min_pool_size above a recorded default of
// initial_pool_size, say, would fail at the manager.
func checkPoolPlan(_ context.Context, _ *conn, plan, prior engine.Attrs, diags *diag.Diagnostics) {
	if len(prior) == 0 {
		return // a create: the manager fills in what the configuration leaves out
	}
	values := map[string]*int64{poolMin: knownInt(plan, poolMin), poolMax: knownInt(plan, poolMax), poolInitial: knownInt(plan, poolInitial)}
	for _, p := range poolProblems(values, ", counting the values recorded in the state for sizes the configuration leaves out; set them in the configuration") {
		diags.AddAttributeError(path.Root(p.attr), "Invalid pool sizes", p.detail)
	}
}

var newDatasourceDataSource = engine.NewDataSource(dataSourceType[apm.Datasource]{
	Name:        "datasource",
	Description: "Reads one datasource by name, with its pool settings. Fails when the datasource does not exist.",
	Fields:      datasourceFields,
	Keys:        []string{"resource_name"},
	Read: func(ctx context.Context, m *conn, config engine.Attrs) (*apm.Datasource, error) {
		return m.GetDatasource(ctx, config.Str("resource_name"))
	},
})

var newDatasourcesDataSource = engine.NewListDataSource(listDataSourceType[apm.Datasource]{
	Name:            "datasources",
	Description:     "Lists every datasource of the manager, sorted by name, with its database and pool sizes.",
	ListName:        "datasources",
	ListDescription: "The datasources.",
	Fields:          datasourceFields,
	List: func(ctx context.Context, m *conn, _ engine.Attrs) ([]apm.Datasource, error) {
		all, err := m.ListDatasources(ctx)
		slices.SortFunc(all, func(a, b apm.Datasource) int { return strings.Compare(a.ResourceName, b.ResourceName) })
		return all, err
	},
})
