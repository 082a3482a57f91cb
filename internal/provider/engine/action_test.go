package engine

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/action"
	aschema "github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
)

// seen is what the invoke of testAction was given.
type seen struct {
	config Attrs
	bound  time.Duration
}

func testAction(got *seen, fail error) *Action[struct{}] {
	t := ActionType[struct{}]{
		Name: "thing_poke",
		Fields: []Field[Attrs]{
			InputField[Attrs]("target", "what to poke", tftypes.String),
			InputField[Attrs]("hard", "poke hard", tftypes.Bool).WithDefault(true),
		},
		Timeout:  7 * time.Minute,
		Describe: func(c Attrs) string { return "poke " + c.Str("target") },
		Invoke: func(ctx context.Context, _ struct{}, config Attrs, progress Progress) error {
			deadline, _ := ctx.Deadline()
			got.config, got.bound = config, time.Until(deadline).Round(time.Minute)
			progress.Say("poking %s", config.Str("target"))
			return fail
		},
	}
	a := &Action[struct{}]{Type: &t}
	data := &Configured[struct{}]{}
	data.Connect(struct{}{}, Settings{HasKey: true})
	a.Configure(context.Background(), action.ConfigureRequest{ProviderData: data}, &action.ConfigureResponse{})
	return a
}

func invokeTest(t *testing.T, a *Action[struct{}], attrs map[string]tftypes.Value) (*action.InvokeResponse, []string) {
	t.Helper()
	var sr action.SchemaResponse
	a.Schema(context.Background(), action.SchemaRequest{}, &sr)
	typ := sr.Schema.Type().TerraformType(context.Background()).(tftypes.Object) //nolint:forcetypeassert // a schema is an object
	vals := map[string]tftypes.Value{}
	for name, at := range typ.AttributeTypes {
		vals[name] = tftypes.NewValue(at, nil)
		if v, ok := attrs[name]; ok {
			vals[name] = v
		}
	}
	var progress []string
	resp := &action.InvokeResponse{SendProgress: func(e action.InvokeProgressEvent) { progress = append(progress, e.Message) }}
	a.Invoke(context.Background(), action.InvokeRequest{Config: tfsdk.Config{Raw: tftypes.NewValue(typ, vals), Schema: sr.Schema}}, resp)
	return resp, progress
}

// An action's schema has its fields (required unless optional or defaulted) and the
// engine's timeout; invoke fills the defaults that action schemas cannot hold and bounds
// the call by the timeout, configured or default.
func TestActionSchemaDefaultsAndTimeout(t *testing.T) {
	var got seen
	a := testAction(&got, nil)
	var sr action.SchemaResponse
	a.Schema(context.Background(), action.SchemaRequest{}, &sr)
	target, _ := sr.Schema.Attributes["target"].(aschema.StringAttribute)
	hard, _ := sr.Schema.Attributes["hard"].(aschema.BoolAttribute)
	timeout, _ := sr.Schema.Attributes["timeout"].(aschema.StringAttribute)
	if !target.Required || !hard.Optional || !timeout.Optional || !strings.Contains(timeout.MarkdownDescription, "Defaults to `7m`") {
		t.Errorf("schema: target %+v, hard %+v, timeout %+v", target, hard, timeout)
	}
	resp, progress := invokeTest(t, a, map[string]tftypes.Value{"target": str("bell")})
	if resp.Diagnostics.HasError() || !got.config.Bool("hard") || got.bound != 7*time.Minute || len(progress) != 1 || progress[0] != "poking bell" {
		t.Errorf("diags %v, hard %v, bound %s, progress %q", resp.Diagnostics, got.config.Bool("hard"), got.bound, progress)
	}
	invokeTest(t, a, map[string]tftypes.Value{"target": str("bell"), "hard": tftypes.NewValue(tftypes.Bool, false), "timeout": str("2m")})
	if got.config.Bool("hard") || got.bound != 2*time.Minute {
		t.Errorf("configured values: hard %v, bound %s; want false and 2m", got.config.Bool("hard"), got.bound)
	}
}

// A wait cut short by the timeout is explained with the action's timeout argument, not a
// resource's timeouts block; other errors get the usual explanation.
func TestActionErrorsSayWhatToDo(t *testing.T) {
	var got seen
	timedOut := &apm.TimeoutError{What: `server "s1"`, Target: []string{"running"}, LastState: "starting", Timeout: 7 * time.Minute}
	resp, _ := invokeTest(t, testAction(&got, timedOut), map[string]tftypes.Value{"target": str("bell")})
	d := resp.Diagnostics.Errors()
	if len(d) != 1 || d[0].Summary() != "Failed to poke bell" || !strings.Contains(d[0].Detail(), "timeout of 7m") ||
		!strings.Contains(d[0].Detail(), "raise the action's timeout argument") || strings.Contains(d[0].Detail(), "timeouts") {
		t.Errorf("timeout: %v", d)
	}
	refused := &apm.Error{StatusCode: 200, Code: apm.CodeActionFailed, Message: "licence exhausted"}
	resp, _ = invokeTest(t, testAction(&got, refused), map[string]tftypes.Value{"target": str("bell")})
	if d := resp.Diagnostics.Errors(); len(d) != 1 || !strings.Contains(d[0].Detail(), "licence exhausted") {
		t.Errorf("refusal: %v", d)
	}
}
