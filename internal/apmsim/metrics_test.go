package apmsim

import (
	"encoding/json"
	"net/http"
	"sync"
	"testing"
	"time"
)

// Shared helpers of the observability tests (meters, licenses, containers, notifications,
// events, faults) carry the prefix obs.

// obsClock is a clock the test moves by hand.
type obsClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *obsClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *obsClock) set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = t
}

// obsServers plays the server areas: it lists the same servers on every node, so the
// meters can be tested with any kind and status, apart from the real servers area.
type obsServers []nodeServer

func (obsServers) register(*router) {}

func (f obsServers) nodeServers(*world, *node) []nodeServer { return f }

// obsStart is the start of the obs clock, a minute boundary.
var obsStart = time.Date(2024, 5, 6, 7, 8, 0, 0, time.UTC)

// newObsSim is an empty-seeded sim with system "s", the given nodes in it (ND-0001, ...),
// the given fake servers on every node and a clock at obsStart.
func newObsSim(t testing.TB, nodes []string, servers ...nodeServer) (*Sim, *obsClock) {
	t.Helper()
	clock := &obsClock{t: obsStart}
	s, err := newSim(Options{AdminKey: testAdminKey, ViewerKey: testViewerKey, Clock: clock.now},
		func(*Sim) area { return obsServers(servers) })
	if err != nil {
		t.Fatal(err)
	}
	createSystem(t, s.Handler(), "s")
	for i, n := range nodes {
		createNode(t, s.Handler(), "s", n, "10.0.0.1", 7000+i)
	}
	return s, clock
}

// getAs GETs target with the viewer key (every observability read is a read), expects
// 200 and decodes the body into a T.
func getAs[T any](t testing.TB, h http.Handler, target string) T {
	t.Helper()
	got := call(t, h, "GET", viewer(target), "")
	if got.status != http.StatusOK {
		t.Fatalf("GET %s: status %d, body %s", target, got.status, got.body)
	}
	var v T
	if err := json.Unmarshal([]byte(got.body), &v); err != nil {
		t.Fatalf("GET %s: %v: %s", target, err, got.body)
	}
	return v
}

var obsTestServers = []nodeServer{
	{ServerID: "a1", ServerType: serverKindWAS, Status: "running"},
	{ServerID: "a2", ServerType: serverKindWAS, Status: "stopped"},
	{ServerID: "w1", ServerType: serverKindWeb, Status: "running"},
	{ServerID: "w2", ServerType: serverKindWeb, Status: "starting"},
	{ServerID: "s1", ServerType: serverKindSession, Status: "running"},
	{ServerID: "s2", ServerType: serverKindSession, Status: "stopped"},
}

// Every view of a node and its servers is computed by the same function: the list, the
// node, the node's /all and the per-server paths agree.
func TestMeterViewsAgree(t *testing.T) {
	s, _ := newObsSim(t, []string{"n1", "n2"}, obsTestServers...)
	h := s.Handler()
	list := getAs[struct{ Nodes []nodeMetersJSON }](t, h, "/meters/nodes")
	if len(list.Nodes) != 2 || list.Nodes[0].NodeName != "n1" || list.Nodes[1].NodeName != "n2" {
		t.Fatalf("node list %+v", list.Nodes)
	}
	detail := getAs[nodeMetersDetailJSON](t, h, "/meters/nodes/n1/systems/s")
	if detail.nodeMetersJSON != list.Nodes[0] {
		t.Errorf("detail %+v, list entry %+v", detail, list.Nodes[0])
	}
	all := getAs[nodeAllJSON](t, h, "/meters/nodes/n1/systems/s/all")
	if all.Node != detail {
		t.Errorf("/all node %+v, detail %+v", all.Node, detail)
	}
	if len(all.WASServers) != 2 || len(all.WebServers) != 2 {
		t.Fatalf("/all servers: %+v %+v (session servers must not be listed)", all.WASServers, all.WebServers)
	}
	for _, sum := range all.WASServers {
		full := getAs[wasMetersJSON](t, h, "/meters/was/servers/"+sum.ServerID+"/nodes/n1/systems/s")
		if (wasSummaryJSON{full.ServerID, full.HeapUsed, full.HeapMax, full.ThreadActive}) != sum {
			t.Errorf("/all has %+v, the server path %+v", sum, full)
		}
	}
	for _, sum := range all.WebServers {
		full := getAs[webServerMetersJSON](t, h, "/meters/web/servers/"+sum.ServerID+"/nodes/n1/systems/s")
		if full.ServerID != sum.ServerID || full.Connections != sum.Connections {
			t.Errorf("/all has %+v, the server path %+v", sum, full)
		}
	}
	// The same server id on another node is another series.
	other := getAs[wasMetersJSON](t, h, "/meters/was/servers/a1/nodes/n2/systems/s")
	first := getAs[wasMetersJSON](t, h, "/meters/was/servers/a1/nodes/n1/systems/s")
	if other == first {
		t.Errorf("a1 on n1 and on n2 report the same %+v", other)
	}
}

// Only running servers have load; capacities stay.
func TestMetersOfIdleServers(t *testing.T) {
	s, _ := newObsSim(t, []string{"n1"}, obsTestServers...)
	h := s.Handler()
	running := getAs[wasMetersJSON](t, h, "/meters/was/servers/a1/nodes/n1/systems/s")
	if running.HeapUsed == 0 || running.ThreadActive == 0 {
		t.Errorf("running WAS server has no load: %+v", running)
	}
	if got := getAs[wasMetersJSON](t, h, "/meters/was/servers/a2/nodes/n1/systems/s"); got.HeapUsed != 0 || got.ThreadActive != 0 ||
		got.GCCount != 0 || got.GCTime != 0 || got.HeapMax == 0 || got.ThreadMax == 0 {
		t.Errorf("stopped WAS server %+v", got)
	}
	if got := getAs[webServerMetersJSON](t, h, "/meters/web/servers/w2/nodes/n1/systems/s"); got.webTrafficJSON != (webTrafficJSON{}) {
		t.Errorf("starting web server %+v", got)
	}
	if got := getAs[webServerMetersJSON](t, h, "/meters/web/servers/w1/nodes/n1/systems/s"); got.RequestsPerSec < 2 || got.BytesIn == 0 || got.BytesOut <= got.BytesIn {
		t.Errorf("running web server %+v", got)
	}
	if got := getAs[sessionMetersJSON](t, h, "/meters/session/servers/s2/nodes/n1/systems/s"); got.ActiveSessions != 0 || got.MemoryUsed != 0 || got.MemoryMax == 0 {
		t.Errorf("stopped session server %+v", got)
	}
}

// meterPaths are every metrics path of newObsSim's world with the demo containers.
var meterPaths = []string{
	"/meters/nodes",
	"/meters/nodes/n1/systems/s",
	"/meters/nodes/n1/systems/s/all",
	"/meters/was/servers/a1/nodes/n1/systems/s",
	"/meters/web/servers/w1/nodes/n1/systems/s",
	"/meters/session/servers/s1/nodes/n1/systems/s",
}

// Metrics are a function of the world and the minute: equal for equal inputs, stable
// within a minute, moving from one minute to the next.
func TestMetersDeterministicAndMoving(t *testing.T) {
	s1, c1 := newObsSim(t, []string{"n1"}, obsTestServers...)
	s2, c2 := newObsSim(t, []string{"n1"}, obsTestServers...)
	c2.set(obsStart.Add(59 * time.Second)) // same minute
	for _, p := range meterPaths {
		a, b := call(t, s1.Handler(), "GET", viewer(p), ""), call(t, s2.Handler(), "GET", viewer(p), "")
		if a.status != 200 || a.body != b.body {
			t.Errorf("%s: %d %s\nvs %s", p, a.status, a.body, b.body)
		}
	}
	for _, p := range meterPaths {
		before := call(t, s1.Handler(), "GET", viewer(p), "").body
		changes := 0
		for m := 1; m <= 10; m++ {
			c1.set(obsStart.Add(time.Duration(m) * time.Minute))
			if call(t, s1.Handler(), "GET", viewer(p), "").body != before {
				changes++
			}
		}
		c1.set(obsStart)
		if changes < 9 {
			t.Errorf("%s changed in %d of 10 minutes", p, changes)
		}
	}
}

// Over a long stretch every value stays in its range, and usage sometimes exceeds the 90%
// threshold (so that threshold notifications happen).
func TestMeterRanges(t *testing.T) {
	s, _ := newObsSim(t, []string{"n1", "n2", "n3"}, obsTestServers...)
	var usageMax float64
	s.read(func(wd *world) {
		for _, n := range wd.sortedNodes() {
			for m := range 3000 {
				at := obsStart.Add(time.Duration(m) * time.Minute)
				nm := measureNode(n, at)
				usageMax = max(usageMax, nm.CPU, nm.DiskUsage, 100*float64(nm.MemoryUsed)/float64(nm.MemoryTotal))
				if nm.CPU < 1 || nm.CPU > 99 || nm.DiskUsage < 5 || nm.DiskUsage > 98 ||
					nm.MemoryUsed <= 0 || nm.MemoryUsed > nm.MemoryTotal || nm.NetworkIn < 0 || nm.NetworkOut < 0 {
					t.Fatalf("node %s at %s: %+v", n.Name, at, nm)
				}
				sv := serverMeter(n, obsTestServers[0], at)
				if w := wasMeters("a1", sv); w.HeapUsed > w.HeapMax || w.ThreadActive > w.ThreadMax || w.GCTime < 0 {
					t.Fatalf("WAS at %s: %+v", at, w)
				}
				if ss := sessionMeters("s1", sv); ss.MemoryUsed > ss.MemoryMax {
					t.Fatalf("session at %s: %+v", at, ss)
				}
			}
		}
	})
	if usageMax <= thresholdPercent {
		t.Errorf("usage never exceeds %v%% (max %v)", thresholdPercent, usageMax)
	}
}

func TestMetersNotFound(t *testing.T) {
	s, _ := newObsSim(t, []string{"n1"}, obsTestServers...)
	h := s.Handler()
	for _, tc := range []struct{ path, msg string }{
		{"/meters/nodes/n1/systems/nope", "System not found: nope"},
		{"/meters/nodes/nope/systems/s", "Node not found: nope"},
		{"/meters/nodes/nope/systems/s/all", "Node not found: nope"},
		{"/meters/was/servers/a1/nodes/nope/systems/s", "Node not found: nope"},
		{"/meters/was/servers/nope/nodes/n1/systems/s", "Server not found: nope"},
		{"/meters/was/servers/w1/nodes/n1/systems/s", "Server not found: w1"}, // a web server
		{"/meters/web/servers/a1/nodes/n1/systems/s", "Server not found: a1"},
		{"/meters/session/servers/a1/nodes/n1/systems/s", "Server not found: a1"},
		{"/meters/was/container/nope", "Container not found: nope"},
		{"/meters/web/container/nope", "Container not found: nope"},
	} {
		expect(t, call(t, h, "GET", viewer(tc.path), ""), http.StatusNotFound, errJSON(codeNotFound, tc.msg))
	}
}

// With the demo seed, the metrics follow what the servers area runs: the seeded WAS,
// web and session servers on web-01 are measured, and /all lists the WAS and web ones.
func TestMetersOfDemoServers(t *testing.T) {
	s := newTestSim(t, func(o *Options) { o.Seed = SeedDemo })
	h := s.Handler()
	all := getAs[nodeAllJSON](t, h, "/meters/nodes/web-01/systems/shop/all")
	var servers []nodeServer
	s.read(func(wd *world) {
		servers = nodesArea{s}.servers(wd, wd.nodeByName(wd.systemByName("shop").ID, "web-01"))
	})
	kinds := map[string]int{}
	for _, sv := range servers {
		kinds[sv.ServerType]++
		got := call(t, h, "GET", viewer("/meters/"+sv.ServerType+"/servers/"+sv.ServerID+"/nodes/web-01/systems/shop"), "")
		if got.status != http.StatusOK {
			t.Errorf("%s %s: %d %s", sv.ServerType, sv.ServerID, got.status, got.body)
		}
	}
	if kinds[serverKindWAS] == 0 || kinds[serverKindWeb] == 0 || kinds[serverKindSession] == 0 {
		t.Fatalf("demo servers on web-01: %+v", servers)
	}
	if len(all.WASServers) != kinds[serverKindWAS] || len(all.WebServers) != kinds[serverKindWeb] {
		t.Errorf("/all %+v, servers %+v", all, servers)
	}
}
