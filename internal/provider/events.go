package provider

import (
	"context"
	"time"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
)

type eventObject struct {
	apm.AnalysisEvent
	zone *time.Location
}

func eventFields() []engine.Field[eventObject] {
	return append([]engine.Field[eventObject]{
		engine.Int64Field(attrEventID, "The manager's id of the event.", func(e *eventObject) int64 { return e.EventID }).
			ValidateInt64(int64validator.AtLeast(1)),
		engine.StringField(attrEventType, "Kind of event: `stuckthread`, `oom`, `fullgc` or `error`.", func(e *eventObject) string { return e.EventType }),
		engine.StringField(attrSystemName, "Name of the system of the server.", func(e *eventObject) string { return e.SystemName }),
		engine.StringField(attrServerName, "Name of the server the event happened on.", func(e *eventObject) string { return e.ServerName }),
		engine.StringField(attrMessage, "What happened.", func(e *eventObject) string { return e.Message }),
		engine.StringField("stack_trace", "The stack trace the manager recorded with the event; empty when it has none.",
			func(e *eventObject) string { return e.StackTrace }).In(engine.InDetail),
	}, createdAtFields("yyyy-MM-dd HH:mm:ss", func(e *eventObject) apm.Timestamp { return e.CreatedAt },
		func(e *eventObject) *time.Location { return e.zone })...)
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
		attrSystemName: optionalString("Only the events of this system's servers. A system without events, or unknown, gives an empty list."),
		attrEventType: optionalString("Only events of this kind: `stuckthread`, `oom`, `fullgc` or `error`.",
			stringvalidator.OneOf(apm.EventTypes()...)),
	}),
	List: func(ctx context.Context, c *conn, config engine.Attrs) ([]eventObject, error) {
		events, err := c.ListAnalysisEvents(ctx, apm.EventFilter{
			SystemName: config.Str(attrSystemName),
			EventType:  config.Str(attrEventType),
			Start:      wallClock(config.Str(attrStartDate), apm.LayoutQueryDate),
			End:        wallClock(config.Str(attrEndDate), apm.LayoutQueryDate),
		})
		if err != nil {
			return nil, err
		}
		loc := c.timeZone()
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
	Keys:        []string{attrEventID},
	Read: func(ctx context.Context, c *conn, config engine.Attrs) (*eventObject, error) {
		e, err := c.GetAnalysisEvent(ctx, config.Int64(attrEventID))
		if err != nil {
			return nil, err
		}
		return &eventObject{AnalysisEvent: *e, zone: c.timeZone()}, nil
	},
})
