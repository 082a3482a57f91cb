package engine

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// StringCheck is a string validator made of its rule's description and a check of the
// value. Null and unknown values are not checked (Required refuses a missing value, and an
// unknown one is checked once it is known); what check finds wrong, as a summary and a
// detail naming the attribute at attr, becomes an error on the attribute. check returns
// "" as the summary when the value is fine.
func StringCheck(description string, check func(attr path.Path, value string) (summary, detail string)) validator.String {
	return stringCheck{description: description, check: check}
}

type stringCheck struct {
	description string
	check       func(path.Path, string) (string, string)
}

func (c stringCheck) Description(context.Context) string { return c.description }

func (c stringCheck) MarkdownDescription(context.Context) string { return c.description }

func (c stringCheck) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if summary, detail := c.check(req.Path, req.ConfigValue.ValueString()); summary != "" {
		resp.Diagnostics.AddAttributeError(req.Path, summary, detail)
	}
}
