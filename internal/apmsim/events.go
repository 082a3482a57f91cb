package apmsim

import (
	"cmp"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// eventsArea serves the analysis events (spec 4.9 and part 6; list filters from
// api/decisions.md) and lets an admin inject events at POST /_apmsim/events, since nothing
// in the sim runs real JVMs that could get stuck. Every event is also published, so it
// shows up as a notification.
type eventsArea struct{ s *Sim }

const (
	// maxAnalysisEvents bounds the store; the oldest events go first.
	maxAnalysisEvents = 1000
	// layoutEventTime is the spec's yyyy-MM-dd HH:mm:ss of createdAt.
	layoutEventTime = "2006-01-02 15:04:05"
)

// analysisEventKind describes an event type: its label in notification messages and the
// severity of that notification.
type analysisEventKind struct{ label, severity string }

// analysisEventTypes are the types api/decisions.md gives the eventType filter, in that order.
var analysisEventTypes = []string{"stuckthread", "oom", "fullgc", "error"}

var analysisEventKinds = map[string]analysisEventKind{
	"stuckthread": {"Stuck thread", "WARNING"},
	"oom":         {"Out of memory", "CRITICAL"},
	"fullgc":      {"Full GC", "WARNING"},
	"error":       {"Error", "CRITICAL"},
}

type analysisEvent struct {
	ID       int64  `json:"eventId"`
	Type     string `json:"eventType"`
	SystemID string `json:"systemId"` // follows renames of the system
	// SystemName is the name at creation, shown once the system is deleted: an event is
	// history and outlives what it is about.
	SystemName string    `json:"systemName"`
	ServerName string    `json:"serverName"`
	Message    string    `json:"message"`
	StackTrace string    `json:"stackTrace"`
	CreatedAt  time.Time `json:"createdAt"`
}

type analysisEventData struct {
	LastID int64           `json:"lastId"` // ids are never reused, even after the cap drops some
	Items  []analysisEvent `json:"items"`  // in insertion order
}

var analysisEventState = newExtKey[analysisEventData]("analysisEvents")

// analysisEventJSON is an element of "events": the detail without stackTrace.
type analysisEventJSON struct {
	EventID    int64  `json:"eventId"`
	EventType  string `json:"eventType"`
	SystemName string `json:"systemName"`
	ServerName string `json:"serverName"`
	Message    string `json:"message"`
	CreatedAt  string `json:"createdAt"`
}

type analysisEventDetailJSON struct {
	analysisEventJSON
	StackTrace string `json:"stackTrace"`
}

func (a eventsArea) register(r *router) {
	r.handle("GET /rest/analysis/event", a.list)
	r.handle("GET /rest/analysis/event/{eventId}", a.get)
	r.handleAdmin("POST /_apmsim/events", a.inject)
}

func (d *analysisEventData) add(ev analysisEvent) analysisEvent {
	d.LastID++
	ev.ID = d.LastID
	ev.CreatedAt = ev.CreatedAt.UTC().Truncate(time.Second)
	d.Items = append(d.Items, ev)
	if extra := len(d.Items) - maxAnalysisEvents; extra > 0 {
		d.Items = slices.Delete(d.Items, 0, extra)
	}
	return ev
}

func (ev analysisEvent) summary(wd *world) analysisEventJSON {
	name := ev.SystemName
	if sys := wd.systems[ev.SystemID]; sys != nil {
		name = sys.Name
	}
	return analysisEventJSON{EventID: ev.ID, EventType: ev.Type, SystemName: name, ServerName: ev.ServerName,
		Message: ev.Message, CreatedAt: ev.CreatedAt.Format(layoutEventTime)}
}

// notice is the notification of the event.
func (ev analysisEvent) notice() simEvent {
	k := analysisEventKinds[ev.Type]
	return simEvent{Severity: k.severity, Target: ev.ServerName,
		Message: fmt.Sprintf("%s on server %s: %s", k.label, ev.ServerName, ev.Message)}
}

// eventTypeParam checks an eventType given to the sim; the canonical names are accepted
// in any case.
func eventTypeParam(raw string) (string, error) {
	t := strings.ToLower(raw)
	if _, ok := analysisEventKinds[t]; !ok {
		return "", badRequest("eventType must be one of %s", strings.Join(analysisEventTypes, ", "))
	}
	return t, nil
}

// eventFilter is the parsed query of the event list; zero fields do not filter.
type eventFilter struct {
	systemName, eventType string
	fromDay, toDay        string // yyyy-MM-dd, inclusive
}

func parseEventFilter(r *http.Request) (eventFilter, error) {
	q := r.URL.Query()
	f := eventFilter{systemName: q.Get("systemName")}
	if raw := q.Get("eventType"); raw != "" {
		t, err := eventTypeParam(raw)
		if err != nil {
			return f, err
		}
		f.eventType = t
	}
	// The same date rules, and messages, as the action trace log.
	from, to, err := traceDayRange(q)
	f.fromDay, f.toDay = from, to
	return f, err
}

func (f eventFilter) match(e analysisEventJSON) bool {
	day := e.CreatedAt[:len(time.DateOnly)]
	return (f.systemName == "" || e.SystemName == f.systemName) &&
		(f.eventType == "" || e.EventType == f.eventType) &&
		(f.fromDay == "" || day >= f.fromDay) && (f.toDay == "" || day <= f.toDay)
}

// list answers the events the filter selects, newest first (by createdAt, then id). A
// systemName that names no system selects nothing: it is a filter, not an address.
func (a eventsArea) list(w http.ResponseWriter, r *http.Request) {
	f, err := parseEventFilter(r)
	if err != nil {
		writeErr(w, err)
		return
	}
	answerRead(a.s, w, func(wd *world, _ time.Time) (any, error) {
		items := slices.Clone(analysisEventState.of(wd).Items)
		slices.SortFunc(items, func(x, y analysisEvent) int {
			return cmp.Or(y.CreatedAt.Compare(x.CreatedAt), cmp.Compare(y.ID, x.ID))
		})
		out := []analysisEventJSON{}
		for _, ev := range items {
			if s := ev.summary(wd); f.match(s) {
				out = append(out, s)
			}
		}
		return map[string]any{"events": out}, nil
	})
}

func (a eventsArea) get(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.ParseInt(r.PathValue("eventId"), 10, 64)
	if err != nil {
		writeErr(w, badRequest("eventId must be an integer"))
		return
	}
	answerRead(a.s, w, func(wd *world, _ time.Time) (any, error) {
		for _, ev := range analysisEventState.of(wd).Items {
			if ev.ID == id {
				return analysisEventDetailJSON{ev.summary(wd), ev.StackTrace}, nil
			}
		}
		return nil, notFound("Event not found: %d", id)
	})
}

// injectEventBody is the body of POST /_apmsim/events.
type injectEventBody struct {
	EventType  string `json:"eventType"`
	SystemName string `json:"systemName"`
	ServerName string `json:"serverName"`
	Message    string `json:"message"`    // optional: "<label> detected on <serverName>"
	StackTrace string `json:"stackTrace"` // optional
}

func (b injectEventBody) check() (eventType string, err error) {
	switch {
	case b.EventType == "":
		return "", badRequest("eventType is required")
	case b.SystemName == "":
		return "", badRequest("systemName is required")
	case b.ServerName == "":
		return "", badRequest("serverName is required")
	}
	return eventTypeParam(b.EventType)
}

// inject records an event at the sim's time and answers its detail. The system must
// exist; the server name is not checked, as events also concern servers since removed.
func (a eventsArea) inject(w http.ResponseWriter, r *http.Request) {
	var body injectEventBody
	if err := decodeBody(r, &body); err != nil {
		writeErr(w, err)
		return
	}
	eventType, err := body.check()
	if err != nil {
		writeErr(w, err)
		return
	}
	if body.Message == "" {
		body.Message = fmt.Sprintf("%s detected on %s", analysisEventKinds[eventType].label, body.ServerName)
	}
	var out analysisEventDetailJSON
	err = a.s.update(func(wd *world) error {
		sys := wd.systemByName(body.SystemName)
		if sys == nil {
			return notFound("System not found: %s", body.SystemName)
		}
		ev := analysisEventState.of(wd).add(analysisEvent{Type: eventType, SystemID: sys.ID, SystemName: sys.Name,
			ServerName: body.ServerName, Message: body.Message, StackTrace: body.StackTrace, CreatedAt: a.s.now()})
		a.s.publish(wd, ev.notice())
		out = analysisEventDetailJSON{ev.summary(wd), ev.StackTrace}
		return nil
	})
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// demoEvents are the demo seed's events in system shop, oldest first, placed before the
// seed's time so that date and interval filters have something on both sides.
var demoEvents = []struct {
	ago                        time.Duration
	eventType, server, message string
	stackTrace                 string
}{
	{26 * time.Hour, "oom", "was-01", "java.lang.OutOfMemoryError: Java heap space (heap 2048 MB of 2048 MB)",
		"java.lang.OutOfMemoryError: Java heap space\n" +
			"\tat java.base/java.util.Arrays.copyOf(Arrays.java:3537)\n" +
			"\tat java.base/java.util.ArrayList.grow(ArrayList.java:237)\n" +
			"\tat com.example.shop.report.SalesReport.collect(SalesReport.java:88)\n" +
			"\tat com.example.shop.report.ReportJob.run(ReportJob.java:41)"},
	{3 * time.Hour, "fullgc", "session-01", "Full GC took 3.8 s, heap 1790 MB to 640 MB",
		"\"session-replicator-2\" #41 daemon prio=5 RUNNABLE\n" +
			"\tat com.example.session.Store.put(Store.java:112)\n" +
			"\tat com.example.session.Replicator.apply(Replicator.java:67)"},
	{90 * time.Minute, "error", "was-01", "java.lang.NullPointerException in /shop/cart",
		"java.lang.NullPointerException: Cannot invoke \"Cart.items()\" because \"cart\" is null\n" +
			"\tat com.example.shop.web.CartController.show(CartController.java:54)\n" +
			"\tat jakarta.servlet.http.HttpServlet.service(HttpServlet.java:587)"},
	{50 * time.Minute, "stuckthread", "was-01", "Thread [http-nio-8080-exec-7] active for 612 s (limit 600 s)",
		"\"http-nio-8080-exec-7\" #57 daemon prio=5 WAITING\n" +
			"\tat java.base/jdk.internal.misc.Unsafe.park(Native Method)\n" +
			"\tat com.zaxxer.hikari.pool.HikariPool.getConnection(HikariPool.java:181)\n" +
			"\tat com.example.shop.order.OrderRepository.save(OrderRepository.java:73)"},
}

// seed adds the demo events and their notifications, at the events' own times.
func (a eventsArea) seed(wd *world, seed string) {
	shop := wd.systemByName("shop")
	if seed != SeedDemo || shop == nil {
		return
	}
	now := a.s.now()
	for _, d := range demoEvents {
		ev := analysisEventState.of(wd).add(analysisEvent{Type: d.eventType, SystemID: shop.ID, SystemName: shop.Name,
			ServerName: d.server, Message: d.message, StackTrace: d.stackTrace, CreatedAt: now.Add(-d.ago)})
		notificationState.of(wd).add(ev.notice(), ev.CreatedAt)
	}
}
