package provider

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
)

// The rolling operations over WAS servers (rollout.go does the rolling): two actions for
// Terraform 1.14 and later, and apm_was_rollout, their declarative twin for every CLI.
// The three share their arguments and their plan-time checks.

// Defaults of a roll: one server out of service at a time, drained, ten minutes for a
// server to come back, no pause; an hour for the whole roll.
const (
	defaultBatchSize      = 1
	defaultHealthyTimeout = 10 * time.Minute
	defaultRollTimeout    = time.Hour
)

// The operations of apm_was_rollout.
const (
	rolloutRestart  = "restart"
	rolloutRedeploy = "redeploy"
)

// rollFields are the arguments every roll has.
func rollFields() []engine.Field[engine.Attrs] {
	return []engine.Field[engine.Attrs]{
		engine.InputField[engine.Attrs](attrWASServerIDs, "The `id`s of the WAS servers to roll, in the order they go, such as `[for s in apm_was_server.cluster : s.id]`.",
			tftypes.List{ElementType: tftypes.String}).
			ValidateList(listvalidator.SizeAtLeast(1), listvalidator.UniqueValues(), listvalidator.ValueStringsAre(serverRefValidator("was"))),
		engine.InputField[engine.Attrs](attrBatchSize, fmt.Sprintf("How many servers may be out of service at once. With `drain`, it must leave every web server "+
			"at least one worker that forwards (checked at plan). Defaults to `%d`.", defaultBatchSize), tftypes.Number).
			OptionalInput().ValidateInt64(int64validator.AtLeast(1)),
		engine.InputField[engine.Attrs](attrDrain, "Before a server goes out of service, take it out of the workers of every web server that forwards to it, "+
			"and put it back where it stood, with its settings, once it is healthy: no request goes to a server that is not serving. Defaults to `true`.", tftypes.Bool).
			WithDefault(true),
		engine.InputField[engine.Attrs](attrHealthyTimeout, fmt.Sprintf("How long a server may take to come back healthy (running, and every application on it "+
			"running), as a duration such as `5m`. A server that takes longer stops the roll. Defaults to `%s`.", engine.FormatDuration(defaultHealthyTimeout)), tftypes.String).
			OptionalInput().Validate(engine.DurationValidator(time.Second, 24*time.Hour)),
		engine.InputField[engine.Attrs](attrPause, "How long to wait between batches, as a duration such as `30s`, to let caches warm before the next servers go. Defaults to none.",
			tftypes.String).OptionalInput().Validate(engine.DurationValidator(time.Second, 24*time.Hour)),
	}
}

// redeployFields are the arguments that name the application a redeploy rolls.
func redeployFields(required bool) []engine.Field[engine.Attrs] {
	fields := []engine.Field[engine.Attrs]{
		engine.InputField[engine.Attrs](attrContextPath, "The context path of the application to redeploy on each server, such as `/shop`.", tftypes.String).
			Validate(stringvalidator.RegexMatches(contextPathPattern, "must start with / and contain no white space, '?' or '#'")),
		engine.InputField[engine.Attrs](attrSourcePath, "Absolute path of the archive to deploy on each server's node, usually `apm_was_application.example.source_path`. "+
			"The manager does not report the archive of a deployed application, so the roll needs it.", tftypes.String).Validate(absolutePathValidator()),
		engine.InputField[engine.Attrs](attrApplicationName, "Name of the application in the manager. Left out, the manager chooses.", tftypes.String).
			OptionalInput().Validate(stringvalidator.LengthAtLeast(1)),
	}
	if !required {
		fields[0], fields[1] = fields[0].OptionalInput(), fields[1].OptionalInput()
	}
	return fields
}

// rollOf reads a roll's arguments; op is what it does to each server.
func rollOf(ctx context.Context, c *conn, config engine.Attrs, op rollOperation, progress engine.Progress) (roll, error) {
	r := roll{batchSize: defaultBatchSize, drain: config.Bool(attrDrain), healthyTimeout: defaultHealthyTimeout, op: op, progress: progress,
		fingerprint: rollFingerprint(op, config)}
	if config.Known(attrBatchSize) {
		r.batchSize = int(config.Int64(attrBatchSize))
	}
	if d, err := time.ParseDuration(config.Str(attrHealthyTimeout)); err == nil {
		r.healthyTimeout = d
	}
	if d, err := time.ParseDuration(config.Str(attrPause)); err == nil {
		r.pause = d
	}
	for _, id := range config.Strs(attrWASServerIDs) {
		if err := c.onServerRef(ctx, apm.KindWAS, id, func(ref apm.ServerRef) error {
			r.servers = append(r.servers, ref)
			return nil
		}); err != nil {
			return roll{}, err
		}
	}
	return r, nil
}

// deploymentOf is the application a redeploy rolls.
func deploymentOf(config engine.Attrs) apm.Deployment {
	return apm.Deployment{ContextPath: config.Str(attrContextPath), SourcePath: config.Str(attrSourcePath), ApplicationName: config.Str(attrApplicationName)}
}

// checkRoll refuses at plan an id that is no WAS server, and, with drain, a batch that
// would take every worker of a web server out at once.
func checkRoll(ctx context.Context, c *conn, config engine.Attrs, diags *diag.Diagnostics) {
	r, err := rollOf(ctx, c, config, rollRestart, nil)
	if err != nil {
		diags.AddAttributeError(path.Root(attrWASServerIDs), "Invalid WAS server", engine.Explain(err))
		return
	}
	for i, ref := range r.servers {
		_, err := c.GetServer(ctx, ref)
		switch {
		case apm.IsNotFound(err):
			diags.AddAttributeError(path.Root(attrWASServerIDs).AtListIndex(i), "WAS server not found",
				fmt.Sprintf("was_server_ids[%d] is %q, and the manager has no %s: it says %q. Refer to the servers' resources "+
					"(apm_was_server.example.id), so that the roll follows them.", i, config.Strs(attrWASServerIDs)[i], serverNamed(ref), err.Error()))
		case err != nil:
			diags.AddWarning("Could not check the roll's WAS servers", engine.Explain(err)+"\n\nApply will tell.")
			return
		}
	}
	if diags.HasError() || !r.drain {
		return
	}
	webs, err := r.webServers(ctx, c)
	if err != nil {
		diags.AddWarning("Could not check the roll's load balancers", engine.Explain(err)+"\n\nApply will tell.")
		return
	}
	for _, web := range webs {
		detail, err := c.GetServer(ctx, web)
		if err != nil || len(detail.Workers) == 0 {
			continue
		}
		for i, batch := range slices.Collect(slices.Chunk(r.servers, r.batchSize)) {
			if !slices.ContainsFunc(detail.Workers, func(w apm.Worker) bool {
				return !slices.ContainsFunc(batch, func(ref apm.ServerRef) bool { return sameWAS(w, ref) })
			}) {
				diags.AddAttributeError(path.Root(attrBatchSize), "Batch takes a web server's every worker out",
					fmt.Sprintf("batch_size = %d: batch %d (%s) holds every WAS server that %s forwards to, so while it rolls that web server "+
						"could serve no request. Lower batch_size, or order was_server_ids so that no batch holds all of its workers.",
						r.batchSize, i+1, rolledIDs(batch), serverNamed(web)))
				return
			}
		}
	}
}

// rollAction is an action that rolls op over the configured servers.
func rollAction(name, description string, fields []engine.Field[engine.Attrs], op func(engine.Attrs) rollOperation, verb string) actionType {
	return actionType{
		Name:        name,
		Description: description,
		Fields:      fields,
		Timeout:     defaultRollTimeout,
		CheckPlan:   checkRoll,
		Describe: func(config engine.Attrs) string {
			return fmt.Sprintf("%s %d WAS servers", verb, len(config.Strs(attrWASServerIDs)))
		},
		Invoke: func(ctx context.Context, c *conn, config engine.Attrs, progress engine.Progress) error {
			r, err := rollOf(ctx, c, config, op(config), progress)
			if err != nil {
				return err
			}
			// An action has no state: its journal is a file, so that invoking it again on
			// this machine carries on where it stopped.
			if r.memory, err = newFileMemory(c.Endpoint(), r.servers); err != nil {
				return err
			}
			outcome, err := c.run(ctx, r)
			if err == nil {
				progress.Say("Done: %s.", outcome)
			}
			return err
		},
	}
}

// rollingNote says, in each roll's description, how a failure ends and what to do.
const rollingNote = " A server that does not come back healthy within `healthy_timeout` stops the roll: it stays out of its load balancers, " +
	"every earlier server serves again and every later one is left untouched, and the error names the server, its last state and what was and was not done. " +
	"Run again, the roll carries on where it stopped. " +
	"See the guide \"Rolling restarts and redeploys\"."

var (
	wasServersRollingRestartAction = rollAction("was_servers_rolling_restart",
		"Restarts WAS servers one batch at a time without dropping a request: each server is drained from the web servers that forward to it, "+
			"stopped, started, waited for until it and every application on it run, and put back, before the next batch goes."+rollingNote+
			" For Terraform 1.14 and later: run it with `terraform apply -invoke=action.apm_was_servers_rolling_restart.<name>`. "+
			"On any CLI, `apm_was_rollout` does the same when its `triggers` change.",
		rollFields(), func(engine.Attrs) rollOperation { return rollRestart }, "restart")

	wasApplicationRollingRedeployAction = rollAction("was_application_rolling_redeploy",
		"Redeploys one application on WAS servers one batch at a time without dropping a request: each server is drained from the web servers "+
			"that forward to it, the application undeployed and deployed again, waited for until it runs, and the server put back, before the next batch goes."+
			rollingNote+" For Terraform 1.14 and later: run it with `terraform apply -invoke=action.apm_was_application_rolling_redeploy.<name>`. "+
			"On any CLI, `apm_was_rollout` with `operation = \"redeploy\"` does the same when its `triggers` change.",
		append(rollFields(), redeployFields(true)...), func(config engine.Attrs) rollOperation { return rollRedeploy(deploymentOf(config)) }, "redeploy on")
)

// wasRollout is apm_was_rollout: a roll that runs at create and on every change of its
// triggers, for every CLI.
var wasRollout = engine.OperationType[*conn]{
	Name: "was_rollout",
	Description: "Rolls a restart, or a redeploy of one application, across WAS servers one batch at a time without dropping a request, " +
		"when it is created and whenever its `triggers` change, and at no other time: the declarative twin of the actions " +
		"`apm_was_servers_rolling_restart` and `apm_was_application_rolling_redeploy`, for OpenTofu and every Terraform version. " +
		"Tie `triggers` to what should roll the servers (an artifact's version, a JVM setting) and the roll happens in the apply that changes it." +
		rollingNote + " A roll that fails keeps the triggers as they were, so the next apply runs it again, and it carries on where it stopped " +
		"(the resource's private state records where). The manager holds nothing of this " +
		"resource: destroying it only forgets it, and refresh reads nothing.",
	Fields: append(append([]engine.Field[engine.Attrs]{
		engine.InputField[engine.Attrs](attrOperation, "What the roll does to each server: `restart` (stop, start), or `redeploy` "+
			"(undeploy and deploy the application at `context_path` from `source_path`).", tftypes.String).
			Validate(stringvalidator.OneOf(rolloutRestart, rolloutRedeploy)),
	}, rollFields()...), redeployFields(false)...),
	Timeout:    defaultRollTimeout,
	Validators: []resource.ConfigValidator{redeployNeedsItsApplication{}},
	CheckPlan:  checkRoll,
	Describe: func(config engine.Attrs) string {
		return fmt.Sprintf("%s %d WAS servers", config.Str(attrOperation), len(config.Strs(attrWASServerIDs)))
	},
	Run: func(ctx context.Context, c *conn, config engine.Attrs, progress engine.Progress, memo *engine.Memo) (string, error) {
		op := rollRestart
		if config.Str(attrOperation) == rolloutRedeploy {
			op = rollRedeploy(deploymentOf(config))
		}
		r, err := rollOf(ctx, c, config, op, progress)
		if err != nil {
			return "", err
		}
		r.memory = memoMemory{memo: memo}
		return c.run(ctx, r)
	},
}

// redeployNeedsItsApplication requires context_path and source_path with operation =
// "redeploy", and refuses them with "restart", where they would do nothing.
type redeployNeedsItsApplication struct{}

func (redeployNeedsItsApplication) Description(context.Context) string {
	return "context_path and source_path are required with operation = \"redeploy\" and not allowed with \"restart\""
}

func (v redeployNeedsItsApplication) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (redeployNeedsItsApplication) ValidateResource(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var operation types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root(attrOperation), &operation)...)
	if operation.IsUnknown() || operation.IsNull() {
		return
	}
	for _, name := range []string{attrContextPath, attrSourcePath, attrApplicationName} {
		var v types.String
		resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root(name), &v)...)
		switch redeploy := operation.ValueString() == rolloutRedeploy; {
		case redeploy && v.IsNull() && name != attrApplicationName:
			resp.Diagnostics.AddAttributeError(path.Root(name), "Missing "+name,
				fmt.Sprintf("operation = %q redeploys an application: set %s.", rolloutRedeploy, name))
		case !redeploy && !v.IsNull():
			resp.Diagnostics.AddAttributeError(path.Root(name), name+" needs operation = \"redeploy\"",
				fmt.Sprintf("operation = %q restarts the servers and deploys nothing: leave %s out, or set operation = %q.", operation.ValueString(), name, rolloutRedeploy))
		}
	}
}
