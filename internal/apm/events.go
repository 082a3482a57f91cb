package apm

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// Notifications and analysis events (spec 4.9 and part 6): records the manager keeps and
// the client only reads.

// Analysis event types, as the event list takes them in its eventType filter
// (api/decisions.md).
const (
	EventTypeStuckThread = "stuckthread"
	EventTypeOOM         = "oom"
	EventTypeFullGC      = "fullgc"
	EventTypeError       = "error"
)

// EventTypes returns the canonical analysis event types.
func EventTypes() []string {
	return []string{EventTypeStuckThread, EventTypeOOM, EventTypeFullGC, EventTypeError}
}

// eventTypeSpellings maps squashed spellings (lower case, letters and digits only) to the
// canonical type: the spec only describes the kinds ("stuck thread, out-of-memory, full GC"),
// so a real manager may well answer "STUCK_THREAD", "OutOfMemory" or "Full GC".
var eventTypeSpellings = map[string]string{
	"stuckthread":           EventTypeStuckThread,
	"stuckthreads":          EventTypeStuckThread,
	"stuck":                 EventTypeStuckThread,
	"oom":                   EventTypeOOM,
	"outofmemory":           EventTypeOOM,
	"outofmemoryerror":      EventTypeOOM,
	"fullgc":                EventTypeFullGC,
	"fullgarbagecollection": EventTypeFullGC,
	"error":                 EventTypeError,
	"errors":                EventTypeError,
}

// NormalizeEventType returns the canonical type for any accepted spelling of one
// ("STUCK_THREAD", "OutOfMemory", "Full GC", ...). For an unknown value it returns the value
// trimmed and false.
func NormalizeEventType(s string) (string, bool) {
	squashed := strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return unicode.ToLower(r)
		}
		return -1
	}, s)
	if t, ok := eventTypeSpellings[squashed]; ok {
		return t, true
	}
	return strings.TrimSpace(s), false
}

// AnalysisEvent is a server analysis event (spec part 2).
type AnalysisEvent struct {
	EventID    int64
	EventType  string // canonical (EventTypeStuckThread, ...) when recognised, else as sent
	SystemName string
	ServerName string
	Message    string
	StackTrace string    // detail only; empty in the list
	CreatedAt  Timestamp // LayoutDateTime
}

// EventFilter selects analysis events; zero fields do not filter.
type EventFilter struct {
	SystemName string
	EventType  string // any spelling NormalizeEventType accepts; sent in canonical form
	// Start and End select by day, both ends inclusive; only the date is sent (yyyyMMdd),
	// from the wall clock of the value as given (the manager's clock has no zone).
	Start, End time.Time
}

// Notification is a system event notification (spec part 2).
type Notification struct {
	ID         int64
	Type       string // severity label, such as INFO, WARNING or CRITICAL
	Message    string
	TargetName string    // the node or server concerned
	CreatedAt  Timestamp // LayoutCompact
}

// NotificationFilter selects notifications. The spec offers filtering "by interval or by
// dateTime": the client treats the two as alternatives and refuses to combine them.
type NotificationFilter struct {
	// Interval selects the notifications of the last Interval before now. It is sent in
	// minutes, so it must be a positive whole number of minutes; 0 does not filter.
	Interval time.Duration
	// DateTime is the reference time: notifications created at or after it. It is sent as
	// yyyyMMddHHmmss from the wall clock of the value as given; zero does not filter.
	DateTime time.Time
	// Limit is the maximum number of notifications returned; 0 means no limit.
	Limit int
}

// query validates the filter and renders it; an invalid filter is never sent.
func (f NotificationFilter) query() (url.Values, error) {
	switch {
	case f.Interval < 0 || f.Interval%time.Minute != 0:
		return nil, fmt.Errorf("notification filter: Interval must be a positive whole number of minutes, got %s", f.Interval)
	case f.Interval > 0 && !f.DateTime.IsZero():
		return nil, errors.New("notification filter: Interval and DateTime are alternatives; set only one of them")
	case f.Limit < 0:
		return nil, fmt.Errorf("notification filter: Limit must be positive, got %d", f.Limit)
	}
	q := url.Values{}
	if f.Interval > 0 {
		q.Set("interval", strconv.FormatInt(int64(f.Interval/time.Minute), 10))
	}
	if !f.DateTime.IsZero() {
		q.Set("dateTime", f.DateTime.Format(LayoutCompact))
	}
	if f.Limit > 0 {
		q.Set("limit", strconv.Itoa(f.Limit))
	}
	return q, nil
}

// query validates the filter and renders it; an invalid filter is never sent.
func (f EventFilter) query() (url.Values, error) {
	q := url.Values{}
	if f.SystemName != "" {
		q.Set("systemName", f.SystemName)
	}
	if f.EventType != "" {
		t, ok := NormalizeEventType(f.EventType)
		if !ok {
			return nil, fmt.Errorf("event filter: unknown event type %q (want one of %s)", shorten(f.EventType), strings.Join(EventTypes(), ", "))
		}
		q.Set("eventType", t)
	}
	if err := setDateRange(q, "event filter", f.Start, f.End); err != nil {
		return nil, err
	}
	return q, nil
}

type wireNotification struct {
	ID         flexInt    `json:"id"`
	Type       flexString `json:"type"`
	Message    flexString `json:"message"`
	TargetName flexString `json:"targetName"`
	CreatedAt  flexString `json:"createdAt"`
}

func (w wireNotification) notification() Notification {
	return Notification{
		ID:         int64(w.ID),
		Type:       string(w.Type),
		Message:    string(w.Message),
		TargetName: string(w.TargetName),
		CreatedAt:  parseTimestamp(string(w.CreatedAt), LayoutCompact),
	}
}

type wireAnalysisEvent struct {
	EventID    flexInt    `json:"eventId"`
	EventType  flexString `json:"eventType"`
	SystemName flexString `json:"systemName"`
	ServerName flexString `json:"serverName"`
	Message    flexString `json:"message"`
	StackTrace flexString `json:"stackTrace"`
	CreatedAt  flexString `json:"createdAt"`
}

func (w wireAnalysisEvent) event() AnalysisEvent {
	eventType, _ := NormalizeEventType(string(w.EventType))
	return AnalysisEvent{
		EventID:    int64(w.EventID),
		EventType:  eventType,
		SystemName: string(w.SystemName),
		ServerName: string(w.ServerName),
		Message:    string(w.Message),
		StackTrace: string(w.StackTrace),
		CreatedAt:  parseTimestamp(string(w.CreatedAt), LayoutDateTime),
	}
}

// ListNotifications returns the notifications the filter selects (GET /rest/notification),
// in the manager's order. An invalid filter is an error before any request. The result is
// never nil.
func (c *Client) ListNotifications(ctx context.Context, filter NotificationFilter) ([]Notification, error) {
	q, err := filter.query()
	if err != nil {
		return nil, err
	}
	return getList(ctx, c, "/rest/notification", q, "notifications", wireNotification.notification)
}

// ListAnalysisEvents returns the analysis events the filter selects (GET
// /rest/analysis/event), without stack traces. An invalid filter is an error before any
// request. The result is never nil.
func (c *Client) ListAnalysisEvents(ctx context.Context, filter EventFilter) ([]AnalysisEvent, error) {
	q, err := filter.query()
	if err != nil {
		return nil, err
	}
	return getList(ctx, c, "/rest/analysis/event", q, "events", wireAnalysisEvent.event)
}

// GetAnalysisEvent returns one analysis event with its stack trace
// (GET /rest/analysis/event/{eventId}).
func (c *Client) GetAnalysisEvent(ctx context.Context, eventID int64) (*AnalysisEvent, error) {
	ev, err := getOne(ctx, c, wireAnalysisEvent.event, "/rest/analysis/event/{}", strconv.FormatInt(eventID, 10))
	if err == nil {
		ev.EventID = cmp.Or(ev.EventID, eventID) // the path names it; a terse manager may not repeat it
	}
	return ev, err
}
