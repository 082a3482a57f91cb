package engine

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// DurationValidator accepts a Go duration such as "30s" from Min to Max: the provider's
// request_timeout and the timeout of the actions.
type DurationValidator struct{ Min, Max time.Duration }

func (v DurationValidator) Description(context.Context) string {
	return fmt.Sprintf(`value must be a duration from %s to %s, such as "30s", "1m30s" or "2m"`, FormatDuration(v.Min), FormatDuration(v.Max))
}

func (v DurationValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v DurationValidator) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if d, err := time.ParseDuration(req.ConfigValue.ValueString()); err != nil || d < v.Min || d > v.Max {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid duration",
			fmt.Sprintf("Attribute %s %s, got: %q.", req.Path, v.Description(ctx), req.ConfigValue.ValueString()))
	}
}
