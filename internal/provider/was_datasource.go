package provider

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
)

// wasDatasource is the attachment of the datasource Name to the WAS server ServerID.
type wasDatasource struct {
	ServerID, Name string
}

var wasDatasourceNamePattern = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)

var wasDatasourceFields = []engine.Field[wasDatasource]{
	engine.StringField(attrID, "`<was_server_id>/<datasource_name>`.", func(d *wasDatasource) string { return d.ServerID + "/" + d.Name }),
	wasServerRefField(func(d *wasDatasource) string { return d.ServerID }),
	engine.StringField(attrDatasourceName, "The `resourceName` of the datasource to attach (a datasource resource of the manager): 1 to 64 letters, digits, `.`, `-` or `_`.",
		func(d *wasDatasource) string { return d.Name }).Replacing().
		Validate(stringvalidator.RegexMatches(wasDatasourceNamePattern, "must be 1 to 64 characters, each a letter, a digit, '.', '-' or '_'")),
}

var wasDatasourceType = resourceType[wasDatasource]{
	Noun: "datasource attachment",
	Name: "was_datasource",
	// A terse manager's server detail leaves out the attached datasources, and the read
	// then keeps what the plan says rather than call the attachment gone, so plan would
	// take every new attachment for one that exists already: the create's 409 tells at
	// apply instead.
	NoLookupAtPlan: true,
	Description: "A datasource attached to a WAS server, which lets the server's applications use its connection pool. " +
		"Creating it attaches the datasource (which must exist in the manager); destroying it detaches it and leaves the datasource itself alone. " +
		"Name a datasource of the same configuration by `apm_datasource.example.id`: when the datasource is replaced (for a new database " +
		"password), Terraform then replaces the attachment with it, which the plan shows. An attachment that names it otherwise (a literal, " +
		"`resource_name`) is left alone by Terraform; the replacement of the datasource detaches it and attaches the new datasource again " +
		"in the same apply.",
	Fields:     wasDatasourceFields,
	References: []reference{refersTo(attrWASServerID, wasServerParent), refersTo(attrDatasourceName, datasourceParent)},
	ImportID: importID{
		Parts:   []idPart{serverRefPart(attrWASServerID), {Attr: attrDatasourceName, Form: "<datasource_name>"}},
		Example: "shop/app-01/was-1/orders-ds",
	},
	Describe: func(a engine.Attrs) string {
		return fmt.Sprintf("datasource %q on %s", a.Str(attrDatasourceName), wasPartServer(a))
	},
	Create: func(ctx context.Context, c *conn, plan engine.Attrs) error {
		return c.onServerRef(ctx, apm.KindWAS, plan.Str(attrWASServerID), func(ref apm.ServerRef) error {
			return c.AttachDatasource(ctx, ref, plan.Str(attrDatasourceName))
		})
	},
	Read:   readWASDatasource,
	Update: noUpdate,
	Delete: deleteWASDatasource,
}

// readWASDatasource reads the server's detail: a datasource missing from a reported list
// is detached (gone); a detail without the list keeps the state.
func readWASDatasource(ctx context.Context, c *conn, a engine.Attrs) (*wasDatasource, error) {
	d := &wasDatasource{ServerID: a.Str(attrWASServerID), Name: a.Str(attrDatasourceName)}
	srv, err := getWASPartServer(ctx, c, d.ServerID)
	if err != nil {
		return nil, err
	}
	if srv.Reported.Datasources && !slices.Contains(srv.Datasources, d.Name) {
		return nil, fmt.Errorf("datasource %q is not attached to %s: %w", d.Name, wasPartServer(a), engine.ErrGone)
	}
	return d, nil
}

// deleteWASDatasource detaches the datasource. The manager answers a datasource that is
// not attached with 404 "Datasource not attached: <name>", which does not have the shape
// that says "does not exist" (api/decisions.md): the server is read to find out.
func deleteWASDatasource(ctx context.Context, c *conn, state engine.Attrs) error {
	name := state.Str(attrDatasourceName)
	err := c.onServerRef(ctx, apm.KindWAS, state.Str(attrWASServerID), func(ref apm.ServerRef) error {
		return c.DetachDatasource(ctx, ref, name)
	})
	// Detached by its own resource: a replacement of the datasource, which may have
	// detached it first, must not attach it again (see aside.go for why after the detach).
	c.aside.forgetAttachment(name, state.Str(attrWASServerID))
	if err == nil || engine.IsGone(err) || !apm.IsNotFoundAnswer(err) {
		return err
	}
	srv, rerr := getWASPartServer(ctx, c, state.Str(attrWASServerID))
	return detachedAlready(err, srv, rerr, name)
}

// detachedAlready decides a detach that got 404 (err), from a read of the server that
// followed (srv, or readErr): nil when the datasource is no longer attached.
//   - the server is gone: so is the attachment;
//   - the server reports its datasources: attached or not, as the list says;
//   - it does not (a terse manager): the server's path works, so the 404 is the manager's
//     own, and a NOT_FOUND that names the datasource says it is not attached.
func detachedAlready(err error, srv *apm.Server, readErr error, name string) error {
	switch {
	case readErr != nil && engine.IsGone(readErr):
		return nil
	case readErr != nil:
		return err
	case srv.Reported.Datasources:
		if slices.Contains(srv.Datasources, name) {
			return err
		}
		return nil
	}
	var apiErr *apm.Error
	if errors.As(err, &apiErr) && strings.EqualFold(apiErr.Code, "NOT_FOUND") &&
		strings.HasSuffix(strings.TrimSpace(apiErr.Message), ": "+name) {
		return nil
	}
	return err
}

// listWASDatasources is the datasources attached to the WAS server whose id is serverID:
// one read of its detail.
func listWASDatasources(ctx context.Context, c *conn, serverID string) ([]wasDatasource, error) {
	srv, err := getWASPartServer(ctx, c, serverID)
	if err != nil {
		return nil, err
	}
	if !srv.Reported.Datasources {
		return nil, notReportedError(wasServerNamed(serverID), "attached datasources", "apm_was_datasource", serverID+"/orders-ds")
	}
	out := make([]wasDatasource, 0, len(srv.Datasources))
	for _, name := range srv.Datasources {
		out = append(out, wasDatasource{ServerID: serverID, Name: name})
	}
	return out, nil
}

var newWASDatasourcesDataSource = engine.NewListDataSource(listDataSourceType[wasDatasource]{
	Name: "was_datasources",
	Description: "Lists the datasources attached to one WAS server, sorted by name, each with the ID to import its attachment as `apm_was_datasource`. " +
		"A server without attached datasources lists none.",
	ListName:        "attachments",
	ListDescription: "The datasources attached to the server.",
	Fields:          wasDatasourceFields,
	Filters:         wasServerFilter("attached datasources"),
	SortBy:          func(d *wasDatasource) string { return d.Name },
	List: func(ctx context.Context, c *conn, config engine.Attrs) ([]wasDatasource, error) {
		return listWASDatasources(ctx, c, config.Str(attrWASServerID))
	},
	Imports: wasDatasourceType.Target(),
})
