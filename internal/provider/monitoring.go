package provider

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/datasourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
)

// Data sources of what the manager records and the provider only reads: licenses,
// notifications, analysis events and the action trace log. The manager's times carry no
// zone (api/decisions.md "Time formats"): each is exposed as the manager gives it, and as
// RFC 3339 read in the provider's time_zone.

func monitoringDataSources() []func() datasource.DataSource {
	return []func() datasource.DataSource{
		newLicensesDataSource,
		newNotificationsDataSource,
		newAnalysisEventsDataSource,
		newAnalysisEventDataSource,
		newActionTraceLogsDataSource,
	}
}

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
type timeZoneValidator struct{}

func (timeZoneValidator) Description(context.Context) string {
	return "must be an IANA time zone name such as Europe/Berlin or UTC"
}

func (v timeZoneValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (timeZoneValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if _, err := loadTimeZone(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid time zone", err.Error())
	}
}

// layoutValidator accepts a string in a Go time layout, with the human spelling of the
// layout for messages.
type layoutValidator struct{ layout, human string }

func (v layoutValidator) Description(context.Context) string {
	return "must be a valid " + v.human + " value"
}

func (v layoutValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v layoutValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	s := req.ConfigValue.ValueString()
	if _, err := time.Parse(v.layout, s); err != nil || len(s) != len(v.layout) {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid "+v.human+" value",
			fmt.Sprintf("%q is not a valid %s value, for example %s.", s, v.human, time.Date(2024, 3, 31, 13, 45, 0, 0, time.UTC).Format(v.layout)))
	}
}

var (
	queryDateRule = layoutValidator{layout: apm.LayoutQueryDate, human: "yyyyMMdd"}
	compactRule   = layoutValidator{layout: apm.LayoutCompact, human: "yyyyMMddHHmmss"}
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
	f := engine.StringField(name, description, get)
	f.Value = func(o *T) tftypes.Value {
		if s := get(o); s != "" {
			return tftypes.NewValue(tftypes.String, s)
		}
		return tftypes.NewValue(tftypes.String, nil)
	}
	return f
}

const zoneNote = " The manager's times carry no time zone: they are its local wall clock."

func createdAtFields[T any](layout string, get func(*T) apm.Timestamp, zone func(*T) *time.Location) []engine.Field[T] {
	return []engine.Field[T]{
		engine.StringField("created_at", "When the record was created, as the manager gives it (`"+layout+"`)."+zoneNote,
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
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("start_date"), &start)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("end_date"), &end)...)
	if resp.Diagnostics.HasError() || start.IsNull() || start.IsUnknown() || end.IsNull() || end.IsUnknown() {
		return
	}
	s, e := wallClock(start.ValueString(), apm.LayoutQueryDate), wallClock(end.ValueString(), apm.LayoutQueryDate)
	if !s.IsZero() && !e.IsZero() && e.Before(s) {
		resp.Diagnostics.AddAttributeError(path.Root("end_date"), "Invalid date range",
			fmt.Sprintf("end_date %s is before start_date %s; both days are included, so end_date may equal start_date but not precede it.", end.ValueString(), start.ValueString()))
	}
}

// notificationFilterValidator refuses interval together with date_time, with the
// datasourcevalidator.Conflicting check and a message that says what each one means.
type notificationFilterValidator struct{}

func (notificationFilterValidator) Description(context.Context) string {
	return "interval and date_time cannot be set together"
}

func (v notificationFilterValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (notificationFilterValidator) ValidateDataSource(ctx context.Context, req datasource.ValidateConfigRequest, resp *datasource.ValidateConfigResponse) {
	var inner datasource.ValidateConfigResponse
	datasourcevalidator.Conflicting(path.MatchRoot("interval"), path.MatchRoot("date_time")).ValidateDataSource(ctx, req, &inner)
	if inner.Diagnostics.HasError() {
		resp.Diagnostics.AddAttributeError(path.Root("date_time"), "Conflicting notification filters",
			"interval and date_time are alternatives: interval selects the notifications of the last N minutes, "+
				"date_time those created at or after a time (yyyyMMddHHmmss). Set only one of them.")
	}
}

// Licenses.

// licenseObject is a license with its days left, counted in the provider's time zone.
type licenseObject struct {
	apm.License
	days *int64 // nil when the expiry date could not be read
}

var licenseFields = []engine.Field[licenseObject]{
	engine.StringField("node_name", "Name of the node the license belongs to.", func(l *licenseObject) string { return l.NodeName }),
	engine.StringField("license_type", "Type of license, such as `Standard`, `Enterprise` or `Trial`.", func(l *licenseObject) string { return l.LicenseType }),
	engine.StringField("expire_date", "Last day of the license, as the manager gives it (`yyyy-MM-dd`)."+zoneNote,
		func(l *licenseObject) string { return l.ExpireDate.Raw }),
	engine.Int64Field("max_cpu", "Number of CPUs the license allows.", func(l *licenseObject) int64 { return l.MaxCPU }),
	daysField(),
}

func daysField() engine.Field[licenseObject] {
	f := engine.Int64Field("days_until_expiry",
		"Days from today, in the provider's `time_zone`, to `expire_date`: `0` on the expiry day, negative once the license has expired. "+
			"Null when the manager's date is not in a known format. Compare it in a `check` block to be warned ahead of expiry.",
		func(l *licenseObject) int64 { return 0 })
	f.Value = func(l *licenseObject) tftypes.Value {
		if l.days == nil {
			return tftypes.NewValue(tftypes.Number, nil)
		}
		return engine.Int64Value(*l.days)
	}
	return f
}

// daysUntil counts the calendar days from today in loc to the date day names.
func daysUntil(day apm.Timestamp, now time.Time, loc *time.Location) *int64 {
	if day.IsZero() {
		return nil
	}
	y, m, d := now.In(loc).Date()
	today := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	t := day.Time
	expiry := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	n := int64(expiry.Sub(today).Hours() / 24)
	return &n
}

var newLicensesDataSource = engine.NewListDataSource(listDataSourceType[licenseObject]{
	Name: "licenses",
	Description: "Lists the licenses of the manager's nodes, sorted by node name, with the days left until each expires. " +
		"Use it in a `check` block to warn ahead of an expiry.",
	ListName:        "licenses",
	ListDescription: "The licenses, one per node.",
	Fields:          licenseFields,
	List: func(ctx context.Context, m *conn, _ engine.Attrs) ([]licenseObject, error) {
		licenses, err := m.ListLicenses(ctx)
		if err != nil {
			return nil, err
		}
		now, loc := time.Now(), m.timeZone()
		out := make([]licenseObject, 0, len(licenses))
		for _, l := range licenses {
			out = append(out, licenseObject{License: l, days: daysUntil(l.ExpireDate, now, loc)})
		}
		slices.SortStableFunc(out, func(a, b licenseObject) int { return strings.Compare(a.NodeName, b.NodeName) })
		return out, nil
	},
})

// Notifications.

type notificationObject struct {
	apm.Notification
	zone *time.Location
}

var notificationFields = append([]engine.Field[notificationObject]{
	engine.Int64Field("id", "The manager's id of the notification; newer ones have higher ids.", func(n *notificationObject) int64 { return n.ID }),
	engine.StringField("type", "Severity: `INFO`, `WARNING` or `CRITICAL`.", func(n *notificationObject) string { return n.Type }),
	engine.StringField("message", "What happened.", func(n *notificationObject) string { return n.Message }),
	engine.StringField("target_name", "The node or server concerned.", func(n *notificationObject) string { return n.TargetName }),
}, createdAtFields("yyyyMMddHHmmss", func(n *notificationObject) apm.Timestamp { return n.CreatedAt },
	func(n *notificationObject) *time.Location { return n.zone })...)

var newNotificationsDataSource = engine.NewListDataSource(listDataSourceType[notificationObject]{
	Validators: []datasource.ConfigValidator{notificationFilterValidator{}},
	Name:       "notifications",
	Description: "Lists the manager's notifications (nodes and servers registered, started, stopped, thresholds crossed, analysis events), newest first. " +
		"Filter by `interval` or by `date_time`, not both." + zoneNote,
	ListName:        "notifications",
	ListDescription: "The notifications, newest first.",
	Fields:          notificationFields,
	Filters: map[string]dschema.Attribute{
		"interval": optionalInt64("Only the notifications of the last `interval` minutes (at least `1`). Conflicts with `date_time`.",
			int64validator.AtLeast(1)),
		"date_time": optionalString("Only the notifications created at or after this time of the manager's clock, as `yyyyMMddHHmmss` "+
			"(the manager's local time, without zone). Conflicts with `interval`.", compactRule),
		"limit": optionalInt64("At most this many notifications, the newest (at least `1`). Without it, all that the manager keeps.",
			int64validator.AtLeast(1)),
	},
	List: func(ctx context.Context, m *conn, config engine.Attrs) ([]notificationObject, error) {
		filter := apm.NotificationFilter{
			Interval: time.Duration(config.Int64("interval")) * time.Minute,
			DateTime: wallClock(config.Str("date_time"), apm.LayoutCompact),
			Limit:    int(config.Int64("limit")),
		}
		list, err := m.ListNotifications(ctx, filter)
		if err != nil {
			return nil, err
		}
		loc := m.timeZone()
		out := make([]notificationObject, 0, len(list))
		for _, n := range list {
			out = append(out, notificationObject{Notification: n, zone: loc})
		}
		return out, nil
	},
})

// Analysis events.

type eventObject struct {
	apm.AnalysisEvent
	zone *time.Location
}

func eventFields() []engine.Field[eventObject] {
	return append([]engine.Field[eventObject]{
		engine.Int64Field("event_id", "The manager's id of the event.", func(e *eventObject) int64 { return e.EventID }).
			ValidateInt64(int64validator.AtLeast(1)),
		engine.StringField("event_type", "Kind of event: `stuckthread`, `oom`, `fullgc` or `error`.", func(e *eventObject) string { return e.EventType }),
		engine.StringField("system_name", "Name of the system of the server.", func(e *eventObject) string { return e.SystemName }),
		engine.StringField("server_name", "Name of the server the event happened on.", func(e *eventObject) string { return e.ServerName }),
		engine.StringField("message", "What happened.", func(e *eventObject) string { return e.Message }),
		engine.StringField("stack_trace", "The stack trace the manager recorded with the event; empty when it has none.",
			func(e *eventObject) string { return e.StackTrace }).In(engine.InDetail),
	}, createdAtFields("yyyy-MM-dd HH:mm:ss", func(e *eventObject) apm.Timestamp { return e.CreatedAt },
		func(e *eventObject) *time.Location { return e.zone })...)
}

var dateFilters = map[string]dschema.Attribute{
	"start_date": optionalString("Only records of this day of the manager's clock or later, as `yyyyMMdd`.", queryDateRule),
	"end_date":   optionalString("Only records of this day of the manager's clock or earlier, as `yyyyMMdd`; not before `start_date`.", queryDateRule),
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

var newAnalysisEventsDataSource = engine.NewListDataSource(listDataSourceType[eventObject]{
	Validators: []datasource.ConfigValidator{dateRangeValidator{}},
	Name:       "analysis_events",
	Description: "Lists the manager's server analysis events (stuck threads, out-of-memory errors, full garbage collections, errors), newest first, " +
		"without their stack traces (see `apm_analysis_event`)." + zoneNote,
	ListName:        "events",
	ListDescription: "The events, newest first.",
	Fields:          eventFields(),
	Filters: withDateFilters(map[string]dschema.Attribute{
		"system_name": optionalString("Only the events of this system's servers. A system without events, or unknown, gives an empty list."),
		"event_type": optionalString("Only events of this kind: `stuckthread`, `oom`, `fullgc` or `error`.",
			stringvalidator.OneOf(apm.EventTypes()...)),
	}),
	List: func(ctx context.Context, m *conn, config engine.Attrs) ([]eventObject, error) {
		events, err := m.ListAnalysisEvents(ctx, apm.EventFilter{
			SystemName: config.Str("system_name"),
			EventType:  config.Str("event_type"),
			Start:      wallClock(config.Str("start_date"), apm.LayoutQueryDate),
			End:        wallClock(config.Str("end_date"), apm.LayoutQueryDate),
		})
		if err != nil {
			return nil, err
		}
		loc := m.timeZone()
		out := make([]eventObject, 0, len(events))
		for _, e := range events {
			out = append(out, eventObject{AnalysisEvent: e, zone: loc})
		}
		return out, nil
	},
})

var newAnalysisEventDataSource = engine.NewDataSource(dataSourceType[eventObject]{
	Name:        "analysis_event",
	Description: "Reads one server analysis event with its stack trace." + zoneNote,
	Fields:      eventFields(),
	Keys:        []string{"event_id"},
	Read: func(ctx context.Context, m *conn, config engine.Attrs) (*eventObject, error) {
		e, err := m.GetAnalysisEvent(ctx, config.Int64("event_id"))
		if err != nil {
			return nil, err
		}
		return &eventObject{AnalysisEvent: *e, zone: m.timeZone()}, nil
	},
})

// Action trace log.

type traceLogObject struct {
	apm.ActionTraceLog
	zone *time.Location
}

var traceLogFields = append([]engine.Field[traceLogObject]{
	engine.Int64Field("log_id", "The manager's id of the entry; newer entries have higher ids.", func(l *traceLogObject) int64 { return l.LogID }),
	engine.StringField("user_id", "The user who acted.", func(l *traceLogObject) string { return l.UserID }),
	engine.StringField("action", "What the user did, such as `POST /rest/system`.", func(l *traceLogObject) string { return l.Action }),
	engine.StringField("target_name", "The object acted on.", func(l *traceLogObject) string { return l.TargetName }),
	engine.StringField("result", "`SUCCESS` or `FAILURE`.", func(l *traceLogObject) string { return l.Result }),
}, createdAtFields("yyyy-MM-dd HH:mm:ss", func(l *traceLogObject) apm.Timestamp { return l.CreatedAt },
	func(l *traceLogObject) *time.Location { return l.zone })...)

var newActionTraceLogsDataSource = engine.NewListDataSource(listDataSourceType[traceLogObject]{
	Validators:      []datasource.ConfigValidator{dateRangeValidator{}},
	Name:            "action_trace_logs",
	Description:     "Lists the manager's action trace log: who changed what, and whether it succeeded, in the manager's order (oldest first)." + zoneNote,
	ListName:        "logs",
	ListDescription: "The log entries.",
	Fields:          traceLogFields,
	Filters:         withDateFilters(nil),
	List: func(ctx context.Context, m *conn, config engine.Attrs) ([]traceLogObject, error) {
		logs, err := m.ActionTraceLogs(ctx, apm.TraceLogFilter{
			Start: wallClock(config.Str("start_date"), apm.LayoutQueryDate),
			End:   wallClock(config.Str("end_date"), apm.LayoutQueryDate),
		})
		if err != nil {
			return nil, err
		}
		loc := m.timeZone()
		out := make([]traceLogObject, 0, len(logs))
		for _, l := range logs {
			out = append(out, traceLogObject{ActionTraceLog: l, zone: loc})
		}
		return out, nil
	},
})
