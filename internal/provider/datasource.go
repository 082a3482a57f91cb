package provider

import (
	"context"
	"fmt"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// The pool attributes of a datasource.
const (
	poolMin     = "min_pool_size"
	poolMax     = "max_pool_size"
	poolInitial = "initial_pool_size"
	poolMaxWait = "max_wait"
)

var datasourceFields = []engine.Field[apm.Datasource]{
	engine.StringField(attrID, "The datasource's `resource_name`, which never changes.",
		func(d *apm.Datasource) string { return d.ResourceName }).DerivedFrom(engine.Joined(attrResourceName)),
	engine.StringField(attrResourceName, "Name of the datasource: 1 to 64 letters, digits, `.`, `-` or `_`.",
		func(d *apm.Datasource) string { return d.ResourceName }).Replacing().Validate(resourceNameValidators()...),
	engine.StringField(attrDatabaseID, "The `id` of the database the pool connects to, such as `apm_database.example.id` (the database's `resource_name`).",
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
		"When it is replaced under the same name (a new database password replaces its database, and with it the datasource), the WAS servers " +
		"that have it attached without Terraform replacing the attachment (see `apm_was_datasource`) are detached for the replacement and " +
		"get the new datasource attached in the same apply. Deleting a datasource that is not replaced waits while WAS servers still have it " +
		"attached, then names them.",
	Fields:        datasourceFields,
	ImportID:      resourceIdentity("orders-ds"),
	REST:          &engine.RESTObject{Path: "/rest/resource/datasources/{resourceName}", ImportID: "{resourceName}"},
	DeleteTimeout: engine.DefaultDeleteTimeout,
	Validators:    []resource.ConfigValidator{poolValidator{}},
	Describe:      func(a engine.Attrs) string { return fmt.Sprintf("datasource %q", a.Str(attrResourceName)) },
	CheckPlan:     checkPoolPlan,
	References:    []reference{refersTo(attrDatabaseID, databaseParent)},
	Create: func(ctx context.Context, c *conn, plan engine.Attrs) error {
		return c.CreateDatasource(ctx, apm.DatasourceSpec{
			ResourceName: plan.Str(attrResourceName), DatabaseResourceName: plan.Str(attrDatabaseID),
			MinPoolSize: knownInt(plan, poolMin), MaxPoolSize: knownInt(plan, poolMax),
			InitialPoolSize: knownInt(plan, poolInitial), MaxWait: knownInt(plan, poolMaxWait),
		})
	},
	Read: func(ctx context.Context, c *conn, state engine.Attrs) (*apm.Datasource, error) {
		return c.GetDatasource(ctx, state.Str(attrResourceName))
	},
	Update: func(ctx context.Context, c *conn, plan, state engine.Attrs) error {
		return c.ModifyDatasource(ctx, state.Str(attrResourceName), apm.DatasourceUpdate{
			MinPoolSize: knownInt(plan, poolMin), MaxPoolSize: knownInt(plan, poolMax),
			InitialPoolSize: knownInt(plan, poolInitial), MaxWait: knownInt(plan, poolMaxWait),
		})
	},
	Delete: func(ctx context.Context, c *conn, state engine.Attrs) error {
		err := c.DeleteDatasource(ctx, state.Str(attrResourceName))
		// Deleted by its own resource: a replacement of its database must not create it
		// again (see aside.go for why after the delete).
		c.aside.forgetDatasource(state.Str(attrResourceName))
		return err
	},
	Blockers: datasourceHolders,
	SetAside: func(ctx context.Context, c *conn, state engine.Attrs) ([]string, error) {
		return detachForReplacement(ctx, c, state.Str(attrResourceName))
	},
	Restore: func(ctx context.Context, c *conn, a engine.Attrs) error {
		return attachAgain(ctx, c, a.Str(attrResourceName))
	},
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
func datasourceHolders(ctx context.Context, c *conn, state engine.Attrs) ([]engine.Blocker, error) {
	name := state.Str(attrResourceName)
	servers, err := wasServersHolding(ctx, c, name)
	if err != nil {
		return nil, err
	}
	held := make([]engine.Blocker, 0, len(servers))
	for _, s := range servers {
		serverID, err := c.serverID(ctx, s.SystemName, s.NodeName, s.ServerID)
		if err != nil {
			return nil, err
		}
		held = append(held, engine.HeldBy(describeWAS(s.Ref()), serverID+"/"+name, "apm_was_datasource"))
	}
	return held, nil
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

func (poolValidator) ValidateResource(_ context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	config, err := engine.AttrsOf(req.Config.Raw)
	if err != nil {
		return
	}
	values := map[string]*int64{poolMin: knownInt(config, poolMin), poolMax: knownInt(config, poolMax), poolInitial: knownInt(config, poolInitial)}
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
	Description: "Reads one datasource by name, with its pool settings.",
	Fields:      datasourceFields,
	Keys:        []string{attrResourceName},
	Read: func(ctx context.Context, c *conn, config engine.Attrs) (*apm.Datasource, error) {
		return c.GetDatasource(ctx, config.Str(attrResourceName))
	},
})

var newDatasourcesDataSource = engine.NewListDataSource(listDataSourceType[apm.Datasource]{
	Name:            "datasources",
	Description:     "Lists every datasource of the manager, sorted by name, with its database and pool sizes.",
	ListName:        "datasources",
	ListDescription: "The datasources.",
	Fields:          datasourceFields,
	SortBy:          func(d *apm.Datasource) string { return d.ResourceName },
	List: func(ctx context.Context, c *conn, _ engine.Attrs) ([]apm.Datasource, error) {
		return c.ListDatasources(ctx)
	},
	Imports: datasourceType.Target(),
})
