package apmsim

import (
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// obsUsages are a node's usage percentages at t, labelled as in threshold messages.
func obsUsages(n *node, t time.Time) map[string]float64 {
	m := measureNode(n, t)
	return map[string]float64{
		"CPU usage":    m.CPU,
		"Memory usage": 100 * float64(m.MemoryUsed) / float64(m.MemoryTotal),
		"Disk usage":   m.DiskUsage,
	}
}

// obsMinute returns the first minute from `from` at which the node with id in system s is
// over a threshold (over) or under all of them (!over). The node need not exist yet.
func obsMinute(t *testing.T, s *Sim, id string, from time.Time, over bool) time.Time {
	t.Helper()
	at, ok := obsFind(s, id, from, over)
	if !ok {
		t.Fatalf("no minute with over=%v for %s", over, id)
	}
	return at
}

func obsFind(s *Sim, id string, from time.Time, over bool) (found time.Time, ok bool) {
	s.read(func(wd *world) {
		n := &node{ID: id, Name: "probe", SystemID: wd.systemByName("s").ID}
		for m := range 10000 {
			at := from.Add(time.Duration(m) * time.Minute)
			anyOver := false
			for _, u := range obsUsages(n, at) {
				anyOver = anyOver || u > thresholdPercent
			}
			if anyOver == over {
				found, ok = at, true
				return
			}
		}
	})
	return found, ok
}

// obsHotNode registers node n1 in system s with the first nodeId whose metrics cross a
// threshold at some time, using up the ids before it with nodes it deletes again.
func obsHotNode(t *testing.T, s *Sim) string {
	t.Helper()
	for k := 1; k <= 20; k++ {
		id := fmt.Sprintf("ND-%04d", k)
		if _, ok := obsFind(s, id, obsStart, true); ok {
			createNode(t, s.Handler(), "s", "n1", "10.0.0.1", 7730)
			return id
		}
		createNode(t, s.Handler(), "s", "filler", "10.0.0.1", 7730)
		mustOK(t, s.Handler(), "DELETE", admin("/rest/nodes/"+id+"/systems/s"), "")
	}
	t.Fatal("no node id in ND-0001..ND-0020 crosses a threshold")
	return ""
}

// obsPublish publishes ev as an area would, under the write lock.
func obsPublish(t *testing.T, s *Sim, ev simEvent) {
	t.Helper()
	if err := s.update(func(wd *world) error { s.publish(wd, ev); return nil }); err != nil {
		t.Fatal(err)
	}
}

func compact(t time.Time) string { return t.Format(layoutNotification) }

// Published events become notifications with increasing ids and the sim's time.
func TestNotificationsRecordEvents(t *testing.T) {
	s, clock := newObsSim(t, nil)
	h := s.Handler()
	calm := obsMinute(t, s, "ND-0001", obsStart, false)
	clock.set(calm)
	createNode(t, h, "s", "n1", "10.0.0.1", 7730)
	clock.set(calm.Add(5 * time.Second))
	mustOK(t, h, "DELETE", admin("/rest/nodes/ND-0001/systems/s"), "")
	expect(t, call(t, h, "GET", viewer("/rest/notification"), ""), http.StatusOK, `{"notifications":[`+
		`{"id":2,"type":"INFO","message":"Node n1 removed from system s","targetName":"n1","createdAt":"`+compact(calm.Add(5*time.Second))+`"},`+
		`{"id":1,"type":"INFO","message":"Node n1 registered in system s","targetName":"n1","createdAt":"`+compact(calm)+`"}]}`)
	expect(t, call(t, h, "GET", "/rest/notification", ""), http.StatusUnauthorized, errJSON(codeUnauthorized, "Unauthorized"))
}

// A node metric above 90% gives one WARNING when it crosses, none while it stays above,
// and an INFO when it comes back.
func TestNotificationsThresholds(t *testing.T) {
	s, clock := newObsSim(t, nil)
	h := s.Handler()
	id := obsHotNode(t, s) // at obsStart, so its notifications are long past below
	calm := obsMinute(t, s, id, obsStart.Add(time.Hour), false)
	hot := obsMinute(t, s, id, calm, true)
	cool := obsMinute(t, s, id, hot, false)
	clock.set(calm)
	obsPublish(t, s, simEvent{Severity: "INFO", Target: "x", Message: "calm"})

	var over, back []string
	s.read(func(wd *world) {
		n := wd.nodeByName(wd.systemByName("s").ID, "n1")
		hotUsage, coolUsage := obsUsages(n, hot), obsUsages(n, cool)
		for _, label := range []string{"CPU usage", "Memory usage", "Disk usage"} { // the order of the checks
			if hotUsage[label] > thresholdPercent {
				over = append(over, fmt.Sprintf("WARNING %s of node n1 is %.1f%% (threshold 90%%)", label, hotUsage[label]))
				back = append(back, fmt.Sprintf("INFO %s of node n1 is back to %.1f%% (threshold 90%%)", label, coolUsage[label]))
			}
		}
	})
	messages := func(since time.Time) []string {
		var out []string
		for _, n := range getAs[struct{ Notifications []notificationJSON }](t, h, "/rest/notification?dateTime="+compact(since)).Notifications {
			out = append([]string{n.Type + " " + n.Message}, out...) // oldest first
		}
		return out
	}
	clock.set(hot)
	obsPublish(t, s, simEvent{Severity: "INFO", Target: "x", Message: "first"})
	obsPublish(t, s, simEvent{Severity: "INFO", Target: "x", Message: "second"})
	want := append(append([]string{"INFO first"}, over...), "INFO second")
	if got := messages(hot); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("at the hot minute:\n got %q\nwant %q", got, want)
	}
	clock.set(cool)
	obsPublish(t, s, simEvent{Severity: "INFO", Target: "x", Message: "third"})
	want = append([]string{"INFO third"}, back...)
	if got := messages(cool); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("at the cool minute:\n got %q\nwant %q", got, want)
	}
	// The crossing state of a deleted node is dropped at the next check.
	clock.set(hot)
	obsPublish(t, s, simEvent{Severity: "INFO", Target: "x", Message: "fourth"})
	mustOK(t, h, "DELETE", admin("/rest/nodes/"+id+"/systems/s"), "")
	s.read(func(wd *world) {
		if over := notificationState.of(wd).Over; len(over) != 0 {
			t.Errorf("threshold state of a deleted node kept: %v", over)
		}
	})
}

// Filters of GET /rest/notification, with four notifications ten minutes apart and none
// from thresholds (there are no nodes).
func TestNotificationFilters(t *testing.T) {
	s, clock := newObsSim(t, nil)
	h := s.Handler()
	for i := range 4 {
		clock.set(obsStart.Add(time.Duration(10*i) * time.Minute))
		obsPublish(t, s, simEvent{Severity: "INFO", Target: "x", Message: fmt.Sprint(i + 1)})
	}
	ids := func(query string) string {
		var out []string
		for _, n := range getAs[struct{ Notifications []notificationJSON }](t, h, "/rest/notification?"+query).Notifications {
			out = append(out, fmt.Sprint(n.ID))
		}
		return strings.Join(out, ",")
	}
	at10 := compact(obsStart.Add(10 * time.Minute))
	for _, tc := range []struct{ query, want string }{
		{"", "4,3,2,1"},
		{"interval=15", "4,3"},
		{"interval=10", "4,3"}, // from now-10m inclusive
		{"interval=9", "4"},
		{"dateTime=" + at10, "4,3,2"}, // at or after
		{"limit=2", "4,3"},
		{"interval=60&limit=1", "4"},
		{"dateTime=" + at10 + "&limit=5", "4,3,2"},
		{"interval=&limit=&dateTime=", "4,3,2,1"}, // empty is absent
		{"foo=bar", "4,3,2,1"},
		{"interval=999999999999999999999", "4,3,2,1"},
		{"limit=99999999999999999999", "4,3,2,1"},
		{"dateTime=20990101000000", ""},
	} {
		if got := ids(tc.query); got != tc.want {
			t.Errorf("%q: ids %q, want %q", tc.query, got, tc.want)
		}
	}
	for _, tc := range []struct{ query, msg string }{
		{"interval=0", "interval must be a positive integer"},
		{"interval=-5", "interval must be a positive integer"},
		{"interval=abc", "interval must be a positive integer"},
		{"interval=1.5", "interval must be a positive integer"},
		{"limit=0", "limit must be a positive integer"},
		{"limit=ten", "limit must be a positive integer"},
		{"dateTime=2024-05-06", "dateTime must be yyyyMMddHHmmss"},
		{"dateTime=20241306000000", "dateTime must be yyyyMMddHHmmss"},
		{"dateTime=2024050607", "dateTime must be yyyyMMddHHmmss"},
		{"interval=5&dateTime=" + at10, "interval and dateTime cannot be combined; use one of them"},
	} {
		expect(t, call(t, h, "GET", viewer("/rest/notification?"+tc.query), ""), http.StatusBadRequest, errJSON(codeBadRequest, tc.msg))
	}
	// Equal times: the later id first.
	obsPublish(t, s, simEvent{Severity: "INFO", Target: "x", Message: "5"})
	if got := ids("interval=1"); got != "5,4" {
		t.Errorf("same second: %q", got)
	}
}

func TestNotificationsAreCapped(t *testing.T) {
	s, _ := newObsSim(t, nil)
	if err := s.update(func(wd *world) error {
		for range maxNotifications + 5 {
			notificationState.of(wd).add(simEvent{Severity: "INFO", Target: "x", Message: "m"}, obsStart)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	got := getAs[struct{ Notifications []notificationJSON }](t, s.Handler(), "/rest/notification").Notifications
	if len(got) != maxNotifications || got[0].ID != maxNotifications+5 || got[len(got)-1].ID != 6 {
		t.Fatalf("%d notifications, ids %d..%d", len(got), got[0].ID, got[len(got)-1].ID)
	}
}

// The demo seed has the node registrations two days back and one notification per seeded
// analysis event, at the event's time.
func TestNotificationsDemoSeed(t *testing.T) {
	h := newTestSim(t, func(o *Options) { o.Seed = SeedDemo }).Handler()
	got := map[string]notificationJSON{}
	for _, n := range getAs[struct{ Notifications []notificationJSON }](t, h, "/rest/notification").Notifications {
		got[n.Message] = n
	}
	now := testClock()
	for _, want := range []notificationJSON{
		{Type: "INFO", Message: "Node app-01 registered in system shop", TargetName: "app-01", CreatedAt: compact(now.Add(-48 * time.Hour))},
		{Type: "INFO", Message: "Node web-01 registered in system shop", TargetName: "web-01", CreatedAt: compact(now.Add(-48*time.Hour + time.Minute))},
		{Type: "CRITICAL", Message: "Out of memory on server was-01: " + demoEvents[0].message, TargetName: "was-01", CreatedAt: compact(now.Add(-26 * time.Hour))},
		{Type: "WARNING", Message: "Full GC on server session-01: " + demoEvents[1].message, TargetName: "session-01", CreatedAt: compact(now.Add(-3 * time.Hour))},
		{Type: "CRITICAL", Message: "Error on server was-01: " + demoEvents[2].message, TargetName: "was-01", CreatedAt: compact(now.Add(-90 * time.Minute))},
		{Type: "WARNING", Message: "Stuck thread on server was-01: " + demoEvents[3].message, TargetName: "was-01", CreatedAt: compact(now.Add(-50 * time.Minute))},
	} {
		n, ok := got[want.Message]
		want.ID = n.ID
		if !ok || n != want {
			t.Errorf("seeded notification %+v, got %+v", want, n)
		}
	}
}

func TestNotificationsSurviveRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	opts := func(o *Options) { o.StateFile = path }
	h := newTestSim(t, opts).Handler()
	createSystem(t, h, "s")
	createNode(t, h, "s", "n1", "10.0.0.1", 7730)
	before := call(t, h, "GET", viewer("/rest/notification"), "").body
	if after := call(t, newTestSim(t, opts).Handler(), "GET", viewer("/rest/notification"), "").body; after != before || !strings.Contains(after, "n1") {
		t.Fatalf("before %s\nafter %s", before, after)
	}
}
