package provider

import (
	"context"
	"time"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
)

type traceLogObject struct {
	apm.ActionTraceLog
	zone *time.Location
}

var traceLogFields = append([]engine.Field[traceLogObject]{
	engine.Int64Field("log_id", "The manager's id of the entry; newer entries have higher ids.", func(l *traceLogObject) int64 { return l.LogID }),
	engine.StringField(attrUserID, "The user who acted.", func(l *traceLogObject) string { return l.UserID }),
	engine.StringField("action", "What the user did, such as `POST /rest/system`.", func(l *traceLogObject) string { return l.Action }),
	engine.StringField(attrTargetName, "The object acted on.", func(l *traceLogObject) string { return l.TargetName }),
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
	List: func(ctx context.Context, c *conn, config engine.Attrs) ([]traceLogObject, error) {
		logs, err := c.ActionTraceLogs(ctx, apm.TraceLogFilter{
			Start: wallClock(config.Str(attrStartDate), apm.LayoutQueryDate),
			End:   wallClock(config.Str(attrEndDate), apm.LayoutQueryDate),
		})
		if err != nil {
			return nil, err
		}
		loc := c.timeZone()
		out := make([]traceLogObject, 0, len(logs))
		for _, l := range logs {
			out = append(out, traceLogObject{ActionTraceLog: l, zone: loc})
		}
		return out, nil
	},
})
