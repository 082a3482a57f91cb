package engine

import (
	"context"
	"fmt"
	"math/big"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// wholeNumber checks that a number attribute holds a whole number that fits an int64,
// then runs the field's int64 rules on it: the attribute is a Number so that a fraction
// gets this error, naming the attribute and the value, rather than the framework's
// conversion error, which calls it a bug in the provider.
type wholeNumber struct{ rules []validator.Int64 }

func (v wholeNumber) Description(ctx context.Context) string {
	texts := []string{"must be a whole number"}
	for _, r := range v.rules {
		texts = append(texts, r.Description(ctx))
	}
	return strings.Join(texts, "; ")
}

func (v wholeNumber) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v wholeNumber) ValidateNumber(ctx context.Context, req validator.NumberRequest, resp *validator.NumberResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	f := req.ConfigValue.ValueBigFloat()
	n, accuracy := f.Int64()
	if !f.IsInt() || accuracy != big.Exact {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid whole number",
			fmt.Sprintf("Attribute %s must be a whole number, got: %s.", req.Path, f.Text('g', -1)))
		return
	}
	ireq := validator.Int64Request{Path: req.Path, PathExpression: req.PathExpression, Config: req.Config, ConfigValue: types.Int64Value(n)}
	for _, rule := range v.rules {
		var iresp validator.Int64Response
		rule.ValidateInt64(ctx, ireq, &iresp)
		resp.Diagnostics.Append(iresp.Diagnostics...)
	}
}
