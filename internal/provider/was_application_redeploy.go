package provider

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
)

// apm_was_application_redeploy undeploys an application and deploys its archive again,
// leaving the apm_was_application resource as it is (a replacement would also destroy
// and create whatever depends on it). The manager does not report an application's
// archive or name (was_application.go), so the action cannot read them: it takes
// source_path, and application_name, from its configuration, which refers to the
// resource's arguments (apm_was_application.x.source_path).

// defaultRedeployTimeout bounds a redeploy: an undeploy, a deploy and the wait until the
// application runs.
const defaultRedeployTimeout = 10 * time.Minute

// absentApplication is the state of an application the statuses do not list, which it
// is for a moment after a deploy on some managers.
const absentApplication = "not deployed"

var wasApplicationRedeployAction = actionType{
	Name: "was_application_redeploy",
	Description: "Redeploys an application on its WAS server: undeploys it, deploys the archive at `source_path` under the same context path, " +
		"and waits until the manager reports the application `running`. The `apm_was_application` resource is left as it is: nothing is replaced. " +
		"An application that is not deployed (an earlier redeploy failed after its undeploy, say) is deployed. The server must be running. " +
		"For Terraform 1.14 and later: run it with `terraform apply -invoke=action.apm_was_application_redeploy.<name>`, or from a resource's `lifecycle { action_trigger }`.",
	Fields: []engine.Field[engine.Attrs]{
		engine.InputField[engine.Attrs](attrApplicationID, "The `id` of the application, such as `apm_was_application.example.id` (`<was_server_id><context_path>`, "+
			"for example `SYS-0001/app-01/was-1/shop`).", tftypes.String).
			Validate(stringvalidator.RegexMatches(applicationRefPattern, "must be the id of an apm_was_application, <system_id>/<node>/<server_id><context_path>, "+
				"such as apm_was_application.example.id (for example SYS-0001/app-01/was-1/shop)")),
		engine.InputField[engine.Attrs](attrSourcePath, "Absolute path of the archive to deploy on the server's node, usually `apm_was_application.example.source_path`. "+
			"The manager does not report the archive of a deployed application, so the action needs it.", tftypes.String).Validate(absolutePathValidator()),
		engine.InputField[engine.Attrs](attrApplicationName, "Name of the application in the manager, usually `apm_was_application.example.application_name`. "+
			"Left out, the manager chooses, as for a resource that leaves it out.", tftypes.String).OptionalInput().Validate(stringvalidator.LengthAtLeast(1)),
	},
	Timeout: defaultRedeployTimeout,
	Describe: func(config engine.Attrs) string {
		server, contextPath, err := applicationOf(config.Str(attrApplicationID))
		if err != nil {
			return fmt.Sprintf("redeploy application %q", config.Str(attrApplicationID))
		}
		return fmt.Sprintf("redeploy application %q on %s", contextPath, wasServerNamed(server))
	},
	Invoke: redeployWASApplication,
}

// redeployWASApplication undeploys the application (when deployed), deploys it, and
// waits until it runs. It refuses a server that is not running before it changes
// anything: the application could not run there, so the wait could only time out.
func redeployWASApplication(ctx context.Context, c *conn, config engine.Attrs, progress engine.Progress) error {
	server, contextPath, err := applicationOf(config.Str(attrApplicationID))
	if err != nil {
		return fmt.Errorf("application_id: %w", err)
	}
	return c.onServerRef(ctx, apm.KindWAS, server, func(ref apm.ServerRef) error {
		srv, err := c.GetServer(ctx, ref)
		if err != nil {
			return err
		}
		if status := strings.ToLower(srv.Status); status != stateRunning {
			return fmt.Errorf("%s is %s, and an application runs only on a running server; start it first (action apm_was_server_start, "+
				"or state = \"running\" on apm_was_server), then invoke this action again", serverNamed(ref), status)
		}
		if err := undeployIfDeployed(ctx, c, ref, contextPath, progress); err != nil {
			return err
		}
		progress.Say("Deploying %s at %q on %s.", config.Str(attrSourcePath), contextPath, serverNamed(ref))
		err = c.DeployApplication(ctx, ref, apm.Deployment{
			ContextPath: contextPath, SourcePath: config.Str(attrSourcePath), ApplicationName: config.Str(attrApplicationName),
		})
		if err != nil {
			return fmt.Errorf("deploying %q (it is not deployed now: invoke the action again to deploy it): %w", contextPath, err)
		}
		return waitApplicationRunning(ctx, c, ref, contextPath, progress)
	})
}

// undeployIfDeployed undeploys the application at contextPath, saying so; an
// application that is not deployed is only reported.
func undeployIfDeployed(ctx context.Context, c *conn, ref apm.ServerRef, contextPath string, progress engine.Progress) error {
	apps, err := c.ApplicationStatuses(ctx, ref)
	if err != nil {
		return err
	}
	if !slices.ContainsFunc(apps, func(a apm.ApplicationStatus) bool { return a.ContextPath == contextPath }) {
		progress.Say("No application is deployed at %q on %s: deploying it.", contextPath, serverNamed(ref))
		return nil
	}
	progress.Say("Undeploying the application at %q from %s.", contextPath, serverNamed(ref))
	if err := c.UndeployApplication(ctx, ref, contextPath); err != nil && !apm.IsNotFound(err) {
		return fmt.Errorf("undeploying %q: %w", contextPath, err)
	}
	return nil
}

// waitApplicationRunning polls the server's application statuses until the application
// at contextPath is running.
func waitApplicationRunning(ctx context.Context, c *conn, ref apm.ServerRef, contextPath string, progress engine.Progress) error {
	w := watch{progress: progress, what: fmt.Sprintf("application %q on %s", contextPath, serverNamed(ref)), start: time.Now()}
	_, err := apm.Poll[string]{
		What:    w.what,
		Pending: []string{absentApplication, "deploying", "starting", stateStopped},
		Target:  []string{stateRunning},
		Refresh: func(ctx context.Context) (string, string, error) {
			apps, err := c.ApplicationStatuses(ctx, ref)
			if err != nil {
				return "", "", err
			}
			state := absentApplication
			if i := slices.IndexFunc(apps, func(a apm.ApplicationStatus) bool { return a.ContextPath == contextPath }); i >= 0 {
				state = apps[i].Status
			}
			w.saw(state)
			return state, state, nil
		},
	}.Wait(ctx)
	return err
}

// applicationRefPattern is the shape of an application's id, so that a context path or a
// server's id given instead fails at validate.
var applicationRefPattern = regexp.MustCompile(`^[^/\s]+/[^/\s]+/[^/\s]+/[^\s?#]*$`)
