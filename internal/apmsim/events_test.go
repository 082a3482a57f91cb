package apmsim

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// The demo events, at testClock 2024-05-06 07:08:09 minus 26 h, 3 h, 90 min and 50 min.
func TestAnalysisEventsDemoSeed(t *testing.T) {
	h := newTestSim(t, func(o *Options) { o.Seed = SeedDemo }).Handler()
	expect(t, call(t, h, "GET", viewer("/rest/analysis/event"), ""), http.StatusOK, `{"events":[`+
		`{"eventId":4,"eventType":"stuckthread","systemName":"shop","serverName":"was-01","message":"Thread [http-nio-8080-exec-7] active for 612 s (limit 600 s)","createdAt":"2024-05-06 06:18:09"},`+
		`{"eventId":3,"eventType":"error","systemName":"shop","serverName":"was-01","message":"java.lang.NullPointerException in /shop/cart","createdAt":"2024-05-06 05:38:09"},`+
		`{"eventId":2,"eventType":"fullgc","systemName":"shop","serverName":"session-01","message":"Full GC took 3.8 s, heap 1790 MB to 640 MB","createdAt":"2024-05-06 04:08:09"},`+
		`{"eventId":1,"eventType":"oom","systemName":"shop","serverName":"was-01","message":"java.lang.OutOfMemoryError: Java heap space (heap 2048 MB of 2048 MB)","createdAt":"2024-05-05 05:08:09"}]}`)
	detail, _ := json.Marshal(map[string]any{
		"eventId": 2, "eventType": "fullgc", "systemName": "shop", "serverName": "session-01",
		"message": demoEvents[1].message, "createdAt": "2024-05-06 04:08:09", "stackTrace": demoEvents[1].stackTrace,
	})
	got := call(t, h, "GET", viewer("/rest/analysis/event/2"), "")
	expectSameJSON(t, got, string(detail))
	for _, d := range demoEvents {
		if !strings.Contains(d.stackTrace, "\n\tat ") {
			t.Errorf("stack trace of %s is not a stack trace: %q", d.eventType, d.stackTrace)
		}
	}
}

// expectSameJSON compares bodies as JSON values (key order aside).
func expectSameJSON(t *testing.T, got response, want string) {
	t.Helper()
	var g, w any
	if got.status != http.StatusOK || json.Unmarshal([]byte(got.body), &g) != nil || json.Unmarshal([]byte(want), &w) != nil {
		t.Fatalf("status %d body %s", got.status, got.body)
	}
	gb, _ := json.Marshal(g)
	wb, _ := json.Marshal(w)
	if string(gb) != string(wb) {
		t.Fatalf("body\n got %s\nwant %s", gb, wb)
	}
}

func TestAnalysisEventFilters(t *testing.T) {
	h := newTestSim(t, func(o *Options) { o.Seed = SeedDemo }).Handler()
	ids := func(query string) string {
		var out []string
		for _, e := range getAs[struct{ Events []analysisEventJSON }](t, h, "/rest/analysis/event?"+query).Events {
			out = append(out, fmt.Sprint(e.EventID))
		}
		return strings.Join(out, ",")
	}
	for _, tc := range []struct{ query, want string }{
		{"systemName=shop", "4,3,2,1"},
		{"systemName=batch", ""},
		{"systemName=nope", ""}, // a filter, not an address
		{"eventType=oom", "1"},
		{"eventType=FULLGC", "2"}, // any case
		{"startDate=20240506", "4,3,2"},
		{"endDate=20240505", "1"},
		{"startDate=20240505&endDate=20240505", "1"},
		{"startDate=20240507", ""},
		{"systemName=shop&eventType=stuckthread&startDate=20240501&endDate=20240531", "4"},
		{"systemName=&eventType=&startDate=&endDate=&other=x", "4,3,2,1"}, // empty is absent
	} {
		if got := ids(tc.query); got != tc.want {
			t.Errorf("%q: ids %q, want %q", tc.query, got, tc.want)
		}
	}
	for _, tc := range []struct{ query, msg string }{
		{"eventType=gc", "eventType must be one of stuckthread, oom, fullgc, error"},
		{"eventType=stuck_thread", "eventType must be one of stuckthread, oom, fullgc, error"},
		{"startDate=2024-05-06", "startDate must be yyyyMMdd"},
		{"endDate=20241341", "endDate must be yyyyMMdd"},
		{"startDate=20240507&endDate=20240506", "startDate must not be after endDate"},
	} {
		expect(t, call(t, h, "GET", viewer("/rest/analysis/event?"+tc.query), ""), http.StatusBadRequest, errJSON(codeBadRequest, tc.msg))
	}
	for _, tc := range []struct {
		path   string
		status int
		body   string
	}{
		{"/rest/analysis/event/abc", 400, errJSON(codeBadRequest, "eventId must be an integer")},
		{"/rest/analysis/event/1.5", 400, errJSON(codeBadRequest, "eventId must be an integer")},
		{"/rest/analysis/event/99", 404, errJSON(codeNotFound, "Event not found: 99")},
		{"/rest/analysis/event/-1", 404, errJSON(codeNotFound, "Event not found: -1")},
	} {
		expect(t, call(t, h, "GET", viewer(tc.path), ""), tc.status, tc.body)
	}
}

// An admin injects events; each one is listed first, readable in detail, and notified.
func TestInjectAnalysisEvent(t *testing.T) {
	s := newTestSim(t, func(o *Options) { o.Seed = SeedDemo })
	h := s.Handler()
	got := call(t, h, "POST", admin("/_apmsim/events"),
		`{"eventType":"OOM","systemName":"shop","serverName":"was-02","message":"heap full","stackTrace":"java.lang.OutOfMemoryError\n\tat x"}`)
	expect(t, got, http.StatusOK, `{"eventId":5,"eventType":"oom","systemName":"shop","serverName":"was-02","message":"heap full",`+
		`"createdAt":"2024-05-06 07:08:09","stackTrace":"java.lang.OutOfMemoryError\n\tat x"}`)
	expect(t, call(t, h, "GET", viewer("/rest/analysis/event/5"), ""), http.StatusOK, got.body)
	if first := getAs[struct{ Events []analysisEventJSON }](t, h, "/rest/analysis/event").Events[0]; first.EventID != 5 {
		t.Errorf("newest event %+v", first)
	}
	newest := getAs[struct{ Notifications []notificationJSON }](t, h, "/rest/notification?limit=1").Notifications
	if len(newest) != 1 || newest[0].Type != "CRITICAL" || newest[0].TargetName != "was-02" ||
		newest[0].Message != "Out of memory on server was-02: heap full" || newest[0].CreatedAt != "20240506070809" {
		t.Errorf("notification %+v", newest)
	}
	// The message defaults; the stack trace may be empty.
	expect(t, call(t, h, "POST", admin("/_apmsim/events"), `{"eventType":"fullgc","systemName":"batch","serverName":"gone-01"}`),
		http.StatusOK, `{"eventId":6,"eventType":"fullgc","systemName":"batch","serverName":"gone-01","message":"Full GC detected on gone-01",`+
			`"createdAt":"2024-05-06 07:08:09","stackTrace":""}`)

	for _, tc := range []struct {
		target, body string
		status       int
		want         string
	}{
		{admin("/_apmsim/events"), `{"systemName":"shop","serverName":"a"}`, 400, errJSON(codeBadRequest, "eventType is required")},
		{admin("/_apmsim/events"), `{"eventType":"oom","serverName":"a"}`, 400, errJSON(codeBadRequest, "systemName is required")},
		{admin("/_apmsim/events"), `{"eventType":"oom","systemName":"shop"}`, 400, errJSON(codeBadRequest, "serverName is required")},
		{admin("/_apmsim/events"), `{"eventType":"panic","systemName":"shop","serverName":"a"}`, 400,
			errJSON(codeBadRequest, "eventType must be one of stuckthread, oom, fullgc, error")},
		{admin("/_apmsim/events"), `{"eventType":"oom","systemName":"nope","serverName":"a"}`, 404, errJSON(codeNotFound, "System not found: nope")},
		{admin("/_apmsim/events"), `[]`, 400, errJSON(codeBadRequest, "invalid JSON body: expected a JSON object")},
		{viewer("/_apmsim/events"), `{"eventType":"oom","systemName":"shop","serverName":"a"}`, 403, errJSON(codeForbidden, "Access denied")},
		{"/_apmsim/events", `{"eventType":"oom","systemName":"shop","serverName":"a"}`, 401, errJSON(codeUnauthorized, "Unauthorized")},
	} {
		expect(t, call(t, h, "POST", tc.target, tc.body), tc.status, tc.want)
	}
	if n := len(getAs[struct{ Events []analysisEventJSON }](t, h, "/rest/analysis/event").Events); n != 6 {
		t.Errorf("%d events after the failed injections, want 6", n)
	}
}

// Events follow a rename of their system and keep the name they had once it is deleted.
func TestAnalysisEventSystemName(t *testing.T) {
	h := newTestSim(t).Handler()
	createSystem(t, h, "old")
	expect(t, call(t, h, "POST", admin("/_apmsim/events"), `{"eventType":"error","systemName":"old","serverName":"a"}`), http.StatusOK, "")
	mustOK(t, h, "PUT", admin("/rest/systems/old"), `{"systemName":"new"}`)
	for _, q := range []string{"systemName=new", ""} {
		if evs := getAs[struct{ Events []analysisEventJSON }](t, h, "/rest/analysis/event?"+q).Events; len(evs) != 1 || evs[0].SystemName != "new" {
			t.Errorf("after rename (%q): %+v", q, evs)
		}
	}
	mustOK(t, h, "DELETE", admin("/rest/systems/new"), "")
	if evs := getAs[struct{ Events []analysisEventJSON }](t, h, "/rest/analysis/event?systemName=old").Events; len(evs) != 1 {
		t.Errorf("after delete: %+v", evs)
	}
}

// Reads of every observability path while nodes come and go and events are injected
// (run with -race); at the end every injection is listed once.
func TestObservabilityConcurrent(t *testing.T) {
	s := newTestSim(t, func(o *Options) { o.Seed = SeedDemo })
	h := s.Handler()
	reads := []string{"/meters/nodes", "/meters/nodes/web-01/systems/shop/all", "/rest/licenses",
		"/rest/notification?limit=5", "/rest/analysis/event?eventType=oom", "/meters/was/container/shop-was-0"}
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := range 20 {
				if got := call(t, h, "GET", viewer(reads[(w+i)%len(reads)]), ""); got.status != http.StatusOK {
					t.Errorf("%s: %d %s", reads[(w+i)%len(reads)], got.status, got.body)
				}
			}
		})
		wg.Go(func() {
			for i := range 10 {
				name := fmt.Sprintf("c%d-%d", w, i)
				createNode(t, h, "batch", name, "10.0.0.9", 7730)
				expect(t, call(t, h, "POST", admin("/_apmsim/events"), `{"eventType":"oom","systemName":"batch","serverName":"`+name+`"}`), http.StatusOK, "")
			}
		})
	}
	wg.Wait()
	evs := getAs[struct{ Events []analysisEventJSON }](t, h, "/rest/analysis/event?systemName=batch").Events
	seen := map[string]bool{}
	for _, e := range evs {
		seen[e.ServerName] = true
	}
	if len(evs) != 40 || len(seen) != 40 {
		t.Errorf("%d events for %d servers, want 40", len(evs), len(seen))
	}
}
