package provider

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

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
	if err == nil || engine.IsGone(err) || !apm.IsNotFoundAnswer(err) {
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

var wasApplicationStatusFields = []engine.Field[apm.ApplicationStatus]{
	engine.StringField("context_path", "Context path of the application, such as `/shop`.", func(s *apm.ApplicationStatus) string { return s.ContextPath }),
	engine.StringField("status", "Status of the application as the manager reports it, for example `running` or `stopped`.",
		func(s *apm.ApplicationStatus) string { return s.Status }),
	engine.Int64Field("sessions", "Number of active HTTP sessions of the application.", func(s *apm.ApplicationStatus) int64 { return s.Sessions }),
}

var newWASApplicationsDataSource = engine.NewListDataSource(listDataSourceType[apm.ApplicationStatus]{
	Name:            "was_applications",
	Description:     "Lists the applications deployed on one WAS server, with their status and session count, sorted by context path. A server that does not exist lists nothing, with a warning.",
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
