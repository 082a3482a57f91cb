package apmsim

import (
	"encoding/json"
	"net/http"
	"path/filepath"
	"testing"
)

// fakeServersArea is a minimal area built the way later areas (WAS, web,
// session servers) plug in: its own state slot and the optional hooks,
// with no change to the core files.
type fakeServersArea struct{ s *Sim }

type fakeServerData struct {
	ByNode map[string][]nodeServer `json:"byNode"` // by node ID
}

func (d *fakeServerData) init() { d.ByNode = map[string][]nodeServer{} }

var fakeServerState = newExtKey[fakeServerData]("test-fake-servers")

func (a fakeServersArea) register(r *router) {
	r.handle("POST /rest/fake/{nodeId}/{serverId}", func(w http.ResponseWriter, r *http.Request) {
		err := a.s.update(func(wd *world) error {
			n := wd.nodes[r.PathValue("nodeId")]
			if n == nil {
				return notFound("Node not found: %s", r.PathValue("nodeId"))
			}
			st := fakeServerState.of(wd)
			st.ByNode[n.ID] = append(st.ByNode[n.ID], nodeServer{ServerID: r.PathValue("serverId"), ServerType: "S", Status: "stopped"})
			return nil
		})
		if err != nil {
			writeErr(w, err)
			return
		}
		actionOK(w)
	})
}

// seed puts its server on app-01, the demo node the real servers area leaves empty, so
// that the node's detail shows this area's servers alone.
func (a fakeServersArea) seed(wd *world, _ string) {
	app := wd.nodeByName(wd.systemByName("shop").ID, "app-01")
	fakeServerState.of(wd).ByNode[app.ID] = []nodeServer{{ServerID: "seeded", ServerType: "E", Status: "running"}}
}

func (a fakeServersArea) nodeServers(wd *world, n *node) []nodeServer {
	return fakeServerState.of(wd).ByNode[n.ID]
}

func (a fakeServersArea) countSystem(wd *world, sys *system, c *systemCounts) {
	for _, n := range wd.nodesOf(sys.ID) {
		c.App += len(fakeServerState.of(wd).ByNode[n.ID])
	}
	c.Cache = 7
}

func (a fakeServersArea) checkNodeDelete(wd *world, n *node) error {
	if k := len(fakeServerState.of(wd).ByNode[n.ID]); k > 0 {
		return conflict("Node %s still has %d server(s)", n.Name, k)
	}
	return nil
}

func TestAreaHooksAndState(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	var s *Sim
	start := func() http.Handler {
		var err error
		s, err = newSim(Options{AdminKey: testAdminKey, Seed: SeedDemo, StateFile: path, Clock: testClock},
			func(s *Sim) area { return fakeServersArea{s} })
		if err != nil {
			t.Fatal(err)
		}
		return s.Handler()
	}
	h := start()
	// The seeder ran after the core ones, and the hooks show up.
	expect(t, call(t, h, "GET", admin("/rest/nodes/app-01/systems/shop"), ""), 200,
		`{"nodeId":"ND-0002","nodeName":"app-01","systemName":"shop","hostIp":"10.0.0.12","agentPort":7730,"status":"running",`+
			`"servers":[{"serverId":"seeded","serverType":"E","status":"running"}]}`)
	before := systemCountsOf(t, h, "shop")
	mustOK(t, h, "POST", admin("/rest/fake/ND-0002/was-1"), "")
	after := systemCountsOf(t, h, "shop")
	if after.App != before.App+1 || after.Cache != 7 || after.Web != before.Web {
		t.Fatalf("system counts went from %+v to %+v; want one more app server and cacheCount 7", before, after)
	}
	expect(t, call(t, h, "DELETE", admin("/rest/nodes/ND-0002/systems/shop"), ""), 409,
		errJSON("CONFLICT", "Node app-01 still has 2 server(s)"))

	// The area's state went through the state file.
	h = start()
	expect(t, call(t, h, "GET", admin("/rest/nodes/app-01/systems/shop"), ""), 200,
		`{"nodeId":"ND-0002","nodeName":"app-01","systemName":"shop","hostIp":"10.0.0.12","agentPort":7730,"status":"running",`+
			`"servers":[{"serverId":"seeded","serverType":"E","status":"running"},{"serverId":"was-1","serverType":"S","status":"stopped"}]}`)
	if got := s.RequestCounts()["POST /rest/fake/{nodeId}/{serverId}"]; got != 0 {
		t.Fatalf("fresh sim counts %d", got)
	}
}

// systemCountsOf reads a system's server counts through the API; only the list carries
// them.
func systemCountsOf(t *testing.T, h http.Handler, name string) systemCounts {
	t.Helper()
	got := call(t, h, "GET", admin("/rest/systems"), "")
	var body struct {
		Systems []struct {
			SystemName string `json:"systemName"`
			Web        int    `json:"webCount"`
			App        int    `json:"appCount"`
			Cache      int    `json:"cacheCount"`
		} `json:"systems"`
	}
	if got.status != http.StatusOK || json.Unmarshal([]byte(got.body), &body) != nil {
		t.Fatalf("GET systems: %d %s", got.status, got.body)
	}
	for _, sys := range body.Systems {
		if sys.SystemName == name {
			return systemCounts{Web: sys.Web, App: sys.App, Cache: sys.Cache}
		}
	}
	t.Fatalf("system %s not listed: %s", name, got.body)
	return systemCounts{}
}
