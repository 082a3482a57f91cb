//go:build chaos

package chaos

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/apmsim/apmsimtest"

	"github.com/apmplatform/terraform-provider-apm/internal/clitest"
)

// Tests of the harness itself, without a CLI: a scenario's verdict is only as good as the
// census, the output parsing and the process handling it rests on.

func TestFleetConfig(t *testing.T) {
	root, err := clitest.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	docs, err := filepath.Glob(filepath.Join(root, "docs", "resources", "*.md"))
	if err != nil || len(docs) == 0 {
		t.Fatalf("no resource documentation under %s: %v", root, err)
	}
	running := regexp.MustCompile(`\bstate += "running"`)
	for name, f := range map[string]fleet{"initial": initialFleet, "scaled in": scaledInFleet, "replaced": replacedFleet} {
		cfg := f.config()
		count := func(typ string) int { return strings.Count(cfg, `resource "`+typ+`" `) }
		// Every resource type the provider documents, in every topology, except the
		// operation resources (apm_was_rollout): they manage no object for the census to
		// count, so their pages have no import section.
		for _, doc := range docs {
			typ := "apm_" + strings.TrimSuffix(filepath.Base(doc), ".md")
			if page, err := os.ReadFile(doc); err != nil || !strings.Contains(string(page), "\n## Import\n") {
				continue
			}
			if n := count(typ); n < fleetTopologies {
				t.Errorf("%s: %d %s resources, want at least one per topology (%d)", name, n, typ, fleetTopologies)
			}
		}
		servers := count("apm_was_server") + count("apm_web_server") + count("apm_session_server")
		if all := strings.Count(cfg, "\nresource \""); all != f.objects() || servers != f.servers() {
			t.Errorf("%s: %d resources, %d servers; want %d, %d", name, all, servers, f.objects(), f.servers())
		}
		if systems, nodes := count("apm_system"), count("apm_node"); systems != fleetSystems || nodes != fleetSystems*fleetNodesPerSystem {
			t.Errorf("%s: %d systems, %d nodes; want %d, %d", name, systems, nodes, fleetSystems, fleetSystems*fleetNodesPerSystem)
		}
		enterprise, stopped := 0, 0
		if f.edition == "Enterprise" {
			enterprise = fleetTopologies
		}
		for s := fleetTopologies + 1; s <= fleetSystems; s++ {
			stopped += s % 2 // the odd systems outside the topologies
		}
		// The servers that declare running are the ones the census counts running; the
		// workers name each WAS server of a topology; the ports are the system's.
		for _, want := range []struct {
			what        string
			count, want int
		}{
			{`state = "running"`, len(running.FindAllString(cfg, -1)), f.running()},
			{`state = "stopped"`, strings.Count(cfg, `state       = "stopped"`), stopped},
			{"workers", strings.Count(cfg, "    (apm_was_server.s"), fleetTopologies * f.wasServers()},
			{"worker of s1 was-1", strings.Count(cfg, "    (apm_was_server.s1was.id) = {}"), 1},
			{`server_type = "Enterprise"`, strings.Count(cfg, `server_type = "Enterprise"`), enterprise},
			{"system 10's WAS port", strings.Count(cfg, "http_port   = 8110\n"), 1},
			{"system 1's session port", strings.Count(cfg, "server_port = 15201\n"), 1},
			{"node_id of s1's first session server", strings.Count(cfg, "node_id     = apm_node.s1n2.id"), 1},
		} {
			if want.count != want.want {
				t.Errorf("%s: %s %d times, want %d", name, want.what, want.count, want.want)
			}
		}
		if strings.Contains(cfg, "api_key") || strings.Contains(cfg, "endpoint") {
			t.Fatalf("%s: the configuration must leave endpoint and key to the environment", name)
		}
	}
}

func TestFaultRulesParse(t *testing.T) {
	for name, rules := range map[string][]string{"faultRules": faultRules, "destroyFaults": destroyFaults, "scaleInFaults": scaleInFaults,
		"replaceFaults": replaceFaults, "slowWrites": slowWrites,
		"slowServerWrites": slowServerWrites} {
		parsed, err := parseRules(rules)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if len(parsed) != len(rules) {
			t.Errorf("%s: %d rules parsed of %d", name, len(parsed), len(rules))
		}
	}
}

func TestSeeded(t *testing.T) {
	if got := seeded(slowWrites, ""); !slices.Equal(got, slowWrites) {
		t.Fatalf("no seed changed the rules: %q", got)
	}
	a, b := seeded(faultRules, "1"), seeded(faultRules, "2")
	rules, err := parseRules(a)
	if err != nil {
		t.Fatal(err)
	}
	if rules[0].Seed == 0 || rules[0].Seed == rules[1].Seed || slices.Equal(a, b) {
		t.Fatalf("seeds %q and %q: want a distinct non-zero seed per rule and per CHAOS_SEED", a, b)
	}
}

// The default seed must draw faults as a random seed would: the nominal share, and no
// stretch of five in a row, which fails a lone request on all its attempts. The draws are
// replayed one request after another, as an apply's quiet tail makes them.
func TestDefaultSeedDraws(t *testing.T) {
	for _, c := range []struct {
		name  string
		rules []string
		path  string
	}{
		{"faultRules", faultRules, "/rest/systems"},
		{"destroyFaults", destroyFaults, "/rest/was/servers/was-1/nodes/n/systems/s"},
		{"scaleInFaults", scaleInFaults, "/rest/systems"},
		{"replaceFaults", replaceFaults, "/rest/systems"},
	} {
		const draws = 1500
		faults, longest := replayDraws(t, seeded(c.rules, defaultSeed), c.path, draws)
		t.Logf("%s: %d faults of %d requests, at most %d in a row", c.name, faults, draws, longest)
		if share := float64(faults) / draws; share < 0.2 || share > 0.25 || longest > 4 {
			t.Errorf("%s with seed %q: %.3f of the requests fault (want 0.2 to 0.25), up to %d in a row (want at most 4)",
				c.name, defaultSeed, share, longest)
		}
	}
}

// replayDraws sends n GETs of path, one after another, to a sim with rules, in process,
// and counts the faulted ones and the longest stretch of them.
func replayDraws(t *testing.T, texts []string, path string, n int) (faults, longest int) {
	t.Helper()
	srv := apmsimtest.Start(t)
	rules, err := parseRules(texts)
	if err == nil {
		err = srv.Sim.SetFaults(rules...)
	}
	if err != nil {
		t.Fatal(err)
	}
	h := srv.Sim.Handler()
	faulted := func() (reset bool) {
		defer func() {
			// A reset hijacks the connection, which a recorder does not have.
			if r := recover(); r != nil {
				if r != http.ErrAbortHandler { //nolint:errorlint // the panic value itself
					panic(r)
				}
				reset = true
			}
		}()
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path+"?key="+url.QueryEscape(srv.AdminKey), nil))
		return rec.Code != http.StatusOK && rec.Code != http.StatusNotFound
	}
	run := 0
	for range n {
		if faulted() {
			faults, run = faults+1, run+1
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return faults, longest
}

func TestReadState(t *testing.T) {
	dir := t.TempDir()
	if v, err := readState(filepath.Join(dir, "none.tfstate")); err != nil || len(v.systems)+len(v.nodes) != 0 {
		t.Fatalf("missing state file: %+v, %v; want empty", v, err)
	}
	path := filepath.Join(dir, "terraform.tfstate")
	clitest.MustWrite(t, path, "")
	if v, err := readState(path); err != nil || len(v.systems)+len(v.nodes) != 0 {
		t.Fatalf("empty state file: %+v, %v; want empty", v, err)
	}
	clitest.MustWrite(t, path, `{"version":4,"resources":[
  {"mode":"managed","type":"apm_system","name":"s1","instances":[{"attributes":{"id":"SYS-1","name":"chaos-s1","node_count":9}}]},
  {"mode":"managed","type":"apm_node","name":"s1n1","instances":[{"attributes":{"id":"SYS-1/s1-n1","system_id":"SYS-1","name":"s1-n1","node_id":"ND-1","agent_port":7701}}]},
  {"mode":"managed","type":"apm_was_server","name":"s1was","instances":[{"attributes":{"id":"SYS-1/s1-n1/was-1","node_id":"SYS-1/s1-n1","server_id":"was-1","http_port":8101,"ajp_port":0,"state":"running","status":"running"}}]},
  {"mode":"managed","type":"apm_session_server","name":"s1session","instances":[{"attributes":{"id":"SYS-1/s1-n2/session-1","node_id":"SYS-1/s1-n2","server_id":"session-1","server_port":15201,"state":null,"status":"stopped"}}]},
  {"mode":"managed","type":"apm_was_server","name":"s1was2","instances":[{"attributes":{"node_id":"SYS-1/s1-n3","server_id":"was-2","http_port":8201,"server_type":"Enterprise","state":"running"}}]},
  {"mode":"managed","type":"apm_web_workers","name":"s1","instances":[{"attributes":{"web_server_id":"SYS-1/s1-n5/web-1","workers":{"SYS-1/s1-n3/was-2":{"lb_factor":1},"SYS-1/s1-n1/was-1":{"lb_factor":1}}}}]},
  {"mode":"managed","type":"apm_web_uri_patterns","name":"s1","instances":[{"attributes":{"web_server_id":"SYS-1/s1-n5/web-1","patterns":["/s1/*","/api/*"]}}]},
  {"mode":"managed","type":"apm_web_ssl","name":"s1","instances":[{"attributes":{"web_server_id":"SYS-1/s1-n5/web-1","https_port":8401}}]},
  {"mode":"managed","type":"apm_was_session_cluster","name":"s1was","instances":[{"attributes":{"was_server_id":"SYS-1/s1-n1/was-1","primary_host":"10.0.1.2","primary_port":15201,"secondary_host":"10.0.1.4","secondary_port":15301}}]},
  {"mode":"managed","type":"apm_was_datasource","name":"s1was","instances":[{"attributes":{"was_server_id":"SYS-1/s1-n1/was-1","datasource_name":"chaos-s1-ds"}}]},
  {"mode":"managed","type":"apm_was_application","name":"s1was","instances":[{"attributes":{"was_server_id":"SYS-1/s1-n1/was-1","context_path":"/shop"}}]},
  {"mode":"managed","type":"apm_database","name":"s1","instances":[{"attributes":{"id":"chaos-s1-db","resource_name":"chaos-s1-db"}}]},
  {"mode":"managed","type":"apm_datasource","name":"s1","instances":[{"attributes":{"resource_name":"chaos-s1-ds","database_id":"chaos-s1-db"}}]},
  {"mode":"managed","type":"apm_user","name":"s1","instances":[{"attributes":{"user_id":"chaos-s1"}}]},
  {"mode":"managed","type":"apm_role","name":"s1","instances":[{"attributes":{"role_id":"chaos-s1-ops"}}]},
  {"mode":"managed","type":"apm_user_role","name":"s1","instances":[{"attributes":{"user_id":"chaos-s1","role_id":"chaos-s1-ops"}}]},
  {"mode":"data","type":"apm_was_server","name":"d","instances":[{"attributes":{"id":"SYS-1/s1-n1/was-1","node_id":"SYS-1/s1-n1","server_id":"was-1"}}]},
  {"mode":"data","type":"apm_system","name":"d","instances":[{"attributes":{"id":"SYS-9"}}]}]}`)
	v, err := readState(path)
	if err != nil {
		t.Fatal(err)
	}
	wantSys := []stateSystem{{addr: "apm_system.s1", id: "SYS-1", name: "chaos-s1"}}
	wantNodes := []stateNode{{addr: "apm_node.s1n1", systemID: "SYS-1", name: "s1-n1", nodeID: "ND-1"}}
	wantServers := []stateServer{
		{addr: "apm_was_server.s1was", kind: apm.KindWAS, nodeID: "SYS-1/s1-n1", serverID: "was-1", port: 8101, state: "running"},
		{addr: "apm_session_server.s1session", kind: apm.KindSession, nodeID: "SYS-1/s1-n2", serverID: "session-1", port: 15201},
		{addr: "apm_was_server.s1was2", kind: apm.KindWAS, nodeID: "SYS-1/s1-n3", serverID: "was-2", port: 8201, edition: "Enterprise", state: "running"},
	}
	wantEntries := []stateEntry{
		{"apm_web_workers.s1", "workers of SYS-1/s1-n5/web-1", "SYS-1/s1-n1/was-1, SYS-1/s1-n3/was-2"},
		{"apm_web_uri_patterns.s1", "URI patterns of SYS-1/s1-n5/web-1", "/api/*, /s1/*"},
		{"apm_web_ssl.s1", "SSL of SYS-1/s1-n5/web-1", "HTTPS port 8401"},
		{"apm_was_session_cluster.s1was", "session clustering of SYS-1/s1-n1/was-1", "primary 10.0.1.2:15201, secondary 10.0.1.4:15301"},
		{"apm_was_datasource.s1was", "datasource chaos-s1-ds attached to SYS-1/s1-n1/was-1", ""},
		{"apm_was_application.s1was", "application /shop on SYS-1/s1-n1/was-1", ""},
		{"apm_database.s1", "database chaos-s1-db", ""},
		{"apm_datasource.s1", "datasource chaos-s1-ds", "chaos-s1-db"},
		{"apm_user.s1", "user chaos-s1", ""},
		{"apm_role.s1", "role chaos-s1-ops", ""},
		{"apm_user_role.s1", "grant chaos-s1/chaos-s1-ops", ""},
	}
	if !slices.Equal(v.systems, wantSys) || !slices.Equal(v.nodes, wantNodes) || !slices.Equal(v.servers, wantServers) ||
		!slices.Equal(v.entries, wantEntries) {
		t.Fatalf("state %+v", v)
	}
	clitest.MustWrite(t, path, `{"version":4,"resources":[`)
	if _, err := readState(path); err == nil {
		t.Fatal("a truncated state file must be an error, not an empty state")
	}
}

// twoSystems is a manager with systems a (2 nodes) and b (1 node), a WAS server running
// on a/n1, a session server on a/n2 and one on b/n1, and a state of it all. The session
// server on a/n2 declares no running state.
func twoSystems() (managerView, stateView) {
	m := managerView{
		systems: []apm.System{{SystemID: "S1", SystemName: "a"}, {SystemID: "S2", SystemName: "b"}},
		nodes:   []apm.Node{{SystemName: "a", NodeName: "n1"}, {SystemName: "a", NodeName: "n2"}, {SystemName: "b", NodeName: "n1"}},
		servers: []apm.Server{
			{Kind: apm.KindWAS, ServerID: "w", NodeName: "n1", SystemName: "a", Status: "running", HTTPPort: 8101},
			{Kind: apm.KindSession, ServerID: "s", NodeName: "n2", SystemName: "a", Status: "stopped", ServerPort: 15201},
			{Kind: apm.KindSession, ServerID: "s", NodeName: "n1", SystemName: "b", Status: "stopped", ServerPort: 15202},
		},
	}
	s := stateView{
		systems: []stateSystem{{"apm_system.a", "S1", "a"}, {"apm_system.b", "S2", "b"}},
		nodes:   []stateNode{{"apm_node.a1", "S1", "n1", "N1"}, {"apm_node.a2", "S1", "n2", "N2"}, {"apm_node.b1", "S2", "n1", "N3"}},
		servers: []stateServer{
			{"apm_was_server.aw", apm.KindWAS, "S1/n1", "w", 8101, "", "running"},
			{"apm_session_server.as", apm.KindSession, "S1/n2", "s", 15201, "", ""},
			{"apm_session_server.bs", apm.KindSession, "S2/n1", "s", 15202, "", "stopped"},
		},
	}
	return m, s
}

func TestCensusClean(t *testing.T) {
	c := takeCensus(twoSystems())
	if c.objects != 8 || c.servers != 3 || c.running != 1 || c.inState != 8 || len(c.orphans)+len(c.missing)+len(c.duplicates)+len(c.mismatches) != 0 {
		t.Fatalf("census %+v; want 8 objects (3 servers, 1 running), all in state, nothing else", c)
	}
}

// A server is its kind, node and serverId: one on another node, or of another kind, is
// an orphan and a missing one; one in both must have the state's port and declared
// running state, and one that declares none may have any status.
func TestCensusServers(t *testing.T) {
	m, s := twoSystems()
	m.servers[1].Status = "running" // a/n2 declares no state: any status will do
	// An install the state lacks, and a web server the state has where the manager has a
	// session server of the same id.
	m.servers = append(m.servers, apm.Server{Kind: apm.KindWAS, ServerID: "w", NodeName: "n2", SystemName: "a"})
	s.servers = append(s.servers, stateServer{"apm_web_server.bw", apm.KindWeb, "S2/n1", "s", 80, "", ""})
	c := takeCensus(m, s)
	wantOrphans, wantMissing := []string{"was server a/n2/w"}, []string{"apm_web_server.bw (S2/n1/s)"}
	if !slices.Equal(c.orphans, wantOrphans) || !slices.Equal(c.missing, wantMissing) || len(c.mismatches)+len(c.duplicates) != 0 {
		t.Fatalf("census %+v; want orphans %q, missing %q", c, wantOrphans, wantMissing)
	}
	if c.objects != 9 || c.servers != 4 || c.running != 2 {
		t.Errorf("census %+v; want 9 objects, 4 servers, 2 running", c)
	}

	m, s = twoSystems()
	m.servers[0].Status = "stopped" // declared running
	m.servers[2].HTTPPort = 15202   // the session server's port is its server_port
	m.servers[2].ServerPort = 15299 // moved
	s.servers[1].port = 15200       // recorded wrong
	c = takeCensus(m, s)
	wantMismatches := []string{
		"apm_session_server.as: port 15200 in the state, 15201 in the manager",
		"apm_session_server.bs: port 15202 in the state, 15299 in the manager",
		"apm_was_server.aw: state running in the state, status stopped in the manager",
	}
	if !slices.Equal(c.mismatches, wantMismatches) || len(c.orphans)+len(c.missing)+len(c.duplicates) != 0 {
		t.Fatalf("census %+v; want mismatches %q", c, wantMismatches)
	}

	// A server the manager has on another system's node of the same name is not it.
	m, s = twoSystems()
	m.servers[0].SystemName = "b"
	c = takeCensus(m, s)
	if !slices.Equal(c.orphans, []string{"was server b/n1/w"}) || !slices.Equal(c.missing, []string{"apm_was_server.aw (S1/n1/w)"}) {
		t.Fatalf("census %+v; want the server on b/n1 an orphan and a/n1's missing", c)
	}
}

func TestCensusOrphansAndMissing(t *testing.T) {
	m, s := twoSystems()
	s.nodes = s.nodes[1:]                                             // a/n1 lost from the state
	s.systems = s.systems[:1]                                         // b lost from the state
	s.nodes = append(s.nodes, stateNode{"apm_node.x", "S1", "x", ""}) // in the state only
	c := takeCensus(m, s)
	wantOrphans := []string{"node a/n1", "system b (S2)"}
	wantMissing := []string{"apm_node.x (S1/x)"}
	if !slices.Equal(c.orphans, wantOrphans) || !slices.Equal(c.missing, wantMissing) || len(c.duplicates) != 0 {
		t.Fatalf("census %+v; want orphans %q, missing %q", c, wantOrphans, wantMissing)
	}
}

func TestCensusDuplicates(t *testing.T) {
	m, s := twoSystems()
	m.systems = append(m.systems, apm.System{SystemID: "S3", SystemName: "a"})                                       // a name twice
	m.nodes = append(m.nodes, apm.Node{SystemName: "b", NodeName: "n1"})                                             // a node twice
	s.systems = append(s.systems, stateSystem{"apm_system.a2", "S1", "a"})                                           // two resources, one system
	s.nodes = append(s.nodes, stateNode{"apm_node.b1x", "S2", "n1x", "N3"})                                          // one nodeId twice
	s.servers = append(s.servers, stateServer{"apm_was_server.aw2", apm.KindWAS, "S1/n1", "w", 8101, "", "running"}) // one server twice
	c := takeCensus(m, s)
	if len(c.duplicates) != 5 || !slices.Contains(c.duplicates, "state: server was S1/n1/w (copy 2)") {
		t.Fatalf("duplicates %q; want 5, the WAS server's among them", c.duplicates)
	}
}

// topology is twoSystems with a topology on system a: a web server on a/n2 balancing to
// the WAS server on a/n1, with URI patterns and SSL; the WAS server's session clustering,
// datasource and application; the database and datasource, a user granted a role.
func topology() (managerView, stateView) {
	m, s := twoSystems()
	m.detailed = true
	m.servers[0].Edition = apm.EditionStandard
	m.servers[0].SessionCluster = &apm.SessionCluster{PrimaryHost: "10.0.0.2", PrimaryPort: 15201, SecondaryHost: "10.0.0.3", SecondaryPort: 15202}
	m.servers[0].Datasources = []string{"ds"}
	m.servers = append(m.servers, apm.Server{Kind: apm.KindWeb, ServerID: "web", NodeName: "n2", SystemName: "a", Status: "running", HTTPPort: 80,
		HTTPSPort: 443, SSLEnabled: true, URIs: []string{"/shop/*", "/api/*"}, Workers: []apm.Worker{{ServerID: "w", NodeName: "n1", SystemName: "a"}}})
	m.applications = map[apm.ServerRef][]string{m.servers[0].Ref(): {"/shop"}}
	m.databases = []apm.Database{{ResourceName: "db"}}
	m.datasources = []apm.Datasource{{ResourceName: "ds", DatabaseResourceName: "db"}}
	m.users = []apm.User{{UserID: "u"}}
	m.roles = []apm.Role{{AuthID: "r"}}
	m.grants = []grant{{"u", "r"}}
	s.servers[0].edition = "Standard"
	s.servers = append(s.servers, stateServer{"apm_web_server.aweb", apm.KindWeb, "S1/n2", "web", 80, "", "running"})
	s.entries = []stateEntry{
		{"apm_web_workers.a", workersKey("S1/n2/web"), "S1/n1/w"},
		{"apm_web_uri_patterns.a", urisKey("S1/n2/web"), "/api/*, /shop/*"},
		{"apm_web_ssl.a", sslKey("S1/n2/web"), sslValue(443)},
		{"apm_was_session_cluster.a", clusterKey("S1/n1/w"), clusterValue("10.0.0.2", 15201, "10.0.0.3", 15202)},
		{"apm_was_datasource.a", attachmentKey("S1/n1/w", "ds"), ""},
		{"apm_was_application.a", applicationKey("S1/n1/w", "/shop"), ""},
		{"apm_database.a", databaseKey("db"), ""},
		{"apm_datasource.a", datasourceKey("ds"), "db"},
		{"apm_user.a", userKey("u"), ""},
		{"apm_role.a", roleKey("r"), ""},
		{"apm_user_role.a", grantKey("u", "r"), ""},
	}
	return m, s
}

// The parts and the named objects: every one counts as an object, is matched by its
// identity in both, and must have the state's value.
func TestCensusTopology(t *testing.T) {
	m, s := topology()
	c := takeCensus(m, s)
	if c.objects != 20 || c.inState != 20 || c.servers != 4 || c.running != 2 || len(c.orphans)+len(c.missing)+len(c.duplicates)+len(c.mismatches) != 0 {
		t.Fatalf("census %+v; want 20 objects (4 servers, 2 running), all in state, nothing else", c)
	}
	// Without details, only the named objects of the lists count, not the parts.
	m.detailed = false
	if n := m.objects(); n != 13 {
		t.Errorf("%d objects without details, want 13 (8 and the web server, database, datasource, user and role)", n)
	}

	// A worker, SSL set-up and grant the state lacks; an application the manager lacks.
	m, s = topology()
	s.entries = slices.DeleteFunc(s.entries, func(e stateEntry) bool {
		return slices.Contains([]string{"apm_web_workers.a", "apm_web_ssl.a", "apm_user_role.a"}, e.addr)
	})
	m.applications = nil
	c = takeCensus(m, s)
	wantOrphans := []string{"SSL of web server a/n2/web", "grant of role r to user u", "workers of web server a/n2/web"}
	wantMissing := []string{"apm_was_application.a (application /shop on S1/n1/w)"}
	if !slices.Equal(c.orphans, wantOrphans) || !slices.Equal(c.missing, wantMissing) || len(c.mismatches)+len(c.duplicates) != 0 {
		t.Fatalf("census %+v; want orphans %q, missing %q", c, wantOrphans, wantMissing)
	}

	// Parts whose values differ, and a server_type.
	m, s = topology()
	m.servers[0].Edition = apm.EditionEnterprise
	m.servers[0].SessionCluster.SecondaryPort = 15299
	web := &m.servers[len(m.servers)-1]
	web.HTTPSPort = 8443
	web.Workers = append(web.Workers, apm.Worker{ServerID: "w2", NodeName: "n1", SystemName: "b"})
	m.datasources[0].DatabaseResourceName = "other"
	c = takeCensus(m, s)
	wantMismatches := []string{
		`apm_datasource.a: "db" in the state, "other" in the manager`,
		`apm_was_server.aw: server_type Standard in the state, Enterprise in the manager`,
		`apm_was_session_cluster.a: "primary 10.0.0.2:15201, secondary 10.0.0.3:15202" in the state, "primary 10.0.0.2:15201, secondary 10.0.0.3:15299" in the manager`,
		`apm_web_ssl.a: "HTTPS port 443" in the state, "HTTPS port 8443" in the manager`,
		`apm_web_workers.a: "S1/n1/w" in the state, "S1/n1/w, S2/n1/w2" in the manager`,
	}
	if !slices.Equal(c.mismatches, wantMismatches) || len(c.orphans)+len(c.missing)+len(c.duplicates) != 0 {
		t.Fatalf("census %+v; want mismatches %q", c, wantMismatches)
	}

	// Two resources for one SSL set-up.
	m, s = topology()
	s.entries = append(s.entries, stateEntry{"apm_web_ssl.b", sslKey("S1/n2/web"), sslValue(443)})
	if c = takeCensus(m, s); !slices.Equal(c.duplicates, []string{"state: SSL of S1/n2/web (copy 2)"}) {
		t.Fatalf("duplicates %q; want the SSL set-up's", c.duplicates)
	}
}

// A boxed diagnostic as OpenTofu prints it, wrapped, after a warning box.
const sampleOutput = `╷
│ Warning: Provider development overrides are in effect
╵
apm_node.s1n2: Creating...
╷
│ Error: Failed to create node "s3-n4"
│
│   with apm_node.s3n4,
│   on main.tf line 40:
│
│ POST /rest/nodes: 409 CONFLICT: Node already exists: s3-n4
│
│ The object already exists in the manager. To manage it with Terraform,
│ import it instead of creating it:
│   terraform import apm_node.<name> SYS-0003/s3-n4
╵
╷
│ Error: Failed to create system "chaos-s2"
│
│ POST /rest/systems: 502 BAD_GATEWAY: Injected fault
╵
╷
│ Error: Failed to create system "chaos-s1"
│
│ POST /rest/systems: 409 CONFLICT: System already exists: chaos-s1
│
│ The object already exists in the manager. To manage it with Terraform, import
│ it instead of creating it (terraform import apm_system.<name> chaos-s1, or an
│ import block).
╵
╷
│ Error: Failed to create system "chaos-s5"
│
│ Post "https://127.0.0.1:1/rest/systems": EOF
│
│ Looking for the object afterwards failed too: GET /rest/systems/chaos-s5:
│ 404 NOT_FOUND: System not found
╵
`

// The same diagnostics as -no-color prints them: no boxes.
var samplePlain = unbox(sampleOutput)

func TestDiagnostics(t *testing.T) {
	for name, out := range map[string]string{"boxed": sampleOutput, "plain": samplePlain} {
		t.Run(name, func(t *testing.T) { testDiagnostics(t, out) })
	}
}

func testDiagnostics(t *testing.T, out string) {
	blocks := diagnostics(out)
	if len(blocks) != 4 || !strings.HasPrefix(blocks[0], `Error: Failed to create node "s3-n4"`) || !strings.HasSuffix(blocks[0], "SYS-0003/s3-n4") {
		t.Fatalf("blocks %q", blocks)
	}
	if got, want := kinds(blocks), "409 CONFLICT ×2, 502 BAD_GATEWAY ×1, eof ×1"; got != want {
		t.Errorf("kinds = %q, want %q", got, want)
	}
	var caused []bool
	for _, b := range blocks {
		caused = append(caused, faultCaused(b))
	}
	if want := []bool{false, true, false, true}; !slices.Equal(caused, want) {
		t.Errorf("faultCaused of the blocks = %v, want %v (the 502 and the EOF are the faults')", caused, want)
	}
	ids := importIDs(conflicts(blocks))
	if !slices.Equal(ids, []string{"apm_node SYS-0003/s3-n4", "apm_system chaos-s1"}) {
		t.Fatalf("import IDs %q", ids)
	}
	if !namesOrphan([]string{"node chaos-s3/s3-n4"}, ids[0]) || namesOrphan([]string{"node chaos-s3/s3-n5"}, ids[0]) {
		t.Error("namesOrphan must match the orphan by the node's name only")
	}
	if !namesOrphan([]string{"system chaos-s2 (SYS-2)"}, "apm_system chaos-s2") || namesOrphan([]string{"node chaos-s2/x"}, "apm_system chaos-s2") {
		t.Error("namesOrphan must match systems by name and type")
	}
	named := []string{"database chaos-s1-db", "user chaos-s1", "datasource chaos-s1-ds"}
	for id, want := range map[string]bool{
		"apm_database chaos-s1-db": true,
		"apm_user chaos-s1":        true,
		"apm_role chaos-s1":        false, // a user of that name, no role
		"apm_datasource chaos-s1":  false, // another name
		"apm_database chaos-s1-ds": false, // a datasource of that name
	} {
		if got := namesOrphan(named, id); got != want {
			t.Errorf("namesOrphan(%q) = %v, want %v", id, got, want)
		}
	}
	servers := []string{"node chaos-s3/s3-n2", "was server chaos-s3/s3-n1/was-1", "session server chaos-s3/s3-n2/session-1"}
	for id, want := range map[string]bool{
		"apm_was_server SYS-0003/s3-n1/was-1":         true,
		"apm_session_server SYS-0003/s3-n2/session-1": true,
		"apm_was_server SYS-0003/s3-n2/was-1":         false, // no WAS server on s3-n2
		"apm_web_server SYS-0003/s3-n1/was-1":         false, // another kind
		"apm_session_server SYS-0003/s3-n2":           false, // not a server's id
	} {
		if got := namesOrphan(servers, id); got != want {
			t.Errorf("namesOrphan(%q) = %v, want %v", id, got, want)
		}
	}
}

func TestFirstLines(t *testing.T) {
	block := "Error: Failed to create node \"s3-n4\"\n\n  with apm_node.s3n4,\n  on main.tf line 40, in resource:\n  40: resource \"apm_node\" \"s3n4\" {\n\nPOST /rest/nodes: 409 CONFLICT\n\nmore\nand more"
	want := "Error: Failed to create node \"s3-n4\"\n    POST /rest/nodes: 409 CONFLICT\n    more\n    …"
	if got := firstLines(block, 3); got != want {
		t.Errorf("firstLines = %q, want %q", got, want)
	}
}

func TestPlanLines(t *testing.T) {
	out := "  # apm_node.s1n1 will be created\n  + resource ...\nPlan: 1 to add, 0 to change, 0 to destroy.\n"
	if got := planLines(out); len(got) != 2 || got[1] != "Plan: 1 to add, 0 to change, 0 to destroy." {
		t.Fatalf("planLines = %q", got)
	}
}

// Killing the leader alone leaves its group behind, as a killed CLI leaves its provider;
// the run's end must find and kill what is left.
func TestKilledLeaderLeftoversAreKilled(t *testing.T) {
	dir := t.TempDir()
	p := startProc(t, dir, filepath.Join(dir, "sh.log"), os.Environ(), "/bin/sh", "-c", "sleep 60 & echo $! > child.pid; wait")
	child := waitForPID(t, filepath.Join(dir, "child.pid"))
	if err := p.signalLeader(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	r := p.wait()
	if r.signal != syscall.SIGKILL || !r.leftovers {
		t.Fatalf("result %+v; want killed by SIGKILL with leftovers", r)
	}
	if stat, err := os.ReadFile("/proc/" + strconv.Itoa(child) + "/stat"); err == nil && liveMember(string(stat), p.cmd.Process.Pid) {
		t.Fatalf("the group's child %d survived", child)
	}
}

// A signal to the group reaches every member, as Ctrl-C does. SIGTERM stands in for SIGINT
// here: a non-interactive shell starts its background jobs with SIGINT ignored.
func TestGroupSignalReachesAll(t *testing.T) {
	dir := t.TempDir()
	p := startProc(t, dir, filepath.Join(dir, "sh.log"), os.Environ(), "/bin/sh", "-c", "sleep 60 & echo $! > child.pid; wait")
	waitForPID(t, filepath.Join(dir, "child.pid"))
	if err := p.signalGroup(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if r := p.wait(); r.leftovers || r.exit == 0 {
		t.Fatalf("result %+v; want the group ended by the signal, nothing left", r)
	}
}

func waitForPID(t *testing.T, path string) int {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if b, err := os.ReadFile(path); err == nil && strings.HasSuffix(string(b), "\n") {
			pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
			if err != nil {
				t.Fatal(err)
			}
			return pid
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("the shell did not write its child's pid")
	return 0
}

func TestLiveMember(t *testing.T) {
	for stat, want := range map[string]bool{
		"12 (terraform-provider-apm) S 1 77 77 0": true,
		"12 (odd) name) R 1 77 77 0":              true,
		"12 (terraform-provider-apm) Z 1 77 77 0": false,
		"12 (sh) S 1 78 78 0":                     false,
		"garbage":                                 false,
	} {
		if got := liveMember(stat, 77); got != want {
			t.Errorf("liveMember(%q) = %v, want %v", stat, got, want)
		}
	}
}

func TestFindCLI(t *testing.T) {
	root := t.TempDir()
	cli := filepath.Join(root, "bin", "tf")
	if err := os.Mkdir(filepath.Join(root, "bin"), 0o700); err != nil {
		t.Fatal(err)
	}
	clitest.MustWrite(t, filepath.Join(root, "bin", "notexec"), "") // 0600: not executable
	if err := os.WriteFile(cli, []byte("#!/bin/sh\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	for override, want := range map[string]string{"bin/tf": cli, cli: cli, "bin/notexec": "", "bin": "", "": ""} {
		got, err := findCLI(root, override)
		if got != want || (err != nil) != (want == "") {
			t.Errorf("findCLI(%q) = %q, %v; want %q", override, got, err, want)
		}
	}
}

func TestRedact(t *testing.T) {
	if got := redact("url?key=s3cr3t&x=s3cr3t", "s3cr3t"); got != "url?key=<redacted>&x=<redacted>" {
		t.Errorf("redact = %q", got)
	}
	if got := redact("abc", ""); got != "abc" {
		t.Errorf("redact with no key = %q", got)
	}
}
