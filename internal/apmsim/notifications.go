package apmsim

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"time"
)

// notificationsArea serves GET /rest/notification (spec 4.9, 4.10). It records every
// event other areas publish (eventRecorder) as a notification and, at each event, checks
// the node metrics against their thresholds.
type notificationsArea struct{ s *Sim }

const (
	// maxNotifications bounds the store; the oldest notifications go first.
	maxNotifications = 1000
	// thresholdPercent is the level of cpu, memory and disk usage that raises a WARNING.
	thresholdPercent = 90.0
	// maxIntervalMinutes caps the interval parameter (100 years) so that it cannot
	// overflow a time.Duration; anything larger selects everything anyway.
	maxIntervalMinutes = 100 * 365 * 24 * 60
	// layoutNotification is the spec's yyyyMMddHHmmss of createdAt and dateTime.
	layoutNotification = "20060102150405"
)

type notificationJSON struct {
	ID         int64  `json:"id"`
	Type       string `json:"type"`
	Message    string `json:"message"`
	TargetName string `json:"targetName"`
	CreatedAt  string `json:"createdAt"`
}

type storedNotification struct {
	ID        int64     `json:"id"`
	Severity  string    `json:"type"`
	Message   string    `json:"message"`
	Target    string    `json:"targetName"`
	CreatedAt time.Time `json:"createdAt"`
}

type notificationData struct {
	LastID int64                `json:"lastId"` // ids are never reused, even after the cap drops some
	Items  []storedNotification `json:"items"`  // in insertion order
	// Over holds, by nodeId, the metrics that were above their threshold at the last
	// check, so that a crossing is notified once, not at every event.
	Over map[string]map[string]bool `json:"over"`
	// checked holds the nodes measured in checkedMinute. Metrics change once a minute, so
	// within a minute only nodes not measured yet need a look: a write then costs O(1)
	// instead of a measure of every node, which made registering thousands of nodes
	// quadratic. Not saved: after a restart the first check measures everything again.
	checked       map[string]bool
	checkedMinute int64
}

var notificationState = newExtKey[notificationData]("notifications")

func (a notificationsArea) register(r *router) {
	r.handle("GET /rest/notification", a.list)
}

// add stores a notification, dropping the oldest beyond the cap.
func (d *notificationData) add(ev simEvent, at time.Time) {
	d.LastID++
	d.Items = append(d.Items, storedNotification{
		ID: d.LastID, Severity: ev.Severity, Message: ev.Message, Target: ev.Target,
		CreatedAt: at.UTC().Truncate(time.Second),
	})
	if extra := len(d.Items) - maxNotifications; extra > 0 {
		d.Items = slices.Delete(d.Items, 0, extra)
	}
}

// recordEvent turns a published event into a notification, then checks the thresholds.
func (a notificationsArea) recordEvent(wd *world, ev simEvent) {
	now := a.s.now()
	d := notificationState.of(wd)
	d.add(ev, now)
	d.checkThresholds(wd, now)
}

// checkThresholds notifies each node metric that crossed thresholdPercent since the last
// check: WARNING when it went above, INFO when it came back. The sim has no background
// ticker (reads never change the world), so checks happen when events are recorded.
func (d *notificationData) checkThresholds(wd *world, now time.Time) {
	if d.Over == nil {
		d.Over = map[string]map[string]bool{}
	}
	for nodeID := range d.Over {
		if wd.nodes[nodeID] == nil {
			delete(d.Over, nodeID) // the node is gone
		}
	}
	if minute := now.Unix() / 60; minute != d.checkedMinute || d.checked == nil {
		d.checked, d.checkedMinute = map[string]bool{}, minute
	}
	for _, n := range d.unchecked(wd) {
		d.checked[n.ID] = true
		m := measureNode(n, now)
		usage := []struct {
			metric, label string
			percent       float64
		}{
			{"cpu", "CPU usage", m.CPU},
			{"memory", "Memory usage", 100 * float64(m.MemoryUsed) / float64(m.MemoryTotal)},
			{"disk", "Disk usage", m.DiskUsage},
		}
		for _, u := range usage {
			if over := u.percent > thresholdPercent; over != d.Over[n.ID][u.metric] {
				d.add(thresholdEvent(n.Name, u.label, u.percent, over), now)
				d.setOver(n.ID, u.metric, over)
			}
		}
	}
}

// unchecked are the nodes not measured in this minute, in the order of sortedNodes, so
// that their notifications come in the same order as a full check's.
func (d *notificationData) unchecked(wd *world) []*node {
	var out []*node
	for id, n := range wd.nodes {
		if !d.checked[id] {
			out = append(out, n)
		}
	}
	wd.sortNodes(out)
	return out
}

// thresholdEvent describes a crossing: WARNING going above, INFO coming back.
func thresholdEvent(nodeName, label string, percent float64, over bool) simEvent {
	severity, verb := "WARNING", "is"
	if !over {
		severity, verb = "INFO", "is back to"
	}
	return simEvent{Severity: severity, Target: nodeName,
		Message: fmt.Sprintf("%s of node %s %s %.1f%% (threshold %.0f%%)", label, nodeName, verb, percent, thresholdPercent)}
}

func (d *notificationData) setOver(nodeID, metric string, over bool) {
	switch {
	case over && d.Over[nodeID] == nil:
		d.Over[nodeID] = map[string]bool{metric: true}
	case over:
		d.Over[nodeID][metric] = true
	default:
		delete(d.Over[nodeID], metric)
		if len(d.Over[nodeID]) == 0 {
			delete(d.Over, nodeID)
		}
	}
}

// seed records the registration of the demo nodes two days before the seed's time, so
// that a fresh demo has notifications inside and outside short intervals.
func (a notificationsArea) seed(wd *world, seed string) {
	if seed != SeedDemo {
		return
	}
	at := a.s.now().Add(-48 * time.Hour)
	d := notificationState.of(wd)
	for i, n := range wd.sortedNodes() {
		d.add(simEvent{Severity: "INFO", Target: n.Name,
			Message: fmt.Sprintf("Node %s registered in system %s", n.Name, wd.systems[n.SystemID].Name)},
			at.Add(time.Duration(i)*time.Minute))
	}
}

// notificationQuery is the parsed query of GET /rest/notification.
type notificationQuery struct {
	since time.Time // zero: no lower bound
	limit int       // 0: no limit
}

// parseNotificationQuery reads interval, dateTime and limit. The spec offers filtering by
// interval or by dateTime; like the client, the sim treats them as alternatives.
func parseNotificationQuery(q url.Values, now time.Time) (notificationQuery, error) {
	var out notificationQuery
	interval, hasInterval, err := positiveIntParam(q, "interval")
	if err != nil {
		return out, err
	}
	dateTime, hasDateTime, err := timeParam(q, "dateTime", layoutNotification, "yyyyMMddHHmmss")
	if err != nil {
		return out, err
	}
	if out.limit, _, err = positiveIntParam(q, "limit"); err != nil {
		return out, err
	}
	switch {
	case hasInterval && hasDateTime:
		return out, badRequest("interval and dateTime cannot be combined; use one of them")
	case hasInterval:
		out.since = now.Add(-time.Duration(min(interval, maxIntervalMinutes)) * time.Minute)
	case hasDateTime:
		out.since = dateTime
	}
	return out, nil
}

// positiveIntParam reads an optional integer parameter that must be at least 1. Like the
// other query parameters of the sim, an empty value counts as absent. A value too large
// for an int is clamped: it bounds nothing either way.
func positiveIntParam(q url.Values, name string) (v int, present bool, err error) {
	raw := q.Get(name)
	if raw == "" {
		return 0, false, nil
	}
	v, convErr := strconv.Atoi(raw)
	if errors.Is(convErr, strconv.ErrRange) && raw[0] != '-' {
		return math.MaxInt, true, nil
	}
	if convErr != nil || v < 1 {
		return 0, true, badRequest("%s must be a positive integer", name)
	}
	return v, true, nil
}

// timeParam reads an optional time parameter in layout, shown to the client as shown. It
// is the manager's wall clock, read as UTC like every time of the sim.
func timeParam(q url.Values, name, layout, shown string) (t time.Time, present bool, err error) {
	raw := q.Get(name)
	if raw == "" {
		return time.Time{}, false, nil
	}
	t, perr := time.ParseInLocation(layout, raw, time.UTC)
	if perr != nil {
		return time.Time{}, true, badRequest("%s must be %s", name, shown)
	}
	return t, true, nil
}

// list answers the notifications created at or after the filter's start, newest first
// (by createdAt, then id), at most limit of them.
func (a notificationsArea) list(w http.ResponseWriter, r *http.Request) {
	answerRead(a.s, w, func(wd *world, now time.Time) (any, error) {
		fq, err := parseNotificationQuery(r.URL.Query(), now)
		if err != nil {
			return nil, err
		}
		var picked []storedNotification
		for _, n := range notificationState.of(wd).Items {
			if !n.CreatedAt.Before(fq.since) {
				picked = append(picked, n)
			}
		}
		slices.SortFunc(picked, func(x, y storedNotification) int {
			return cmp.Or(y.CreatedAt.Compare(x.CreatedAt), cmp.Compare(y.ID, x.ID))
		})
		if fq.limit > 0 && len(picked) > fq.limit {
			picked = picked[:fq.limit]
		}
		out := make([]notificationJSON, 0, len(picked))
		for _, n := range picked {
			out = append(out, notificationJSON{ID: n.ID, Type: n.Severity, Message: n.Message,
				TargetName: n.Target, CreatedAt: n.CreatedAt.Format(layoutNotification)})
		}
		return map[string]any{"notifications": out}, nil
	})
}
