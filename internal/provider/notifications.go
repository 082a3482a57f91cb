package provider

import (
	"context"
	"time"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
	"github.com/hashicorp/terraform-plugin-framework-validators/datasourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
)

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
	datasourcevalidator.Conflicting(path.MatchRoot(attrInterval), path.MatchRoot(attrDateTime)).ValidateDataSource(ctx, req, &inner)
	if inner.Diagnostics.HasError() {
		resp.Diagnostics.AddAttributeError(path.Root(attrDateTime), "Conflicting notification filters",
			"interval and date_time are alternatives: interval selects the notifications of the last N minutes, "+
				"date_time those created at or after a time (yyyyMMddHHmmss). Set only one of them.")
	}
}

type notificationObject struct {
	apm.Notification
	zone *time.Location
}

var notificationFields = append([]engine.Field[notificationObject]{
	engine.Int64Field(attrID, "The manager's id of the notification; newer ones have higher ids.", func(n *notificationObject) int64 { return n.ID }),
	engine.StringField("type", "Severity: `INFO`, `WARNING` or `CRITICAL`.", func(n *notificationObject) string { return n.Type }),
	engine.StringField(attrMessage, "What happened.", func(n *notificationObject) string { return n.Message }),
	engine.StringField(attrTargetName, "The node or server concerned.", func(n *notificationObject) string { return n.TargetName }),
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
		attrInterval: optionalInt64("Only the notifications of the last `interval` minutes (at least `1`). Conflicts with `date_time`.",
			int64validator.AtLeast(1)),
		attrDateTime: optionalString("Only the notifications created at or after this time of the manager's clock, as `yyyyMMddHHmmss` "+
			"(the manager's local time, without zone). Conflicts with `interval`.", compactRule),
		attrLimit: optionalInt64("At most this many notifications, the newest (at least `1`). Without it, all that the manager keeps.",
			int64validator.AtLeast(1)),
	},
	List: func(ctx context.Context, c *conn, config engine.Attrs) ([]notificationObject, error) {
		filter := apm.NotificationFilter{
			Interval: time.Duration(config.Int64(attrInterval)) * time.Minute,
			DateTime: wallClock(config.Str(attrDateTime), apm.LayoutCompact),
			Limit:    int(config.Int64(attrLimit)),
		}
		list, err := c.ListNotifications(ctx, filter)
		if err != nil {
			return nil, err
		}
		loc := c.timeZone()
		out := make([]notificationObject, 0, len(list))
		for _, n := range list {
			out = append(out, notificationObject{Notification: n, zone: loc})
		}
		return out, nil
	},
})
