package engine

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
)

// The bound of an operation resource's run. It was the `timeout` argument, as an
// action's is; it is now `timeouts` (create: the run at create; update: a run on a
// change of triggers), as every other resource's operations are bounded, so that a
// module that sets timeouts on its resources sets them on this one too. `timeout` is
// deprecated for a release and still bounds both runs where timeouts does not.
const (
	operationTimeout  = "timeout"
	operationTimeouts = "timeouts"
	// operationTimeoutRemoval is the release without operationTimeout.
	operationTimeoutRemoval = "0.2.0"
)

// operationTimeoutDeprecation is what the CLI shows where `timeout` is set (at validate
// and plan), and, from Terraform 1.15 and OpenTofu 1.12, where it is referred to.
var operationTimeoutDeprecation = "Use timeouts instead, as on every other resource of the provider: " +
	"timeouts = { create = \"30m\", update = \"30m\" } bounds the run at create and the runs on a change of triggers. " +
	"The timeout argument is removed in " + operationTimeoutRemoval + "."

// boundAttributes are the schema's timeout (deprecated) and timeouts.
func (o *Operation[C]) boundAttributes(ctx context.Context) map[string]rschema.Attribute {
	def := FormatDuration(o.Type.Timeout)
	return map[string]rschema.Attribute{
		operationTimeout: rschema.StringAttribute{
			MarkdownDescription: fmt.Sprintf("Use `timeouts` (`create`, `update`) instead: `timeout` is removed in %s. "+
				"How long any run may take, every request and wait included, as a duration from `%s` to `%s` such as `30m`, "+
				"where `timeouts` does not say. Cannot be set together with `timeouts`.",
				operationTimeoutRemoval, FormatDuration(minActionTimeout), FormatDuration(maxActionTimeout)),
			DeprecationMessage: operationTimeoutDeprecation,
			Optional:           true, Validators: []validator.String{DurationValidator(minActionTimeout, maxActionTimeout)},
		},
		operationTimeouts: describedTimeouts(ctx, timeouts.Opts{
			Create: true, Update: true,
			CreateDescription: fmt.Sprintf("How long the run at create may take, every request and wait included, as a duration such as `30m`. Defaults to `%s`.", def),
			UpdateDescription: fmt.Sprintf("How long a run on a change of `triggers` may take, every request and wait included, as a duration such as `30m`. "+
				"Defaults to `%s`. A change of it alone runs nothing; it bounds the next run.", def),
		}),
	}
}

// DefaultTimeouts are the bounds of the runs where neither timeouts nor timeout says;
// its delete forgets the resource, and has none.
func (o *Operation[C]) DefaultTimeouts() Timeouts {
	return Timeouts{Create: o.Type.Timeout, Update: o.Type.Timeout}
}

// bound is how long a run at op ("create" or "update") may take, and the setting that
// says so, for the error of a run that outlasts it.
func (o *Operation[C]) bound(config Attrs, op string) (time.Duration, string) {
	if text, ok := timeoutText(config, op); ok {
		if d, err := time.ParseDuration(text); err == nil {
			return d, operationTimeouts + "." + op
		}
	}
	if text, ok := StringOf(config[operationTimeout]); ok {
		if d, err := time.ParseDuration(text); err == nil {
			return d, operationTimeout
		}
	}
	return o.Type.Timeout, operationTimeouts + "." + op + ", by default"
}

// boundRanOut reports whether ctx, a run's or an invocation's, ended at its deadline,
// read as the waits read it (apm.Ended): a wait ends by the clock a moment before ctx
// reports it, and the error of the run must agree with the wait that ended it.
func boundRanOut(ctx context.Context) bool {
	return errors.Is(apm.Ended(ctx), context.DeadlineExceeded)
}

// runError says what failed; a run at op cut short by its bound names the setting that
// bounded it and the one to raise.
func (o *Operation[C]) runError(ctx context.Context, config Attrs, op string, bound time.Duration, setting string, err error) diag.Diagnostic {
	summary := "Failed to " + o.Type.Describe(config)
	// The run's own deadline, not a wait inside it (healthy_timeout), which the run reports.
	if boundRanOut(ctx) {
		return diag.NewErrorDiagnostic(summary, fmt.Sprintf("%s\n\nThe run did not finish within %s (%s). If it needs longer, raise %s.%s "+
			"before you apply again.", err.Error(), FormatDuration(bound), setting, operationTimeouts, op))
	}
	return diag.NewErrorDiagnostic(summary, Explain(err))
}

// timeoutSuperseded refuses, at validate, timeout set together with timeouts: the one
// replaces the other, and a bound set twice would leave the reader guessing which holds.
type timeoutSuperseded struct{}

func (timeoutSuperseded) Description(context.Context) string {
	return "timeout (deprecated) and timeouts cannot both be set"
}

func (v timeoutSuperseded) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (timeoutSuperseded) ValidateResource(_ context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	config, err := AttrsOf(req.Config.Raw)
	if err != nil {
		return
	}
	set := func(name string) bool { v, ok := config[name]; return ok && !v.IsNull() }
	if set(operationTimeout) && set(operationTimeouts) {
		resp.Diagnostics.AddAttributeError(path.Root(operationTimeout), "Conflicting timeouts",
			fmt.Sprintf("timeout = %s is set together with timeouts. timeout is deprecated and replaced by timeouts: "+
				"remove timeout, and put its value in timeouts.create and timeouts.update.", shown(config[operationTimeout])))
	}
}

// shown is a configuration value as the user wrote it, for a message.
func shown(v tftypes.Value) string {
	if text, ok := StringOf(v); ok {
		return fmt.Sprintf("%q", text)
	}
	return "(known after apply)"
}
