package provider

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
)

// The day-two power actions of servers (Terraform 1.14 and later): start, stop and
// restart, declared once here for the three kinds as the kinds declare their resource
// once (servers.go). Each brings the server to a running state through converge
// (server_power.go), the same code as the state attribute of the server resources, so that
// an action and an apply treat a server alike: a server already there is left alone, a
// start or stop under way is waited out, and the wait ends at the target state or at the
// timeout.

// serverOperation is one power action, the same for every kind.
type serverOperation struct {
	verb string // "restart", for apm_<kind>_restart
	// does says what the action does, after "Starts ...", in its description.
	does string
	// forceable says that a WAS server's variant takes force, which the interface has
	// for stops only (api/decisions.md).
	forceable bool
	run       func(ctx context.Context, c *conn, ref apm.ServerRef, force bool, progress engine.Progress) error
}

// defaultPowerTimeout bounds a power action: a WAS server may take minutes to start, and
// a restart waits for a stop and a start.
const defaultPowerTimeout = 10 * time.Minute

// The power actions; registry.go lists each kind's three.
var (
	serverStart = serverOperation{
		verb: "start", does: "Starts the %s and waits until the manager reports it `running`. A server that is running already is left alone, " +
			"and the action succeeds saying so; one that is starting or stopping is waited for first.",
		run: func(ctx context.Context, c *conn, ref apm.ServerRef, _ bool, progress engine.Progress) error {
			return c.converge(ctx, ref, stateRunning, false, progress)
		},
	}
	serverStop = serverOperation{
		verb: "stop", forceable: true, does: "Stops the %s and waits until the manager reports it `stopped`. A server that is stopped already is left alone, " +
			"and the action succeeds saying so; one that is starting or stopping is waited for first.",
		run: func(ctx context.Context, c *conn, ref apm.ServerRef, force bool, progress engine.Progress) error {
			return c.converge(ctx, ref, stateStopped, force, progress)
		},
	}
	serverRestart = serverOperation{
		verb: "restart", forceable: true, does: "Restarts the %s: stops it, waits until it is `stopped`, starts it and waits until it is `running`. " +
			"A server that is stopped already is only started, saying so. Invoked again after a failure, it carries on from the state the server is in.",
		run: func(ctx context.Context, c *conn, ref apm.ServerRef, force bool, progress engine.Progress) error {
			if err := c.converge(ctx, ref, stateStopped, force, progress); err != nil {
				return err
			}
			return c.converge(ctx, ref, stateRunning, false, progress)
		},
	}
)

// action is the kind's power action op.
func (k *serverKind) action(op serverOperation) func() action.Action {
	return engine.NewAction(k.powerAction(op))
}

// powerAction is the kind's action for op.
func (k *serverKind) powerAction(op serverOperation) actionType {
	fields := []engine.Field[engine.Attrs]{serverActionTarget(k)}
	force := op.forceable && k.was
	if force {
		fields = append(fields, engine.InputField[engine.Attrs](attrForce, "Stop the server at once, without waiting for requests in progress "+
			"(the manager's `force`, which only WAS servers have). Defaults to `false`.", tftypes.Bool).WithDefault(false))
	}
	return actionType{
		Name: k.name + "_" + op.verb,
		Description: fmt.Sprintf(op.does, k.label) + fmt.Sprintf(" For Terraform 1.14 and later: run it with `terraform apply -invoke=action.apm_%s_%s.<name>`, "+
			"or from a resource's `lifecycle { action_trigger }`. To keep a server running or stopped on any Terraform or OpenTofu version, set `state` on `apm_%s`.",
			k.name, op.verb, k.name),
		Fields:  fields,
		Timeout: defaultPowerTimeout,
		Describe: func(config engine.Attrs) string {
			return op.verb + " " + k.named(config.Str(attrServerID))
		},
		Invoke: func(ctx context.Context, c *conn, config engine.Attrs, progress engine.Progress) error {
			return c.onServerRef(ctx, k.kind, config.Str(attrServerID), func(ref apm.ServerRef) error {
				return op.run(ctx, c, ref, force && config.Bool(attrForce), progress)
			})
		},
	}
}

// serverActionTarget is the server_id argument of the actions on a server of kind k.
func serverActionTarget(k *serverKind) engine.Field[engine.Attrs] {
	return engine.InputField[engine.Attrs](attrServerID, fmt.Sprintf("The `id` of the %s, such as `apm_%s.example.id` (`<system_id>/<node>/<server_id>`).", k.label, k.name),
		tftypes.String).Validate(serverRefValidator(string(k.kind)))
}

// named describes the server of kind k whose id is ref in diagnostics.
func (k *serverKind) named(ref string) string {
	nodeRef, serverID, _ := splitServerRef(ref)
	_, node, _ := splitNodeRef(nodeRef)
	return fmt.Sprintf("%s %q on node %q", k.label, serverID, node)
}
