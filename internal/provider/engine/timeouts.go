package engine

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// timeoutsValidator refuses, at validate, timeouts that are not positive durations.
type timeoutsValidator struct{}

func (timeoutsValidator) Description(context.Context) string {
	return "each of timeouts.create, update and delete must be a positive duration such as 30s or 5m"
}

func (v timeoutsValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (timeoutsValidator) ValidateResource(_ context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	if config, err := AttrsOf(req.Config.Raw); err == nil {
		checkTimeouts(config, &resp.Diagnostics)
	}
}

// Default bounds of the operations. A create or update is a few requests with their
// retries and, when an answer was lost, a look-up: minutes at most unless the manager is
// down, and then the user should hear of it rather than wait.
const (
	defaultCreateTimeout = 5 * time.Minute
	defaultUpdateTimeout = 5 * time.Minute
	DefaultDeleteTimeout = 5 * time.Minute
)

// Timeouts are the bounds of a resource's create, update and delete.
type Timeouts struct {
	Create, Update, Delete time.Duration
}

// DefaultTimeouts are the bounds of create, update and delete when timeouts leaves them
// unset: the operations use them and the schema's descriptions state them. A type's own
// DeleteTimeout (the wait while the manager refuses) never shortens a delete below the
// default bound of its requests.
func (r *Resource[T, C]) DefaultTimeouts() Timeouts {
	return Timeouts{
		Create: defaultCreateTimeout,
		Update: defaultUpdateTimeout,
		Delete: max(r.Type.DeleteTimeout, DefaultDeleteTimeout),
	}
}

// checkTimeouts refuses timeouts that are not positive durations; the timeouts module
// takes any duration, and a negative one would fail every operation at once.
func checkTimeouts(plan Attrs, diags *diag.Diagnostics) {
	tv, ok := plan["timeouts"]
	if !ok || !tv.IsFullyKnown() || tv.IsNull() {
		return
	}
	var ops map[string]tftypes.Value
	if err := tv.As(&ops); err != nil {
		return
	}
	for op, v := range ops {
		text, ok := StringOf(v)
		if !ok {
			continue
		}
		if d, err := time.ParseDuration(text); err != nil || d <= 0 {
			diags.AddAttributeError(path.Root("timeouts").AtName(op), "Invalid timeout",
				fmt.Sprintf("timeouts.%s must be a positive duration such as 30s, 5m or 1h30m, got: %q.", op, text))
		}
	}
}

// describedTimeouts is the timeouts attribute with a description of its own (the module
// leaves the attribute itself undescribed).
func describedTimeouts(ctx context.Context, opts timeouts.Opts) rschema.Attribute {
	a := timeouts.Attributes(ctx, opts)
	if nested, ok := a.(rschema.SingleNestedAttribute); ok {
		nested.MarkdownDescription = "Time limits of the operations that wait."
		return nested
	}
	return a
}

// timeout is the configured timeouts.<op> of the object (plan or state), else def.
func (r *Resource[T, C]) timeout(ctx context.Context, raw tftypes.Value, op string, def time.Duration) (time.Duration, diag.Diagnostics) {
	a, err := AttrsOf(raw)
	if err != nil {
		var diags diag.Diagnostics
		diags.AddError("Invalid request data", err.Error())
		return 0, diags
	}
	text, ok := timeoutText(a, op)
	if !ok {
		return def, nil
	}
	d, err := time.ParseDuration(text)
	if err != nil {
		var diags diag.Diagnostics
		diags.AddAttributeError(path.Root("timeouts").AtName(op), "Invalid timeout", fmt.Sprintf("timeouts.%s %q is not a duration such as 30s or 5m: %v", op, text, err))
		return 0, diags
	}
	return d, nil
}

// timeoutText is the configured timeouts.<op> of a (plan, state or configuration), if
// it is set and known; a timeouts value of another shape counts as unset, since the
// schema's validators report it.
func timeoutText(a Attrs, op string) (string, bool) {
	tv, ok := a["timeouts"]
	if !ok || !tv.IsKnown() || tv.IsNull() {
		return "", false
	}
	var parts map[string]tftypes.Value
	if err := tv.As(&parts); err != nil {
		return "", false
	}
	return StringOf(parts[op])
}

// writeContext is the context of a create or update: bounded by the object's timeouts.<op>
// (def when unset) and finishing. ok is false when that timeout is invalid.
func (r *Resource[T, C]) writeContext(ctx context.Context, raw tftypes.Value, op string, def time.Duration, diags *diag.Diagnostics) (context.Context, context.CancelFunc, bool) {
	bound, d := r.timeout(ctx, raw, op, def)
	diags.Append(d...)
	if d.HasError() {
		return ctx, func() {}, false
	}
	wctx, cancel := finishing(ctx, bound)
	return context.WithValue(wctx, boundKey{}, bound), cancel, true
}

// boundKey keys the bound of a write's context, for its error text.
type boundKey struct{}

// finishing is the context of work that must finish once started. Terraform cancels the
// request's context on Ctrl-C; a write already on the wire would then end with an
// unknown outcome and its object go unrecorded. So a write ignores that cancellation and
// ends only at its own bound, and the CLI, which waits for operations in flight, records
// the result.
func finishing(ctx context.Context, bound time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), bound)
}
