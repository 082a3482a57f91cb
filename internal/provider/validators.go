package provider

import (
	"context"
	"fmt"
	"net/netip"
	"regexp"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// Naming rules of the manager (api/decisions.md), checked at plan time so that bad input never
// reaches the manager.
var (
	systemNamePattern = regexp.MustCompile(`^[A-Za-z0-9_-]{1,20}$`)
	nodeNamePattern   = regexp.MustCompile(`^[A-Za-z0-9._-]{1,63}$`)
)

func systemNameValidators() []validator.String {
	return []validator.String{stringvalidator.RegexMatches(systemNamePattern,
		"must be 1 to 20 characters, each a letter, a digit, '-' or '_'")}
}

func nodeNameValidators() []validator.String {
	return []validator.String{
		stringvalidator.RegexMatches(nodeNamePattern, "must be 1 to 63 characters, each a letter, a digit, '.', '-' or '_'"),
		// As path segments these are cleaned away: such a node could never be read back.
		stringvalidator.NoneOf(".", ".."),
	}
}

func portValidators() []validator.Int64 {
	return []validator.Int64{int64validator.Between(1, 65535)}
}

// ipAddressValidator accepts an IPv4 or IPv6 address literal.
type ipAddressValidator struct{}

func (ipAddressValidator) Description(context.Context) string {
	return "value must be an IPv4 or IPv6 address, such as 10.0.0.11"
}

func (v ipAddressValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (v ipAddressValidator) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if _, err := netip.ParseAddr(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid IP address",
			fmt.Sprintf("Attribute %s %s, got: %q.", req.Path, v.Description(ctx), req.ConfigValue.ValueString()))
	}
}

// durationValidator accepts a positive Go duration such as "30s".
type durationValidator struct{}

func (durationValidator) Description(context.Context) string {
	return `value must be a positive duration such as "30s", "1m30s" or "2m"`
}

func (v durationValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v durationValidator) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if d, err := time.ParseDuration(req.ConfigValue.ValueString()); err != nil || d <= 0 {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid duration",
			fmt.Sprintf("Attribute %s %s, got: %q.", req.Path, v.Description(ctx), req.ConfigValue.ValueString()))
	}
}

// sameIP reports whether two spellings name the same address ("::1" and "0:0::1"), so
// that a manager that normalises addresses does not cause a perpetual diff.
func sameIP(a, b string) bool {
	x, errA := netip.ParseAddr(a)
	y, errB := netip.ParseAddr(b)
	return errA == nil && errB == nil && x == y
}
