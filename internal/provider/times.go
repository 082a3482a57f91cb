package provider

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// Data sources of what the manager records and the provider only reads: licenses,
// notifications, analysis events and the action trace log. The manager's times carry no
// zone (api/decisions.md "Time formats"): each is exposed as the manager gives it, and as
// RFC 3339 read in the provider's time_zone.

// defaultTimeZone is the time_zone of a provider that sets none.
const defaultTimeZone = "UTC"

// loadTimeZone reads an IANA time zone name. "Local" is refused: it would depend on the
// machine that runs Terraform.
func loadTimeZone(name string) (*time.Location, error) {
	if strings.TrimSpace(name) == "" || strings.EqualFold(name, "Local") {
		return nil, fmt.Errorf("%q is not an IANA time zone name such as Europe/Berlin or UTC", name)
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, fmt.Errorf("%q is not an IANA time zone name such as Europe/Berlin or UTC: %w", name, err)
	}
	return loc, nil
}

// timeZoneValidator accepts IANA time zone names.
func timeZoneValidator() validator.String {
	return engine.StringCheck("must be an IANA time zone name such as Europe/Berlin or UTC", func(_ path.Path, raw string) (string, string) {
		if _, err := loadTimeZone(raw); err != nil {
			return "Invalid time zone", err.Error()
		}
		return "", ""
	})
}

// layoutValidator accepts a string in a Go time layout, with the human spelling of the
// layout for messages.
func layoutValidator(layout, human string) validator.String {
	return engine.StringCheck("must be a valid "+human+" value", func(_ path.Path, s string) (string, string) {
		if _, err := time.Parse(layout, s); err == nil && len(s) == len(layout) {
			return "", ""
		}
		return "Invalid " + human + " value",
			fmt.Sprintf("%q is not a valid %s value, for example %s.", s, human, time.Date(2024, 3, 31, 13, 45, 0, 0, time.UTC).Format(layout))
	})
}

var (
	queryDateRule = layoutValidator(apm.LayoutQueryDate, "yyyyMMdd")
	compactRule   = layoutValidator(apm.LayoutCompact, "yyyyMMddHHmmss")
)

// wallClock reads a manager's time value (its wall clock, no zone); zero when s is empty.
func wallClock(s, layout string) time.Time {
	t, err := time.ParseInLocation(layout, s, time.UTC)
	if err != nil {
		return time.Time{}
	}
	return t
}

// inZone reads the manager's wall-clock time in loc and renders it in RFC 3339; "" when
// the manager's value could not be read.
func inZone(ts apm.Timestamp, loc *time.Location) string {
	if ts.IsZero() {
		return ""
	}
	t := ts.Time
	return time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), loc).Format(time.RFC3339)
}

// zonedString is a string field that is null when get returns "".
func zonedString[T any](name, description string, get func(*T) string) engine.Field[T] {
	return engine.StringField(name, description, get).NullWhen(func(o *T) bool { return get(o) == "" })
}

const zoneNote = " The manager's times carry no time zone: they are its local wall clock."

func createdAtFields[T any](layout string, get func(*T) apm.Timestamp, zone func(*T) *time.Location) []engine.Field[T] {
	return []engine.Field[T]{
		engine.StringField(attrCreatedAt, "When the record was created, as the manager gives it (`"+layout+"`)."+zoneNote,
			func(o *T) string { return get(o).Raw }),
		zonedString("created_at_rfc3339", "`created_at` read in the provider's `time_zone` and written in RFC 3339, such as `2024-03-31T13:45:00+02:00`; "+
			"null when the manager's value is not in a known format.",
			func(o *T) string { return inZone(get(o), zone(o)) }),
	}
}

// optionalInt64 is a data source filter.
func optionalInt64(description string, rules ...validator.Int64) dschema.Attribute {
	return dschema.Int64Attribute{MarkdownDescription: description, Optional: true, Validators: rules}
}

// dateRangeValidator refuses an end_date before start_date (both yyyyMMdd).
type dateRangeValidator struct{}

func (dateRangeValidator) Description(context.Context) string {
	return "end_date must not be before start_date"
}

func (v dateRangeValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (dateRangeValidator) ValidateDataSource(ctx context.Context, req datasource.ValidateConfigRequest, resp *datasource.ValidateConfigResponse) {
	var start, end types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root(attrStartDate), &start)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root(attrEndDate), &end)...)
	if resp.Diagnostics.HasError() || start.IsNull() || start.IsUnknown() || end.IsNull() || end.IsUnknown() {
		return
	}
	s, e := wallClock(start.ValueString(), apm.LayoutQueryDate), wallClock(end.ValueString(), apm.LayoutQueryDate)
	if !s.IsZero() && !e.IsZero() && e.Before(s) {
		resp.Diagnostics.AddAttributeError(path.Root(attrEndDate), "Invalid date range",
			fmt.Sprintf("end_date %s is before start_date %s; both days are included, so end_date may equal start_date but not precede it.", end.ValueString(), start.ValueString()))
	}
}

var dateFilters = map[string]dschema.Attribute{
	attrStartDate: optionalString("Only records of this day of the manager's clock or later, as `yyyyMMdd`.", queryDateRule),
	attrEndDate:   optionalString("Only records of this day of the manager's clock or earlier, as `yyyyMMdd`; not before `start_date`.", queryDateRule),
}

func withDateFilters(others map[string]dschema.Attribute) map[string]dschema.Attribute {
	out := map[string]dschema.Attribute{}
	for k, v := range dateFilters {
		out[k] = v
	}
	for k, v := range others {
		out[k] = v
	}
	return out
}
