package apm

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestNormalizeEventType(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{"stuckthread", EventTypeStuckThread, true},
		{"STUCK_THREAD", EventTypeStuckThread, true},
		{"Stuck Thread", EventTypeStuckThread, true},
		{"stuck-threads", EventTypeStuckThread, true},
		{"oom", EventTypeOOM, true},
		{"OutOfMemory", EventTypeOOM, true},
		{"OUT_OF_MEMORY_ERROR", EventTypeOOM, true},
		{"Full GC", EventTypeFullGC, true},
		{"FULL_GC", EventTypeFullGC, true},
		{"fullgc", EventTypeFullGC, true},
		{"ERROR", EventTypeError, true},
		{" deadlock ", "deadlock", false},
		{"", "", false},
	} {
		got, ok := NormalizeEventType(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("NormalizeEventType(%q) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
	if got := EventTypes(); strings.Join(got, ",") != "stuckthread,oom,fullgc,error" {
		t.Errorf("EventTypes() = %v", got)
	}
}

var filterTime = time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)

// Filters are validated before anything is sent and rendered as the spec's parameters.
func TestNotificationFilterQuery(t *testing.T) {
	for _, tc := range []struct {
		name   string
		filter NotificationFilter
		query  string // without key; "" for none
		err    string // "" for success
	}{
		{"none", NotificationFilter{}, "", ""},
		{"interval", NotificationFilter{Interval: 90 * time.Minute}, "interval=90", ""},
		{"dateTime", NotificationFilter{DateTime: filterTime}, "dateTime=20240506070809", ""},
		{"dateTime keeps its wall clock", NotificationFilter{DateTime: filterTime.In(time.FixedZone("X", 3600))}, "dateTime=20240506080809", ""},
		{"limit", NotificationFilter{Interval: time.Hour, Limit: 5}, "interval=60&limit=5", ""},
		{"part of a minute", NotificationFilter{Interval: 90 * time.Second}, "", "Interval must be a positive whole number of minutes, got 1m30s"},
		{"negative", NotificationFilter{Interval: -time.Minute}, "", "Interval must be a positive whole number of minutes, got -1m0s"},
		{"both", NotificationFilter{Interval: time.Minute, DateTime: filterTime}, "", "Interval and DateTime are alternatives; set only one of them"},
		{"negative limit", NotificationFilter{Limit: -1}, "", "Limit must be positive, got -1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv, rec := serve(t, func(w http.ResponseWriter, _ *http.Request, _ int) { reply(w, 200, `{"notifications":[]}`) })
			_, err := newTestClient(t, srv.URL).ListNotifications(context.Background(), tc.filter)
			if tc.err != "" {
				if err == nil || err.Error() != "notification filter: "+tc.err || rec.count() != 0 {
					t.Fatalf("err = %v after %d requests, want %q and none", err, rec.count(), tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := queryWithoutKey(t, rec.all()[0].Query); got != tc.query {
				t.Errorf("query %q, want %q", got, tc.query)
			}
		})
	}
}

func TestEventFilterQuery(t *testing.T) {
	day := func(d int) time.Time { return time.Date(2024, 5, d, 23, 59, 0, 0, time.UTC) }
	for _, tc := range []struct {
		name   string
		filter EventFilter
		query  string
		err    string
	}{
		{"none", EventFilter{}, "", ""},
		{"all", EventFilter{SystemName: "shop 1", EventType: "Full GC", Start: day(5), End: day(6)},
			"endDate=20240506&eventType=fullgc&startDate=20240505&systemName=shop+1", ""},
		{"same day", EventFilter{Start: day(6), End: day(6)}, "endDate=20240506&startDate=20240506", ""},
		{"open end", EventFilter{Start: day(6)}, "startDate=20240506", ""},
		{"unknown type", EventFilter{EventType: "deadlock"}, "", `unknown event type "deadlock" (want one of stuckthread, oom, fullgc, error)`},
		{"end before start", EventFilter{Start: day(6), End: day(5)}, "", "end date 20240505 is before start date 20240506"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv, rec := serve(t, func(w http.ResponseWriter, _ *http.Request, _ int) { reply(w, 200, `{"events":[]}`) })
			_, err := newTestClient(t, srv.URL).ListAnalysisEvents(context.Background(), tc.filter)
			if tc.err != "" {
				if err == nil || err.Error() != "event filter: "+tc.err || rec.count() != 0 {
					t.Fatalf("err = %v after %d requests, want %q and none", err, rec.count(), tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := queryWithoutKey(t, rec.all()[0].Query); got != tc.query {
				t.Errorf("query %q, want %q", got, tc.query)
			}
		})
	}
}

func TestEventCalls(t *testing.T) {
	runCallCases(t, eventCalls())
}

// eventCalls are the reads of notifications and analysis events;
// TestCoverageClientCallsSendTheirEndpoint runs them too.
func eventCalls() []callCase {
	created := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	return []callCase{
		{"ListNotifications", func(ctx context.Context, c *Client) (any, error) {
			return c.ListNotifications(ctx, NotificationFilter{})
		}, "/rest/notification",
			`{"notifications":[{"id":"7","type":"WARNING","message":"m","targetName":"n1","createdAt":"20240506070809"},` +
				`{"id":6,"type":"INFO","createdAt":"2024-05-06 07:08:09"},{"id":5,"createdAt":"later"}]}`,
			[]Notification{
				{ID: 7, Type: "WARNING", Message: "m", TargetName: "n1", CreatedAt: Timestamp{Raw: "20240506070809", Time: created}},
				{ID: 6, Type: "INFO", CreatedAt: Timestamp{Raw: "2024-05-06 07:08:09", Time: created}},
				{ID: 5, CreatedAt: Timestamp{Raw: "later"}},
			}},
		{"ListAnalysisEvents", func(ctx context.Context, c *Client) (any, error) {
			return c.ListAnalysisEvents(ctx, EventFilter{})
		}, "/rest/analysis/event",
			`{"events":[{"eventId":2,"eventType":"STUCK_THREAD","systemName":"shop","serverName":"was-01","message":"m","createdAt":"2024-05-06 07:08:09"},` +
				`{"eventId":"1","eventType":"Deadlock"}]}`,
			[]AnalysisEvent{
				{EventID: 2, EventType: EventTypeStuckThread, SystemName: "shop", ServerName: "was-01", Message: "m", CreatedAt: Timestamp{Raw: "2024-05-06 07:08:09", Time: created}},
				{EventID: 1, EventType: "Deadlock"},
			}},
		{"GetAnalysisEvent", func(ctx context.Context, c *Client) (any, error) { return c.GetAnalysisEvent(ctx, 42) },
			"/rest/analysis/event/42",
			`{"eventId":42,"eventType":"OutOfMemory","systemName":"shop","serverName":"was-01","message":"m","stackTrace":"at x\n\tat y","createdAt":"2024-05-06 07:08:09"}`,
			&AnalysisEvent{EventID: 42, EventType: EventTypeOOM, SystemName: "shop", ServerName: "was-01", Message: "m",
				StackTrace: "at x\n\tat y", CreatedAt: Timestamp{Raw: "2024-05-06 07:08:09", Time: created}}},
		{"GetAnalysisEvent terse", func(ctx context.Context, c *Client) (any, error) { return c.GetAnalysisEvent(ctx, -3) },
			"/rest/analysis/event/-3", `{"eventType":"Full GC"}`,
			&AnalysisEvent{EventID: -3, EventType: EventTypeFullGC}},
	}
}
