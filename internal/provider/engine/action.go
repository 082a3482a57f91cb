package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/action"
	aschema "github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
)

// ActionType declares an action (Terraform 1.14 and later): a day-two operation that
// `terraform apply -invoke=action.<type>.<name>` or a resource's
// `lifecycle { action_trigger }` runs, which changes no state. Its configuration is
// fields, as a resource's inputs are (InputField, Validate, OptionalInput, WithDefault):
// their object is the configuration itself. The engine owns the flow: decoding the
// configuration, the `timeout` argument, progress, and the wording of diagnostics.
type ActionType[C any] struct {
	Name        string // without the provider prefix: "was_server_start"
	Description string
	Fields      []Field[Attrs]
	// Timeout, when set, gives the action a `timeout` argument that bounds the whole
	// invoke, by default this long. Actions that wait for the manager need it.
	Timeout time.Duration
	// Validators check the configuration as a whole. Optional.
	Validators []action.ConfigValidator
	// CheckPlan rejects at plan what a read of the manager shows to be wrong (an id
	// that is no WAS server, say), once the configuration is known. Optional.
	CheckPlan func(ctx context.Context, m C, config Attrs, diags *diag.Diagnostics)
	// Describe says what the action does to what, in diagnostics: `restart WAS server
	// "was-1" on node "app-01"`.
	Describe func(config Attrs) string
	// Invoke carries the action out, telling Terraform what it does through progress.
	// An action is idempotent: invoked again after a failure or an interruption, it
	// carries on from where the manager is.
	Invoke func(ctx context.Context, m C, config Attrs, progress Progress) error
}

// Progress tells Terraform what an action is doing; the CLI shows each message as it
// comes. A nil Progress says nothing (the same calls serve resources, which do not
// report progress).
type Progress func(message string)

// Say sends one message, formatted as by fmt.Sprintf.
func (p Progress) Say(format string, args ...any) {
	if p != nil {
		p(fmt.Sprintf(format, args...))
	}
}

// Bounds of an action's timeout: below a second no manager answers a start, and a day
// is longer than any operation the interface offers.
const (
	minActionTimeout = time.Second
	maxActionTimeout = 24 * time.Hour
)

// NewAction registers a declared action with the framework.
func NewAction[C any](t ActionType[C]) func() action.Action {
	return func() action.Action { return &Action[C]{Type: &t} }
}

var (
	_ action.ActionWithConfigure        = (*Action[struct{}])(nil)
	_ action.ActionWithModifyPlan       = (*Action[struct{}])(nil)
	_ action.ActionWithConfigValidators = (*Action[struct{}])(nil)
)

// Action is the one implementation of action.Action.
type Action[C any] struct {
	Type *ActionType[C]
	data *Configured[C]
}

func (a *Action[C]) Metadata(_ context.Context, req action.MetadataRequest, resp *action.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_" + a.Type.Name
}

func (a *Action[C]) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	attributes := map[string]aschema.Attribute{}
	for _, f := range a.Type.Fields {
		attributes[f.name] = f.actionAttribute()
	}
	if a.Type.Timeout > 0 {
		attributes["timeout"] = aschema.StringAttribute{
			MarkdownDescription: fmt.Sprintf("How long the action may take, every request and wait included, as a duration from `%s` to `%s` such as `90s` or `15m`. "+
				"When it runs out, the action fails saying what it was waiting for and the last state it saw; invoked again, it carries on from there. Defaults to `%s`.",
				FormatDuration(minActionTimeout), FormatDuration(maxActionTimeout), FormatDuration(a.Type.Timeout)),
			Optional:   true,
			Validators: []validator.String{DurationValidator(minActionTimeout, maxActionTimeout)},
		}
	}
	resp.Schema = aschema.Schema{MarkdownDescription: a.Type.Description, Attributes: attributes}
}

// actionAttribute is the field as an argument of an action: required unless the field
// is optional or has a default (which Invoke applies, as action schemas take none).
func (f Field[T]) actionAttribute() aschema.Attribute {
	optional := f.optional || f.defaulted
	switch f.kind {
	case kindBool:
		return aschema.BoolAttribute{MarkdownDescription: f.description, Required: !optional, Optional: optional}
	case kindInt64:
		return aschema.NumberAttribute{MarkdownDescription: f.description, Required: !optional, Optional: optional,
			Validators: []validator.Number{wholeNumber{f.int64Rules}}}
	case kindStrings:
		return aschema.ListAttribute{MarkdownDescription: f.description, ElementType: types.StringType, Required: !optional, Optional: optional,
			Validators: f.listRules}
	default:
		return aschema.StringAttribute{MarkdownDescription: f.description, Required: !optional, Optional: optional,
			Validators: f.stringRules}
	}
}

func (a *Action[C]) ConfigValidators(context.Context) []action.ConfigValidator {
	return a.Type.Validators
}

func (a *Action[C]) Configure(_ context.Context, req action.ConfigureRequest, resp *action.ConfigureResponse) {
	a.data = configured[C](req.ProviderData, &resp.Diagnostics)
}

// ModifyPlan fails the plan, rather than the invoke, when no API key is configured, and
// runs the type's CheckPlan on a configuration that is wholly known.
func (a *Action[C]) ModifyPlan(ctx context.Context, req action.ModifyPlanRequest, resp *action.ModifyPlanResponse) {
	if a.data == nil {
		return
	}
	resp.Diagnostics.Append(a.data.requireKey()...)
	if a.Type.CheckPlan == nil || resp.Diagnostics.HasError() || a.data.skipLookups || !req.Config.Raw.IsFullyKnown() {
		return
	}
	m, diags := a.data.Conn()
	resp.Diagnostics.Append(diags...)
	config, err := AttrsOf(req.Config.Raw)
	if diags.HasError() || err != nil {
		return
	}
	a.Type.CheckPlan(ctx, m, a.withDefaults(config), &resp.Diagnostics)
}

func (a *Action[C]) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	m, diags := a.data.Conn()
	resp.Diagnostics.Append(diags...)
	if diags.HasError() {
		return
	}
	config, err := AttrsOf(req.Config.Raw)
	if err != nil {
		resp.Diagnostics.AddError("Invalid action configuration", err.Error())
		return
	}
	config = a.withDefaults(config)
	bound := a.timeout(config)
	if bound > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, bound)
		defer cancel()
	}
	progress := func(message string) { resp.SendProgress(action.InvokeProgressEvent{Message: message}) }
	if err := a.Type.Invoke(ctx, m, config, progress); err != nil {
		resp.Diagnostics.Append(a.invokeError(ctx, config, bound, err))
	}
}

// withDefaults fills the bool arguments left out with their defaults.
func (a *Action[C]) withDefaults(config Attrs) Attrs {
	for _, f := range a.Type.Fields {
		if f.boolDefault != nil && !config.Known(f.name) {
			config = config.With(f.name, tftypes.NewValue(tftypes.Bool, *f.boolDefault))
		}
	}
	return config
}

// timeout is the configured timeout (validated already), else the type's default; 0 for
// an action without one.
func (a *Action[C]) timeout(config Attrs) time.Duration {
	if d, err := time.ParseDuration(config.Str("timeout")); err == nil && config.Known("timeout") {
		return d
	}
	return a.Type.Timeout
}

// invokeError says what failed and what to do. A wait cut short by the timeout gets
// advice about the action's timeout argument rather than a resource's timeouts block; and
// where Explain advises a resource to apply again, an action is invoked again, since a
// plain apply runs it no more (not with -invoke, nor from a trigger whose resource has
// not changed).
func (a *Action[C]) invokeError(ctx context.Context, config Attrs, bound time.Duration, err error) diag.Diagnostic {
	summary := "Failed to " + a.Type.Describe(config)
	var timedOut *apm.TimeoutError
	if bound > 0 && (errors.As(err, &timedOut) || boundRanOut(ctx)) {
		return diag.NewErrorDiagnostic(summary, fmt.Sprintf("%s\n\nThe action did not finish within its timeout of %s. "+
			"Check the object in the manager: it may still get there. If it needs longer, raise the action's timeout argument; "+
			"invoke the action again to carry on from where it is.", err.Error(), FormatDuration(bound)))
	}
	if IsGone(err) {
		return diag.NewErrorDiagnostic(summary, Explain(err)+" Check the action's arguments: what they refer to must exist in the manager "+
			"(refer to its resource, such as apm_was_server.example.id, so that the reference follows it).")
	}
	return diag.NewErrorDiagnostic(summary, strings.ReplaceAll(Explain(err), "apply again", "invoke the action again"))
}
