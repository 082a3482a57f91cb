package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// A StringCheck states its rule as both descriptions, checks known values only, and puts
// what its check finds on the attribute.
func TestStringCheck(t *testing.T) {
	checked := 0
	v := StringCheck("must be short", func(attr path.Path, value string) (string, string) {
		checked++
		if len(value) > 3 {
			return "Too long", attr.String() + " is " + value
		}
		return "", ""
	})
	ctx := context.Background()
	if v.Description(ctx) != "must be short" || v.MarkdownDescription(ctx) != "must be short" {
		t.Errorf("descriptions %q, %q", v.Description(ctx), v.MarkdownDescription(ctx))
	}
	for _, tc := range []struct {
		value   types.String
		checked int
		err     string
	}{
		{types.StringNull(), 0, ""},
		{types.StringUnknown(), 0, ""},
		{types.StringValue("abc"), 1, ""},
		{types.StringValue("abcd"), 1, "name is abcd"},
	} {
		checked = 0
		resp := &validator.StringResponse{}
		v.ValidateString(ctx, validator.StringRequest{Path: path.Root("name"), ConfigValue: tc.value}, resp)
		if checked != tc.checked {
			t.Errorf("%s: checked %d times, want %d", tc.value, checked, tc.checked)
		}
		errs := resp.Diagnostics.Errors()
		switch {
		case tc.err == "" && len(errs) > 0:
			t.Errorf("%s: %v", tc.value, errs)
		case tc.err != "" && (len(errs) != 1 || errs[0].Summary() != "Too long" || !strings.Contains(errs[0].Detail(), tc.err)):
			t.Errorf("%s: %v, want one error saying %q", tc.value, errs, tc.err)
		}
	}
}
