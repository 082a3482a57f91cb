package provider

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
)

// Resources of the manager (spec 4.5): databases, and datasources (connection pools) on
// them. Both are identified by their resourceName, which never changes, so it is their id.
// A database has no modify endpoint (api/decisions.md): every change replaces it. A
// datasource's pool settings are modified in place, on the singular path.

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
	return importID{Parts: []idPart{{Attr: attrResourceName, Form: "<resource_name>"}}, Example: example}
}

var databasePassword = engine.Secret{
	Name: "password", Title: "password", What: "the database user's password",
	Change:   "The manager cannot change a database.",
	Replaces: true,
	Rules:    []validator.String{stringvalidator.LengthAtLeast(1)},
}

var databaseFields = append([]engine.Field[apm.Database]{
	engine.StringField(attrID, "The database's `resource_name`, which never changes: refer to the database by it, as in `database_id = apm_database.example.id`.",
		func(d *apm.Database) string { return d.ResourceName }).DerivedFrom(engine.Joined(attrResourceName)),
	engine.StringField(attrResourceName, "Name of the database resource: 1 to 64 letters, digits, `.`, `-` or `_`.",
		func(d *apm.Database) string { return d.ResourceName }).Replacing().Validate(resourceNameValidators()...),
	engine.StringField(attrDatabaseType, "Type of the database, one of `"+strings.Join(databaseTypes, "`, `")+"`. "+
		"The manager takes any case; write the spelling shown here.",
		func(d *apm.Database) string { return d.DatabaseType }).Replacing().
		Validate(stringvalidator.OneOf(databaseTypes...)).SameString(strings.EqualFold),
	engine.StringField(attrHost, "Host name or IP address of the database server.",
		func(d *apm.Database) string { return d.Host }).Replacing().Validate(hostValidators()...).SameString(sameHost),
	engine.Int64Field(attrPort, "Port of the database server, 1 to 65535.",
		func(d *apm.Database) int64 { return d.Port }).Replacing().ValidateInt64(portValidators()...),
	engine.StringField(attrDatabaseName, "Name of the database on the server.",
		func(d *apm.Database) string { return d.DatabaseName }).Replacing().Validate(stringvalidator.LengthAtLeast(1)),
	engine.StringField(attrUserName, "Name of the database user the datasources connect as.",
		func(d *apm.Database) string { return d.UserName }).In(engine.InResource | engine.InDetail).Replacing().Validate(stringvalidator.LengthAtLeast(1)),
}, engine.SecretFields[apm.Database](databasePassword)...)

// sameHost reports whether two spellings name the same host: one IP address, or one DNS
// name in another case.
func sameHost(a, b string) bool { return strings.EqualFold(a, b) || sameIP(a, b) }

func describeDatabase(a engine.Attrs) string {
	return fmt.Sprintf("database %q", a.Str(attrResourceName))
}

var databaseType = resourceType[apm.Database]{
	Name: "database",
	Description: "A database resource: the connection details of a database server that datasources connect to. " +
		"The manager has no operation that changes a database, so changing any attribute replaces it, a new password included " +
		"(see the guide \"Rotating passwords\"). Its datasources cannot outlive it: refer to the database by `id`, as in " +
		"`database_id = apm_database.example.id`, and Terraform replaces them with it, which the plan shows. Any other datasource on it " +
		"(one that names it by a literal or by `resource_name`, or one made outside this configuration) is deleted for the replacement and " +
		"created again as it was, with its WAS server attachments, in the same apply, with a warning that names it. " +
		"The manager never reports the password; " +
		"give it as the write-only `password_wo` where the CLI supports it (Terraform 1.11 or later, OpenTofu), which keeps it out of plan and state. " +
		"Deleting a database that is not replaced waits while datasources still use it, then names them.",
	Fields:        databaseFields,
	ImportID:      resourceIdentity("orders-db"),
	REST:          &engine.RESTObject{Path: "/rest/resource/databases/{resourceName}", ImportID: "{resourceName}"},
	DeleteTimeout: engine.DefaultDeleteTimeout,
	Validators:    databasePassword.Validators(describeDatabase),
	Describe:      describeDatabase,
	Create: func(ctx context.Context, c *conn, plan engine.Attrs) error {
		return c.CreateDatabase(ctx, apm.DatabaseSpec{
			ResourceName: plan.Str(attrResourceName), DatabaseType: plan.Str(attrDatabaseType),
			Host: plan.Str(attrHost), Port: plan.Int64(attrPort), DatabaseName: plan.Str(attrDatabaseName),
			UserName: plan.Str(attrUserName), Password: databasePassword.Value(plan),
		})
	},
	Read: func(ctx context.Context, c *conn, state engine.Attrs) (*apm.Database, error) {
		return c.GetDatabase(ctx, state.Str(attrResourceName))
	},
	Update: func(context.Context, *conn, engine.Attrs, engine.Attrs) error {
		// Every managed attribute replaces the database; only recorded inputs (the
		// password version right after an import) reach here, and the engine sends nothing for those.
		return nil
	},
	Delete: func(ctx context.Context, c *conn, state engine.Attrs) error {
		return c.DeleteDatabase(ctx, state.Str(attrResourceName))
	},
	Blockers: func(ctx context.Context, c *conn, state engine.Attrs) ([]engine.Blocker, error) {
		all, err := c.ListDatasources(ctx)
		if err != nil {
			return nil, err
		}
		var held []engine.Blocker
		for _, ds := range all {
			if ds.DatabaseResourceName == state.Str(attrResourceName) {
				held = append(held, engine.HeldBy(fmt.Sprintf("datasource %q", ds.ResourceName), ds.ResourceName, "apm_datasource"))
			}
		}
		slices.SortFunc(held, func(a, b engine.Blocker) int { return strings.Compare(a.What, b.What) })
		return held, nil
	},
	SetAside: func(ctx context.Context, c *conn, state engine.Attrs) ([]string, error) {
		return deleteDatasourcesForReplacement(ctx, c, state.Str(attrResourceName))
	},
	Restore: func(ctx context.Context, c *conn, a engine.Attrs) error {
		return createDatasourcesAgain(ctx, c, a.Str(attrResourceName))
	},
}

var newDatabaseDataSource = engine.NewDataSource(dataSourceType[apm.Database]{
	Name:        "database",
	Description: "Reads one database resource by name. The manager never reports the password.",
	Fields:      databaseFields,
	Keys:        []string{attrResourceName},
	Read: func(ctx context.Context, c *conn, config engine.Attrs) (*apm.Database, error) {
		return c.GetDatabase(ctx, config.Str(attrResourceName))
	},
})

var newDatabasesDataSource = engine.NewListDataSource(listDataSourceType[apm.Database]{
	Name:            "databases",
	Description:     "Lists every database resource of the manager, sorted by name. The manager never reports passwords, nor in its list the user names.",
	ListName:        "databases",
	ListDescription: "The databases.",
	Fields:          databaseFields,
	SortBy:          func(d *apm.Database) string { return d.ResourceName },
	List: func(ctx context.Context, c *conn, _ engine.Attrs) ([]apm.Database, error) {
		return c.ListDatabases(ctx)
	},
	Imports: databaseType.Target(),
})
