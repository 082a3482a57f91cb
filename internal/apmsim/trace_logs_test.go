package apmsim

import (
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// traceClock is a settable clock, safe for the concurrent requests of a test.
type traceClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *traceClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *traceClock) set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = t
}

func TestTraceLogRecordsWrites(t *testing.T) {
	s := newTestSim(t)
	h := s.Handler()
	expect(t, call(t, h, "GET", admin("/rest/admin/actionTraceLogList"), ""), 200, `{"logs":[]}`)

	createSystem(t, h, "shop")                                                             // 1: collection, no path parameter
	mustOK(t, h, "PUT", admin("/rest/systems/shop"), `{"systemName":"store"}`)             // 2: first path parameter
	expect(t, call(t, h, "DELETE", admin("/rest/admin/user/ghost"), ""), 404, "")          // 3: failure
	expect(t, call(t, h, "POST", viewer("/rest/systems"), `{"systemName":"x"}`), 403, "")  // 4: viewer, refused
	expect(t, call(t, h, "POST", admin("/rest/nope"), `{}`), 404, "")                      // 5: no such route
	expect(t, call(t, h, "POST", admin("/rest/admin/user/bob/auth/grant"), `{}`), 400, "") // 6: first parameter of a longer route
	// Not recorded: reads, a rejected key, public paths, the sim's own paths.
	call(t, h, "GET", admin("/rest/systems"), "")
	call(t, h, "POST", withKey("/rest/systems", "wrong"), `{"systemName":"y"}`)
	call(t, h, "POST", "/rest/public/nodes", `{}`)
	call(t, h, "DELETE", admin("/_apmsim/requests"), "")

	expect(t, call(t, h, "GET", admin("/rest/admin/actionTraceLogList"), ""), 200, `{"logs":[`+
		`{"logId":1,"userId":"admin","action":"POST /rest/systems","targetName":"/systems","result":"SUCCESS","createdAt":"2024-05-06 07:08:09"},`+
		`{"logId":2,"userId":"admin","action":"PUT /rest/systems/shop","targetName":"shop","result":"SUCCESS","createdAt":"2024-05-06 07:08:09"},`+
		`{"logId":3,"userId":"admin","action":"DELETE /rest/admin/user/ghost","targetName":"ghost","result":"FAILURE","createdAt":"2024-05-06 07:08:09"},`+
		`{"logId":4,"userId":"viewer","action":"POST /rest/systems","targetName":"/systems","result":"FAILURE","createdAt":"2024-05-06 07:08:09"},`+
		`{"logId":5,"userId":"admin","action":"POST /rest/nope","targetName":"/nope","result":"FAILURE","createdAt":"2024-05-06 07:08:09"},`+
		`{"logId":6,"userId":"admin","action":"POST /rest/admin/user/bob/auth/grant","targetName":"bob","result":"FAILURE","createdAt":"2024-05-06 07:08:09"}]}`)
}

func TestTraceLogTargets(t *testing.T) {
	a := traceLogArea{newTestSim(t)}
	for _, tc := range []struct{ method, path, want string }{
		{"POST", "/rest/resource/databases", "/resource/databases"},
		{"DELETE", "/rest/resource/databases/orders-db", "orders-db"},
		{"PUT", "/rest/resource/datasource/orders-ds", "orders-ds"},
		{"PUT", "/rest/nodes/ND-0001/systems/shop", "ND-0001"},
		{"POST", "/rest/admin/user/bob/auth/revoke", "bob"},
		{"PUT", "/rest/admin/auth/ops", "ops"},
		{"PUT", "/rest/resource/datasources/orders-ds", "/resource/datasources/orders-ds"}, // wrong method: no route
		{"DELETE", "/rest/systems/a/b", "/systems/a/b"},                                    // a decoded slash: no route
	} {
		if got := a.target(tc.method, tc.path); got != tc.want {
			t.Errorf("target(%s %s) = %q, want %q", tc.method, tc.path, got, tc.want)
		}
	}
}

func TestTraceLogDateFilter(t *testing.T) {
	clock := &traceClock{t: time.Date(2024, 4, 30, 23, 59, 59, 0, time.UTC)}
	h := newTestSim(t, func(o *Options) { o.Clock = clock.now }).Handler()
	for i, day := range []int{0, 1, 1, 2} { // days after April 30
		clock.set(time.Date(2024, 4, 30+day, 12, 0, i, 0, time.UTC))
		createSystem(t, h, fmt.Sprintf("s%d", i))
	}
	ids := func(query string) string {
		t.Helper()
		got := call(t, h, "GET", admin("/rest/admin/actionTraceLogList"+query), "")
		var body struct{ Logs []traceLogEntry }
		if got.status != 200 || json.Unmarshal([]byte(got.body), &body) != nil {
			t.Fatalf("%s: %d %s", query, got.status, got.body)
		}
		out := ""
		for _, e := range body.Logs {
			out += fmt.Sprintf("%d@%s ", e.LogID, e.CreatedAt)
		}
		return out
	}
	all := "1@2024-04-30 12:00:00 2@2024-05-01 12:00:01 3@2024-05-01 12:00:02 4@2024-05-02 12:00:03 "
	for query, want := range map[string]string{
		"":                                     all,
		"?startDate=":                          all,
		"?startDate=20240501":                  "2@2024-05-01 12:00:01 3@2024-05-01 12:00:02 4@2024-05-02 12:00:03 ",
		"?endDate=20240501":                    "1@2024-04-30 12:00:00 2@2024-05-01 12:00:01 3@2024-05-01 12:00:02 ",
		"?startDate=20240501&endDate=20240501": "2@2024-05-01 12:00:01 3@2024-05-01 12:00:02 ",
		"?startDate=20240503":                  "",
		"?startDate=20240101&endDate=20240430": "1@2024-04-30 12:00:00 ",
		"?startDate=20240502&endDate=20991231&x=1": "4@2024-05-02 12:00:03 ",
	} {
		if got := ids(query); got != want {
			t.Errorf("%q: got %s\nwant %s", query, got, want)
		}
	}
	bad := func(msg string) string { return errJSON("BAD_REQUEST", msg) }
	for query, want := range map[string]string{
		"?startDate=2024-05-01":                "startDate must be yyyyMMdd",
		"?startDate=2024051":                   "startDate must be yyyyMMdd",
		"?endDate=20240230":                    "endDate must be yyyyMMdd",
		"?endDate=202405011":                   "endDate must be yyyyMMdd",
		"?startDate=20240502&endDate=20240501": "startDate must not be after endDate",
	} {
		expect(t, call(t, h, "GET", admin("/rest/admin/actionTraceLogList"+query), ""), 400, bad(want))
	}
}

func TestTraceLogIsCapped(t *testing.T) {
	var d traceLogData
	for i := range 7 {
		d.add(traceLogEntry{Action: fmt.Sprint(i)}, 3)
	}
	if len(d.Entries) != 3 || d.LastID != 7 {
		t.Fatalf("%d entries, last id %d", len(d.Entries), d.LastID)
	}
	for i, e := range d.Entries {
		if e.LogID != int64(5+i) || e.Action != fmt.Sprint(4+i) {
			t.Errorf("entry %d = %+v", i, e)
		}
	}
}

// Concurrent writes get distinct, gap-free logIds whose times never go backwards; run
// with -race. The log also survives a restart from the state file.
func TestTraceLogConcurrentAndPersistent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	var tick sync.Mutex
	sec := 0
	clock := func() time.Time {
		tick.Lock()
		defer tick.Unlock()
		sec++
		return time.Date(2024, 5, 6, 0, 0, 0, 0, time.UTC).Add(time.Duration(sec) * time.Second)
	}
	h := newTestSim(t, stateOpts(path), func(o *Options) { o.Clock = clock }).Handler()
	const workers, each = 6, 15
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := range each {
				createSystem(t, h, fmt.Sprintf("w%d-%d", w, i))
				call(t, h, "GET", viewer("/rest/admin/actionTraceLogList"), "")
			}
		})
	}
	wg.Wait()

	h2 := newTestSim(t, stateOpts(path)).Handler()
	var body struct{ Logs []traceLogEntry }
	if err := json.Unmarshal([]byte(call(t, h2, "GET", admin("/rest/admin/actionTraceLogList"), "").body), &body); err != nil {
		t.Fatal(err)
	}
	if len(body.Logs) != workers*each {
		t.Fatalf("%d entries, want %d", len(body.Logs), workers*each)
	}
	for i, e := range body.Logs {
		if e.LogID != int64(i+1) || e.Result != "SUCCESS" || e.Action != "POST /rest/systems" {
			t.Fatalf("entry %d = %+v", i, e)
		}
		if i > 0 && e.CreatedAt < body.Logs[i-1].CreatedAt {
			t.Fatalf("entry %d at %s, before its predecessor at %s", i, e.CreatedAt, body.Logs[i-1].CreatedAt)
		}
	}
	// Numbering continues after the restart.
	createSystem(t, h2, "after")
	if err := json.Unmarshal([]byte(call(t, h2, "GET", admin("/rest/admin/actionTraceLogList"), "").body), &body); err != nil {
		t.Fatal(err)
	}
	if last := body.Logs[len(body.Logs)-1]; last.LogID != workers*each+1 {
		t.Fatalf("after restart: %+v", last)
	}
}

func TestTraceLogDemoSeed(t *testing.T) {
	h := newTestSim(t, func(o *Options) { o.Seed = SeedDemo }).Handler()
	expect(t, call(t, h, "GET", admin("/rest/admin/actionTraceLogList"), ""), 200, `{"logs":[`+
		`{"logId":1,"userId":"admin","action":"POST /rest/admin/user/operator/auth/grant","targetName":"operator","result":"SUCCESS","createdAt":"2024-05-06 07:08:09"},`+
		`{"logId":2,"userId":"admin","action":"PUT /rest/resource/datasource/orders-ds","targetName":"orders-ds","result":"SUCCESS","createdAt":"2024-05-06 07:08:09"},`+
		`{"logId":3,"userId":"admin","action":"DELETE /rest/admin/user/intern","targetName":"intern","result":"FAILURE","createdAt":"2024-05-06 07:08:09"}]}`)
}

// traceLogTail returns the newest n entries of the trace log as "METHOD /path result".
func traceLogTail(t *testing.T, h http.Handler, n int) []string {
	t.Helper()
	got := call(t, h, "GET", admin("/rest/admin/actionTraceLogList"), "")
	var body struct{ Logs []traceLogEntry }
	if got.status != 200 || json.Unmarshal([]byte(got.body), &body) != nil || len(body.Logs) < n {
		t.Fatalf("trace log: %d %s", got.status, got.body)
	}
	var out []string
	for _, e := range body.Logs[len(body.Logs)-n:] {
		out = append(out, e.Action+" "+e.Result)
	}
	return out
}

// A write answered 200 {"actionResult":"N"} was refused: the spec calls N a failed
// operation, so the log says FAILURE; a Y says SUCCESS. So it is for a terse manager
// (N without a message) and for an answer a fault rule with after=true lost.
func TestTraceLogCountsRefusalsAsFailures(t *testing.T) {
	action := func(id string) string { return srvPath("was", id, "web-01", "/action") }
	start := `{"action":"start"}`
	lost, err := ParseFaultRule("POST /rest/was/servers/*/action status=502 after=true")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		mod     func(*Options)
		status  int    // of both starts
		refusal string // the body of the refused start
	}{
		{"full", func(*Options) {}, 200, actionN("Server was-01 is already running")},
		{"terse", func(o *Options) { o.OmitOptionalFields = true }, 200, `{"actionResult":"N"}`},
		{"answer lost", func(o *Options) { o.Faults = []FaultRule{lost} }, 502, errJSON("BAD_GATEWAY", injectedFaultMessage)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newSrvFixture(t, tc.mod)
			expect(t, call(t, f.h, "POST", admin(action("was-01")), start), tc.status, tc.refusal) // running: N
			expect(t, call(t, f.h, "POST", admin(action("was-02")), start), tc.status, "")         // stopped: Y
			// Running, so refused with N; no fault rule matches it.
			if got := call(t, f.h, "DELETE", admin(srvPath("web", "web-01", "web-01", "?type=uninstall")), ""); got.status != 200 ||
				!strings.HasPrefix(got.body, `{"actionResult":"N"`) {
				t.Fatalf("uninstall of a running server: %d %s", got.status, got.body)
			}
			want := []string{
				"POST " + srvPath("was", "was-01", "web-01", "/action") + " FAILURE",
				"POST " + srvPath("was", "was-02", "web-01", "/action") + " SUCCESS",
				"DELETE " + srvPath("web", "web-01", "web-01", "") + " FAILURE",
			}
			if got := traceLogTail(t, f.h, 3); !slices.Equal(got, want) {
				t.Errorf("log ends with\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

func TestTraceResult(t *testing.T) {
	for _, tc := range []struct {
		status  int
		refused bool
		want    string
	}{
		{0, false, "SUCCESS"}, {200, false, "SUCCESS"}, {204, false, "SUCCESS"},
		{200, true, "FAILURE"}, {0, true, "FAILURE"},
		{302, false, "FAILURE"}, {404, false, "FAILURE"}, {409, false, "FAILURE"}, {500, true, "FAILURE"},
	} {
		if got := traceResult(tc.status, tc.refused); got != tc.want {
			t.Errorf("traceResult(%d, %t) = %s, want %s", tc.status, tc.refused, got, tc.want)
		}
	}
	for body, want := range map[string]bool{
		`{"actionResult":"N"}`:                 true,
		`{"actionResult":"N","message":"why"}`: true,
		`{"actionResult":"Y"}`:                 false,
		`{"error":"actionResult","code":"X"}`:  false,
		`{"message":"no actionResult field"}`:  false,
		`{"actionResult":"N"`:                  false, // not JSON
		`{"systems":[{"actionResult":"N"}]}`:   false, // nested, not the answer's own
		`{"actionResult":"n"}`:                 false,
	} {
		if got := isRefusal([]byte(body)); got != want {
			t.Errorf("isRefusal(%s) = %t, want %t", body, got, want)
		}
	}
}
