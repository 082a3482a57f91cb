package provider

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/resourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
)

// The parts of a WAS server: its session clustering, the datasources attached to it and
// the applications deployed on it. Each is a resource of its own, so that teams can split
// ownership (the platform team owns the server, an application team its deployments).
// Each refers to its server by the server's id, <system_id>/<node>/<server_id>, which a
// rename of the system leaves alone; the manager addresses them under the server's path.

func wasPartResources() []func() resource.Resource {
	return []func() resource.Resource{
		engine.NewResource(wasSessionClusterType),
		engine.NewResource(wasDatasourceType),
		engine.NewResource(wasApplicationType),
	}
}

func wasPartDataSources() []func() datasource.DataSource {
	return []func() datasource.DataSource{newWASApplicationsDataSource}
}

// wasServerRefField is the was_server_id of a part: its server's id.
func wasServerRefField[T any](get func(*T) string) engine.Field[T] {
	return engine.StringField("was_server_id", "The `id` of the WAS server, such as `apm_was_server.example.id` (`<system_id>/<node>/<server_id>`). "+
		"It stays the same when the system is renamed.", get).
		Replacing().Validate(serverRefValidator{kind: "was"})
}

// wasPartServer describes the server of a part in diagnostics: `WAS server "was-1" on
// node "app-01"`.
func wasPartServer(a engine.Attrs) string {
	nodeRef, serverID, _ := splitServerRef(a.Str("was_server_id"))
	_, node, _ := splitNodeRef(nodeRef)
	return fmt.Sprintf("WAS server %q on node %q", serverID, node)
}

// getWASPartServer reads the detail of the WAS server whose id is serverRef.
func getWASPartServer(ctx context.Context, m *conn, serverRef string) (*apm.Server, error) {
	var srv *apm.Server
	err := m.onServerRef(ctx, apm.KindWAS, serverRef, func(ref apm.ServerRef) (err error) {
		srv, err = m.GetServer(ctx, ref)
		return err
	})
	return srv, err
}

// noUpdate is the update of a part whose every input replaces it: the engine calls it
// only for what it records without sending (timeouts).
func noUpdate(context.Context, *conn, engine.Attrs, engine.Attrs) error { return nil }

// ---- session clustering ----

// wasSessionCluster is the session clustering of the WAS server ServerID.
type wasSessionCluster struct {
	ServerID string // <system_id>/<node>/<server_id>
	apm.SessionCluster
	// reported is false when the manager's detail left sessionCluster out (a terse
	// manager, api/decisions.md rule 2): state keeps what was applied.
	reported bool
}

func clusterReported(c *wasSessionCluster) bool { return c.reported }

// hostValidators accept a host name or an IP address.
func hostValidators() []validator.String {
	return []validator.String{
		stringvalidator.LengthBetween(1, 253),
		stringvalidator.RegexMatches(regexp.MustCompile(`^[A-Za-z0-9._:-]+$`), "must be a host name or an IP address"),
	}
}

var wasSessionClusterFields = []engine.Field[wasSessionCluster]{
	engine.StringField("id", "The WAS server's id, `<system_id>/<node>/<server_id>`: a server has at most one session clustering.",
		func(c *wasSessionCluster) string { return c.ServerID }),
	wasServerRefField(func(c *wasSessionCluster) string { return c.ServerID }),
	engine.StringField("primary_host", "Host name or IP address of the primary session server.",
		func(c *wasSessionCluster) string { return c.PrimaryHost }).Input().Validate(hostValidators()...).ReportedWhen(clusterReported),
	engine.Int64Field("primary_port", "Port of the primary session server, 1 to 65535.",
		func(c *wasSessionCluster) int64 { return c.PrimaryPort }).Input().ValidateInt64(portValidators()...).ReportedWhen(clusterReported),
	// The manager replaces the whole set-up on every write, so a secondary server left out
	// of the configuration means none: unlike an optional input of the engine (unmanaged
	// when left out), a secondary server added outside Terraform shows as drift.
	engine.CustomField("secondary_host", rschema.StringAttribute{
		MarkdownDescription: "Host name or IP address of the secondary session server; set it together with `secondary_port`. " +
			"Left out, the clustering has no secondary server (one added outside Terraform shows in the next plan). Updated in place.",
		Optional: true, Validators: hostValidators(),
	}, tftypes.String, func(c *wasSessionCluster) tftypes.Value {
		if c.SecondaryHost == "" {
			return tftypes.NewValue(tftypes.String, nil)
		}
		return tftypes.NewValue(tftypes.String, c.SecondaryHost)
	}).ReportedWhen(clusterReported),
	engine.CustomField("secondary_port", rschema.Int64Attribute{
		MarkdownDescription: "Port of the secondary session server, 1 to 65535; set it together with `secondary_host`. Updated in place.",
		Optional:            true, Validators: portValidators(),
	}, tftypes.Number, func(c *wasSessionCluster) tftypes.Value {
		if c.SecondaryPort == 0 {
			return tftypes.NewValue(tftypes.Number, nil)
		}
		return engine.Int64Value(c.SecondaryPort)
	}).ReportedWhen(clusterReported),
}

var wasSessionClusterType = resourceType[wasSessionCluster]{
	Noun:             "session clustering",
	IdempotentCreate: true,
	Name:             "was_session_cluster",
	Description: "The session clustering of a WAS server: the session servers that hold its HTTP sessions, so that another server of the cluster can take them over. " +
		"A server has at most one; every change is applied in place, as the manager replaces the whole set-up. " +
		"Creating it where the server has session clustering already fails (import it instead); destroying it removes the session clustering.",
	Fields: wasSessionClusterFields,
	ImportID: importID{
		Parts:   []idPart{serverRefPart("was_server_id")},
		Example: "shop/app-01/was-1",
	},
	Describe: func(a engine.Attrs) string { return "session clustering of " + wasPartServer(a) },
	Validators: []resource.ConfigValidator{
		resourcevalidator.RequiredTogether(path.MatchRoot("secondary_host"), path.MatchRoot("secondary_port")),
	},
	Create: createWASSessionCluster,
	Read:   readWASSessionCluster,
	Update: func(ctx context.Context, m *conn, plan, _ engine.Attrs) error {
		return m.onServerRef(ctx, apm.KindWAS, plan.Str("was_server_id"), func(ref apm.ServerRef) error {
			return m.SetSessionCluster(ctx, ref, sessionClusterOf(plan))
		})
	},
	// A server without session clustering answers 404 "Session clustering not found:
	// <server>", which means gone: done.
	Delete: func(ctx context.Context, m *conn, state engine.Attrs) error {
		return m.onServerRef(ctx, apm.KindWAS, state.Str("was_server_id"), func(ref apm.ServerRef) error {
			return m.RemoveSessionCluster(ctx, ref)
		})
	},
}

func sessionClusterOf(a engine.Attrs) apm.SessionCluster {
	return apm.SessionCluster{
		PrimaryHost: a.Str("primary_host"), PrimaryPort: a.Int64("primary_port"),
		SecondaryHost: a.Str("secondary_host"), SecondaryPort: a.Int64("secondary_port"),
	}
}

// createWASSessionCluster sets the session clustering up. The manager's POST replaces
// whatever the server has, so that a create would silently take over a set-up that
// someone else made: the server is read first, and one that has session clustering is a
// conflict, for which the engine offers import (or adopts it with adopt_existing).
func createWASSessionCluster(ctx context.Context, m *conn, plan engine.Attrs) error {
	return m.onServerRef(ctx, apm.KindWAS, plan.Str("was_server_id"), func(ref apm.ServerRef) error {
		srv, err := m.GetServer(ctx, ref)
		if err != nil {
			return err
		}
		if srv.SessionCluster != nil {
			return clusterExistsError{ref: ref, cluster: *srv.SessionCluster}
		}
		return m.SetSessionCluster(ctx, ref, sessionClusterOf(plan))
	})
}

// clusterExistsError is a create of session clustering that found one there already. It
// is a conflict (apm.IsConflict) like the manager's own 409s, so that the engine treats it
// as an object that exists already.
type clusterExistsError struct {
	ref     apm.ServerRef
	cluster apm.SessionCluster
}

func (e clusterExistsError) Error() string {
	return fmt.Sprintf("WAS server %q on node %q of system %q already has session clustering (primary %s:%d), and setting it up would replace it; nothing was sent",
		e.ref.ServerID, e.ref.NodeName, e.ref.SystemName, e.cluster.PrimaryHost, e.cluster.PrimaryPort)
}

func (e clusterExistsError) Unwrap() error {
	return &apm.Error{StatusCode: http.StatusConflict, Code: "CONFLICT", Message: e.Error()}
}

// readWASSessionCluster reads the server's detail: a server that reports no session
// clustering has none (gone); one that does not report the field keeps the state.
func readWASSessionCluster(ctx context.Context, m *conn, a engine.Attrs) (*wasSessionCluster, error) {
	id := a.Str("was_server_id")
	srv, err := getWASPartServer(ctx, m, id)
	if err != nil {
		return nil, err
	}
	c := &wasSessionCluster{ServerID: id, reported: srv.Reported.SessionCluster}
	if !c.reported {
		return c, nil
	}
	if srv.SessionCluster == nil {
		return nil, fmt.Errorf("%s has no session clustering: %w", wasPartServer(a), engine.ErrGone)
	}
	c.SessionCluster = *srv.SessionCluster
	return c, nil
}

// ---- attached datasources ----

// wasDatasource is the attachment of the datasource Name to the WAS server ServerID.
type wasDatasource struct {
	ServerID, Name string
}

var wasDatasourceNamePattern = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)

var wasDatasourceFields = []engine.Field[wasDatasource]{
	engine.StringField("id", "`<was_server_id>/<datasource_name>`.", func(d *wasDatasource) string { return d.ServerID + "/" + d.Name }),
	wasServerRefField(func(d *wasDatasource) string { return d.ServerID }),
	engine.StringField("datasource_name", "The `resourceName` of the datasource to attach (a datasource resource of the manager): 1 to 64 letters, digits, `.`, `-` or `_`.",
		func(d *wasDatasource) string { return d.Name }).Replacing().
		Validate(stringvalidator.RegexMatches(wasDatasourceNamePattern, "must be 1 to 64 characters, each a letter, a digit, '.', '-' or '_'")),
}

var wasDatasourceType = resourceType[wasDatasource]{
	Noun: "datasource attachment",
	Name: "was_datasource",
	Description: "A datasource attached to a WAS server, which lets the server's applications use its connection pool. " +
		"Creating it attaches the datasource (which must exist in the manager); destroying it detaches it and leaves the datasource itself alone.",
	Fields: wasDatasourceFields,
	ImportID: importID{
		Parts:   []idPart{serverRefPart("was_server_id"), {Attr: "datasource_name", Form: "<datasource_name>"}},
		Example: "shop/app-01/was-1/orders-ds",
	},
	Describe: func(a engine.Attrs) string {
		return fmt.Sprintf("datasource %q on %s", a.Str("datasource_name"), wasPartServer(a))
	},
	Create: func(ctx context.Context, m *conn, plan engine.Attrs) error {
		return m.onServerRef(ctx, apm.KindWAS, plan.Str("was_server_id"), func(ref apm.ServerRef) error {
			return m.AttachDatasource(ctx, ref, plan.Str("datasource_name"))
		})
	},
	Read:   readWASDatasource,
	Update: noUpdate,
	Delete: deleteWASDatasource,
}

// readWASDatasource reads the server's detail: a datasource missing from a reported list
// is detached (gone); a detail without the list keeps the state.
func readWASDatasource(ctx context.Context, m *conn, a engine.Attrs) (*wasDatasource, error) {
	d := &wasDatasource{ServerID: a.Str("was_server_id"), Name: a.Str("datasource_name")}
	srv, err := getWASPartServer(ctx, m, d.ServerID)
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
func deleteWASDatasource(ctx context.Context, m *conn, state engine.Attrs) error {
	name := state.Str("datasource_name")
	err := m.onServerRef(ctx, apm.KindWAS, state.Str("was_server_id"), func(ref apm.ServerRef) error {
		return m.DetachDatasource(ctx, ref, name)
	})
	if err == nil || engine.IsGone(err) || !apm.HasStatus(err, http.StatusNotFound) {
		return err
	}
	srv, rerr := getWASPartServer(ctx, m, state.Str("was_server_id"))
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

// ---- deployed applications ----

// wasApplication is the application deployed on the WAS server ServerID at ContextPath.
// Its status and session count are observations (data source apm_was_applications): the
// resource manages only that it is deployed.
type wasApplication struct {
	ServerID, ContextPath string
}

var contextPathPattern = regexp.MustCompile(`^/[^\s?#]*$`)

var wasApplicationFields = []engine.Field[wasApplication]{
	engine.StringField("id", "`<was_server_id><context_path>`, such as `SYS-0001/app-01/was-1/shop`.",
		func(a *wasApplication) string { return a.ServerID + a.ContextPath }),
	wasServerRefField(func(a *wasApplication) string { return a.ServerID }),
	engine.StringField("context_path", "Context path the application is served under, starting with `/`, such as `/shop` (`/` for the root context).",
		func(a *wasApplication) string { return a.ContextPath }).Replacing().
		Validate(stringvalidator.RegexMatches(contextPathPattern, "must start with / and contain no white space, '?' or '#'")),
	engine.InputField[wasApplication]("source_path", "Absolute path of the application archive (such as a `.war` file) on the server's node. "+
		"Changing it deploys the new archive: the application is undeployed and deployed again. "+
		"The manager does not report it: after an import, setting it is only recorded.", tftypes.String).
		Replacing().Validate(absolutePathValidator()),
	engine.InputField[wasApplication]("application_name", "Name of the application in the manager. Defaults to the manager's choice "+
		"(in apmsim: the context path without slashes, `ROOT` for `/`). The manager does not report it: after an import, setting it is only recorded.", tftypes.String).
		OptionalInput().Replacing().Validate(stringvalidator.LengthAtLeast(1)),
}

// contextPathPart is the last part of an application's import ID: the context path, with
// or without its leading slash, so that shop/app-01/was-1/shop and shop/app-01/was-1//shop
// both name /shop (and the id, <was_server_id><context_path>, imports as it is).
var contextPathPart = idPart{
	Attr: "context_path", Form: "<context_path>", Rest: true,
	Accepts: "the context path with or without its leading slash (the root context: a lone /)",
	Resolve: func(_ context.Context, _ *conn, raw string) (string, error) {
		return "/" + strings.TrimPrefix(raw, "/"), nil
	},
}

var wasApplicationType = resourceType[wasApplication]{
	Noun: "application",
	Name: "was_application",
	Description: "An application deployed on a WAS server, served under its context path. Creating it deploys the archive at `source_path` on the server's node; " +
		"destroying it undeploys the application. The deployment is managed, the application's status and session count are not " +
		"(data source `apm_was_applications` reads them): an application undeployed outside Terraform is deployed again by the next apply.",
	Fields: wasApplicationFields,
	ImportID: importID{
		Parts:   []idPart{serverRefPart("was_server_id"), contextPathPart},
		Example: "shop/app-01/was-1/shop",
	},
	Describe: func(a engine.Attrs) string {
		return fmt.Sprintf("application %q on %s", a.Str("context_path"), wasPartServer(a))
	},
	Create: func(ctx context.Context, m *conn, plan engine.Attrs) error {
		return m.onServerRef(ctx, apm.KindWAS, plan.Str("was_server_id"), func(ref apm.ServerRef) error {
			return m.DeployApplication(ctx, ref, apm.Deployment{
				ContextPath: plan.Str("context_path"), SourcePath: plan.Str("source_path"), ApplicationName: plan.Str("application_name"),
			})
		})
	},
	Read:   readWASApplication,
	Update: noUpdate,
	Delete: deleteWASApplication,
}

// readWASApplication looks the context path up in the server's application statuses.
func readWASApplication(ctx context.Context, m *conn, a engine.Attrs) (*wasApplication, error) {
	app := &wasApplication{ServerID: a.Str("was_server_id"), ContextPath: a.Str("context_path")}
	deployed, err := wasApplicationDeployed(ctx, m, app.ServerID, app.ContextPath)
	if err != nil {
		return nil, err
	}
	if !deployed {
		return nil, fmt.Errorf("no application is deployed at %q on %s: %w", app.ContextPath, wasPartServer(a), engine.ErrGone)
	}
	return app, nil
}

func wasApplicationDeployed(ctx context.Context, m *conn, serverRef, contextPath string) (bool, error) {
	var apps []apm.ApplicationStatus
	err := m.onServerRef(ctx, apm.KindWAS, serverRef, func(ref apm.ServerRef) (err error) {
		apps, err = m.ApplicationStatuses(ctx, ref)
		return err
	})
	return slices.ContainsFunc(apps, func(s apm.ApplicationStatus) bool { return s.ContextPath == contextPath }), err
}

// deleteWASApplication undeploys the application. "Application not found: <path>" means
// gone; any other 404 (the server's own, say) is checked against the statuses.
func deleteWASApplication(ctx context.Context, m *conn, state engine.Attrs) error {
	serverRef, contextPath := state.Str("was_server_id"), state.Str("context_path")
	err := m.onServerRef(ctx, apm.KindWAS, serverRef, func(ref apm.ServerRef) error {
		return m.UndeployApplication(ctx, ref, contextPath)
	})
	if err == nil || engine.IsGone(err) || !apm.HasStatus(err, http.StatusNotFound) {
		return err
	}
	deployed, rerr := wasApplicationDeployed(ctx, m, serverRef, contextPath)
	switch {
	case rerr != nil && engine.IsGone(rerr), rerr == nil && !deployed:
		return nil
	default:
		return err
	}
}

// ---- data source ----

var wasApplicationStatusFields = []engine.Field[apm.ApplicationStatus]{
	engine.StringField("context_path", "Context path of the application, such as `/shop`.", func(s *apm.ApplicationStatus) string { return s.ContextPath }),
	engine.StringField("status", "Status of the application as the manager reports it, for example `running` or `stopped`.",
		func(s *apm.ApplicationStatus) string { return s.Status }),
	engine.Int64Field("sessions", "Number of active HTTP sessions of the application.", func(s *apm.ApplicationStatus) int64 { return s.Sessions }),
}

var newWASApplicationsDataSource = engine.NewListDataSource(listDataSourceType[apm.ApplicationStatus]{
	Name:            "was_applications",
	Description:     "Lists the applications deployed on one WAS server, with their status and session count, sorted by context path. A server that does not exist is an error.",
	ListName:        "applications",
	ListDescription: "The applications deployed on the server.",
	Fields:          wasApplicationStatusFields,
	Filters: map[string]dschema.Attribute{
		"system_name": dschema.StringAttribute{MarkdownDescription: "Name of the server's system.", Required: true, Validators: systemNameValidators()},
		"node_name":   dschema.StringAttribute{MarkdownDescription: "Name of the server's node.", Required: true, Validators: nodeNameValidators()},
		"server_id":   dschema.StringAttribute{MarkdownDescription: "The manager's `serverId` of the WAS server.", Required: true, Validators: serverIDValidators()},
	},
	List: listWASApplications,
})

func listWASApplications(ctx context.Context, m *conn, config engine.Attrs) ([]apm.ApplicationStatus, error) {
	ref := apm.ServerRef{Kind: apm.KindWAS, ServerID: config.Str("server_id"), NodeName: config.Str("node_name"), SystemName: config.Str("system_name")}
	apps, err := m.ApplicationStatuses(ctx, ref)
	if engine.IsGone(err) {
		return nil, fmt.Errorf("no WAS server %q on node %q of system %q (%v): %w", ref.ServerID, ref.NodeName, ref.SystemName, err, engine.ErrGone)
	}
	if err != nil {
		return nil, err
	}
	slices.SortFunc(apps, func(a, b apm.ApplicationStatus) int { return strings.Compare(a.ContextPath, b.ContextPath) })
	return apps, nil
}
