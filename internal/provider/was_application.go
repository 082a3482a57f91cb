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
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// wasApplication is the application deployed on the WAS server ServerID at ContextPath.
// Its status and session count are observations (data source apm_was_applications): the
// resource manages only that it is deployed.
type wasApplication struct {
	ServerID string
	apm.ApplicationStatus
}

var contextPathPattern = regexp.MustCompile(`^/[^\s?#]*$`)

var wasApplicationFields = []engine.Field[wasApplication]{
	engine.StringField(attrID, "`<was_server_id><context_path>`, such as `SYS-0001/app-01/was-1/shop`.",
		func(a *wasApplication) string { return a.ServerID + a.ContextPath }),
	wasServerRefField(func(a *wasApplication) string { return a.ServerID }),
	engine.StringField(attrContextPath, "Context path the application is served under, starting with `/`, such as `/shop` (`/` for the root context).",
		func(a *wasApplication) string { return a.ContextPath }).Replacing().
		Validate(stringvalidator.RegexMatches(contextPathPattern, "must start with / and contain no white space, '?' or '#'")),
	// The manager does not report the archive, so an imported application's configuration
	// (one that plan -generate-config-out writes) has none: it may be left out for an
	// application that is deployed, and is needed only to deploy one (checkApplicationPlan).
	engine.InputField[wasApplication](attrSourcePath, "Absolute path of the application archive (such as a `.war` file) on the server's node. "+
		"Changing it deploys the new archive: the application is undeployed and deployed again. "+
		"Needed to deploy the application; it may be left out for an application that is deployed already (an imported one): "+
		"if that application is then undeployed outside Terraform, plan fails until it is set. "+
		"The manager does not report it: after an import, setting it is only recorded.", tftypes.String).
		OptionalInput().Replacing().Validate(absolutePathValidator()),
	engine.InputField[wasApplication](attrApplicationName, "Name of the application in the manager. Defaults to the manager's choice "+
		"(in apmsim: the context path without slashes, `ROOT` for `/`). The manager does not report it: after an import, setting it is only recorded.", tftypes.String).
		OptionalInput().Replacing().Validate(stringvalidator.LengthAtLeast(1)),
	engine.StringField(attrStatus, "Status of the application as the manager reports it, for example `running` or `stopped`.",
		func(a *wasApplication) string { return a.Status }).In(engine.InList),
	engine.Int64Field("sessions", "Number of active HTTP sessions of the application.", func(a *wasApplication) int64 { return a.Sessions }).In(engine.InList),
}

// contextPathPart is the last part of an application's import ID: the context path, with
// or without its leading slash, so that shop/app-01/was-1/shop and shop/app-01/was-1//shop
// both name /shop (and the id, <was_server_id><context_path>, imports as it is).
var contextPathPart = idPart{
	Attr: attrContextPath, Form: "<context_path>", Rest: true,
	Accepts: "the context path with or without its leading slash (the root context: a lone /)",
	Resolve: func(_ context.Context, _ *conn, raw string) (string, error) {
		return contextPathOf(raw), nil
	},
}

// contextPathOf is the context path that the last part of an application's import ID
// names: shop and /shop name /shop, and an empty part the root context.
func contextPathOf(raw string) string { return "/" + strings.TrimPrefix(raw, "/") }

// applicationOf splits an application's id or import ID into its WAS server's reference
// (as written) and its context path, by the type's import ID declaration.
func applicationOf(id string) (serverRef, contextPath string, err error) {
	parts, err := wasApplicationType.ImportID.Parse(id)
	if err != nil {
		return "", "", err
	}
	return parts[0], contextPathOf(parts[1]), nil
}

var wasApplicationType = resourceType[wasApplication]{
	Noun: "application",
	Name: "was_application",
	Description: "An application deployed on a WAS server, served under its context path. Creating it deploys the archive at `source_path` on the server's node; " +
		"destroying it undeploys the application. The deployment is managed, the application's status and session count are not " +
		"(data source `apm_was_applications` reads them): an application undeployed outside Terraform is deployed again by the next apply.",
	Fields:     wasApplicationFields,
	References: []reference{refersTo(attrWASServerID, wasServerParent)},
	ImportID: importID{
		Parts:   []idPart{serverRefPart(attrWASServerID), contextPathPart},
		Example: "shop/app-01/was-1/shop",
	},
	Describe: func(a engine.Attrs) string {
		return fmt.Sprintf("application %q on %s", a.Str(attrContextPath), wasPartServer(a))
	},
	Create: func(ctx context.Context, c *conn, plan engine.Attrs) error {
		return c.onServerRef(ctx, apm.KindWAS, plan.Str(attrWASServerID), func(ref apm.ServerRef) error {
			return c.DeployApplication(ctx, ref, apm.Deployment{
				ContextPath: plan.Str(attrContextPath), SourcePath: plan.Str(attrSourcePath), ApplicationName: plan.Str(attrApplicationName),
			})
		})
	},
	Read:      readWASApplication,
	Update:    noUpdate,
	Delete:    deleteWASApplication,
	CheckPlan: checkApplicationPlan,
}

// checkApplicationPlan refuses at plan a deployment without an archive: a create (or the
// create of a replacement, or of an application undeployed outside Terraform) whose
// source_path is left out.
func checkApplicationPlan(_ context.Context, _ *conn, plan, prior engine.Attrs, diags *diag.Diagnostics) {
	if len(prior) > 0 || !plan[attrSourcePath].IsNull() {
		return
	}
	diags.AddAttributeError(path.Root(attrSourcePath), "source_path is needed to deploy the application", fmt.Sprintf(
		"Apply would deploy the application at %q, and the manager needs its archive for that. "+
			"Set source_path to the archive's absolute path on the server's node; it may be left out only while the application is deployed (after an import).",
		plan.Str(attrContextPath)))
}

// readWASApplication looks the context path up in the server's applications.
func readWASApplication(ctx context.Context, c *conn, a engine.Attrs) (*wasApplication, error) {
	serverRef, contextPath := a.Str(attrWASServerID), a.Str(attrContextPath)
	apps, err := listWASApplications(ctx, c, serverRef)
	if err != nil {
		return nil, err
	}
	i := slices.IndexFunc(apps, func(app wasApplication) bool { return app.ContextPath == contextPath })
	if i < 0 {
		return nil, fmt.Errorf("no application is deployed at %q on %s: %w", contextPath, wasPartServer(a), engine.ErrGone)
	}
	return &apps[i], nil
}

// listWASApplications is the applications deployed on the WAS server whose id is
// serverRef, with their status and session count: one read of its application statuses.
func listWASApplications(ctx context.Context, c *conn, serverRef string) ([]wasApplication, error) {
	var statuses []apm.ApplicationStatus
	err := c.onServerRef(ctx, apm.KindWAS, serverRef, func(ref apm.ServerRef) (err error) {
		statuses, err = c.ApplicationStatuses(ctx, ref)
		return err
	})
	if err != nil {
		return nil, err
	}
	apps := make([]wasApplication, 0, len(statuses))
	for _, s := range statuses {
		apps = append(apps, wasApplication{ServerID: serverRef, ApplicationStatus: s})
	}
	return apps, nil
}

// deleteWASApplication undeploys the application. "Application not found: <path>" means
// gone; any other 404 (the server's own, say) is checked against the statuses.
func deleteWASApplication(ctx context.Context, c *conn, state engine.Attrs) error {
	serverRef, contextPath := state.Str(attrWASServerID), state.Str(attrContextPath)
	err := c.onServerRef(ctx, apm.KindWAS, serverRef, func(ref apm.ServerRef) error {
		return c.UndeployApplication(ctx, ref, contextPath)
	})
	if err == nil || engine.IsGone(err) || !apm.IsNotFoundAnswer(err) {
		return err
	}
	apps, rerr := listWASApplications(ctx, c, serverRef)
	switch {
	case rerr != nil && engine.IsGone(rerr):
		return nil
	case rerr == nil && !slices.ContainsFunc(apps, func(app wasApplication) bool { return app.ContextPath == contextPath }):
		return nil
	default:
		return err
	}
}

var newWASApplicationsDataSource = engine.NewListDataSource(listDataSourceType[wasApplication]{
	Name: "was_applications",
	Description: "Lists the applications deployed on one WAS server, sorted by context path, with their status and session count, " +
		"each with the ID to import it as `apm_was_application`. A server without applications lists none; a server that does not exist lists nothing, with a warning.",
	ListName:        "applications",
	ListDescription: "The applications deployed on the server.",
	Fields:          wasApplicationFields,
	Filters:         wasServerFilter("applications"),
	SortBy:          func(a *wasApplication) string { return a.ContextPath },
	List: func(ctx context.Context, c *conn, config engine.Attrs) ([]wasApplication, error) {
		return listWASApplications(ctx, c, config.Str(attrWASServerID))
	},
	Imports: wasApplicationType.Target(),
})
