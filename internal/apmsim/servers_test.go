package apmsim

import (
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// srvClock is a clock the test moves by hand, so that the starting/stopping phases can be
// observed and ended deterministically.
type srvClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *srvClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *srvClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// srvEvents is an area that records what the servers area publishes.
type srvEvents struct{ log *[]simEvent }

func (srvEvents) register(*router) {}

func (e srvEvents) recordEvent(_ *world, ev simEvent) { *e.log = append(*e.log, ev) }

// srvFixture is a demo-seeded sim with a hand-moved clock, a 1 s transition delay and
// an event recorder.
type srvFixture struct {
	s      *Sim
	h      http.Handler
	clock  *srvClock
	events *[]simEvent
}

func newSrvFixture(t *testing.T, mods ...func(*Options)) *srvFixture {
	t.Helper()
	f := &srvFixture{clock: &srvClock{t: testClock()}, events: &[]simEvent{}}
	opts := Options{AdminKey: testAdminKey, ViewerKey: testViewerKey, Seed: SeedDemo, Clock: f.clock.now, TransitionDelay: time.Second}
	for _, m := range mods {
		m(&opts)
	}
	s, err := newSim(opts, func(*Sim) area { return srvEvents{f.events} })
	if err != nil {
		t.Fatal(err)
	}
	f.s, f.h = s, s.Handler()
	return f
}

// messages returns the recorded events as "SEVERITY target: message".
func (f *srvFixture) messages() []string {
	var out []string
	f.s.read(func(*world) {
		for _, ev := range *f.events {
			out = append(out, ev.Severity+" "+ev.Target+": "+ev.Message)
		}
	})
	return out
}

// srvPath is the address of one server plus suffix.
func srvPath(kind, id, nodeName, suffix string) string {
	return "/rest/" + kind + "/servers/" + id + "/nodes/" + nodeName + "/systems/shop" + suffix
}

// status reads a server's status from its detail.
func (f *srvFixture) status(t *testing.T, kind, id, nodeName string) string {
	t.Helper()
	got := call(t, f.h, "GET", admin(srvPath(kind, id, nodeName, "")), "")
	var d struct{ Status string }
	if got.status != 200 || json.Unmarshal([]byte(got.body), &d) != nil {
		t.Fatalf("detail: %d %s", got.status, got.body)
	}
	return d.Status
}

func actionN(msg string) string {
	out, _ := json.Marshal(actionResultN{Result: "N", Message: msg})
	return string(out)
}

func TestServersDemoSeed(t *testing.T) {
	f := newSrvFixture(t)
	h := f.h
	expect(t, call(t, h, "GET", admin("/rest/was/servers"), ""), 200, `{"servers":[`+
		`{"serverId":"was-01","nodeName":"web-01","systemName":"shop","httpPort":8080,"serverType":"S","status":"running"},`+
		`{"serverId":"was-02","nodeName":"web-01","systemName":"shop","httpPort":8180,"serverType":"E","status":"stopped"}]}`)
	expect(t, call(t, h, "GET", admin(srvPath("was", "was-01", "web-01", "")), ""), 200,
		`{"serverId":"was-01","nodeName":"web-01","systemName":"shop","httpPort":8080,"ajpPort":8009,"serverType":"S","status":"running",`+
			`"javaHome":"/usr/lib/jvm/java-17","installRootPath":"/opt/apm/was/was-01","sessionCluster":{"primaryHost":"10.0.0.11","primaryPort":5180},`+
			`"datasources":["orders-ds"]}`)
	expect(t, call(t, h, "GET", admin(srvPath("was", "was-02", "web-01", "")), ""), 200,
		`{"serverId":"was-02","nodeName":"web-01","systemName":"shop","httpPort":8180,"ajpPort":8109,"serverType":"E","status":"stopped",`+
			`"javaHome":"/usr/lib/jvm/java-17","installRootPath":"/opt/apm/was/was-02","sessionCluster":null,"datasources":[]}`)
	expect(t, call(t, h, "GET", admin(srvPath("was", "was-01", "web-01", "/applications/status")), ""), 200,
		`{"applications":[{"contextPath":"/shop","status":"running","sessions":44}]}`)
	expect(t, call(t, h, "GET", admin("/rest/web/servers"), ""), 200, `{"servers":[`+
		`{"serverId":"web-01","nodeName":"web-01","systemName":"shop","httpPort":80,"status":"running"},`+
		`{"serverId":"web-02","nodeName":"web-01","systemName":"shop","httpPort":8081,"status":"stopped"}]}`)
	expect(t, call(t, h, "GET", admin(srvPath("web", "web-01", "web-01", "")), ""), 200,
		`{"serverId":"web-01","nodeName":"web-01","systemName":"shop","httpPort":80,"httpsPort":0,"status":"running","installRootPath":"/opt/apm/web/web-01",`+
			`"workers":[{"serverId":"was-01","nodeName":"web-01","systemName":"shop","host":"10.0.0.11","ajpPort":8009,"lbFactor":1}],`+
			`"uris":["/shop/*"],"sslEnabled":false}`)
	session := `{"serverId":"session-01","nodeName":"web-01","systemName":"shop","serverPort":5180,"status":"stopped"}`
	expect(t, call(t, h, "GET", admin("/rest/session/servers"), ""), 200, `{"servers":[`+session+`]}`)
	expect(t, call(t, h, "GET", admin(srvPath("session", "session-01", "web-01", "")), ""), 200, session)

	expect(t, call(t, h, "GET", admin("/rest/was/servers/register/nodes/app-01/systems/shop"), ""), 200,
		`{"noRegisterdServers":[{"systemName":"shop","nodeName":"app-01","serverId":"was-reg-1","serverIp":"10.0.0.12","serverType":"Standard","httpPort":18080,"ajpPort":18009}]}`)
	expect(t, call(t, h, "GET", admin("/rest/web/servers/register/nodes/web-01/systems/shop"), ""), 200,
		`{"noRegisterdServers":[{"systemName":"shop","nodeName":"web-01","serverId":"web-reg-1","serverIp":"10.0.0.11","httpPort":10080,"httpsPort":10443}]}`)
	expect(t, call(t, h, "GET", admin("/rest/session/servers/register/nodes/web-01/systems/shop"), ""), 200,
		`{"servers":[{"serverId":"session-reg-1","serverHome":"/opt/apm/session/session-reg-1","status":"available"}]}`)

	// The hooks: node detail, system counts, scale-in guard.
	expect(t, call(t, h, "GET", admin("/rest/nodes/web-01/systems/shop"), ""), 200,
		`{"nodeId":"ND-0001","nodeName":"web-01","systemName":"shop","hostIp":"10.0.0.11","agentPort":7730,"status":"running","servers":[`+
			`{"serverId":"was-01","serverType":"was","status":"running"},{"serverId":"was-02","serverType":"was","status":"stopped"},`+
			`{"serverId":"web-01","serverType":"web","status":"running"},{"serverId":"web-02","serverType":"web","status":"stopped"},`+
			`{"serverId":"session-01","serverType":"session","status":"stopped"}]}`)
	expect(t, call(t, h, "GET", admin("/rest/systems/shop"), ""), 200,
		`{"systemId":"SYS-0001","systemName":"shop","nodes":[`+
			`{"nodeName":"app-01","hostIp":"10.0.0.12","status":"running"},{"nodeName":"web-01","hostIp":"10.0.0.11","status":"running"}]}`)
	expect(t, call(t, h, "DELETE", admin("/rest/nodes/ND-0001/systems/shop"), ""), 409,
		errJSON("CONFLICT", "Node web-01 still has 5 server(s); delete them first"))
	if got := f.messages(); len(got) != 0 {
		t.Errorf("the seed published events: %v", got)
	}
	mustOK(t, h, "DELETE", admin("/rest/nodes/ND-0002/systems/shop"), "") // app-01 has none
}

// TestServerLifecycle drives each kind through install, start, stop and uninstall, with
// the transitional states visible while the clock stands still.
func TestServerLifecycle(t *testing.T) {
	kinds := []struct {
		kind, label, install, detail string
	}{
		{"was", "WAS server",
			`{"type":"install","serverId":"x1","nodeName":"app-01","systemName":"shop","httpPort":"9080","ajpPort":9009.0,"serverType":"enterprise","installRootPath":"/srv/x1"}`,
			`{"serverId":"x1","nodeName":"app-01","systemName":"shop","httpPort":9080,"ajpPort":9009,"serverType":"E","status":"%s",` +
				`"javaHome":"/usr/lib/jvm/java-17","installRootPath":"/srv/x1","sessionCluster":null,"datasources":[]}`},
		{"web", "Web server",
			`{"type":"install","serverId":"x1","nodeName":"app-01","systemName":"shop","httpPort":9080,"httpsPort":9443,"ajpPort":1}`,
			`{"serverId":"x1","nodeName":"app-01","systemName":"shop","httpPort":9080,"httpsPort":9443,"status":"%s",` +
				`"installRootPath":"/opt/apm/web/x1","workers":[],"uris":[],"sslEnabled":false}`},
		{"session", "Session server",
			`{"type":"install","serverId":"x1","nodeName":"app-01","systemName":"shop","serverPort":9080}`,
			`{"serverId":"x1","nodeName":"app-01","systemName":"shop","serverPort":9080,"status":"%s"}`},
	}
	for _, k := range kinds {
		t.Run(k.kind, func(t *testing.T) {
			f := newSrvFixture(t)
			h, one := f.h, srvPath(k.kind, "x1", "app-01", "")
			detail := func(status string) string { return strings.Replace(k.detail, "%s", status, 1) }
			mustOK(t, h, "POST", admin("/rest/"+k.kind+"/servers"), k.install)
			expect(t, call(t, h, "GET", admin(one), ""), 200, detail("stopped"))

			steps := []struct {
				action, body string
				want         string // response
				status       string // afterwards
			}{
				{"start", `{"action":"start"}`, actionY, "starting"},
				{"start again", `{"action":"start"}`, actionN("Server x1 is already starting"), "starting"},
				{"uninstall while starting", "", actionN("Server x1 is starting; stop it first"), "starting"},
				{"stop while starting", `{"action":"stop"}`, actionN("Server x1 is starting; try again when it is running"), "starting"},
				{"tick", "", "", "running"},
				{"start running", `{"action":"start"}`, actionN("Server x1 is already running"), "running"},
				{"uninstall running", "", actionN("Server x1 is running; stop it first"), "running"},
				{"stop", `{"action":"stop"}`, actionY, "stopping"},
				{"start while stopping", `{"action":"start"}`, actionN("Server x1 is stopping; try again when it is stopped"), "stopping"},
				{"uninstall while stopping", "", actionN("Server x1 is stopping; try again when it is stopped"), "stopping"},
				{"tick", "", "", "stopped"},
				{"stop stopped", `{"action":"stop"}`, actionN("Server x1 is already stopped"), "stopped"},
			}
			for _, st := range steps {
				switch {
				case st.action == "tick":
					f.clock.advance(time.Second)
				case strings.HasPrefix(st.action, "uninstall"):
					expect(t, call(t, h, "DELETE", admin(one+"?type=uninstall"), ""), 200, st.want)
				default:
					expect(t, call(t, h, "POST", admin(one+"/action"), st.body), 200, st.want)
				}
				if got := f.status(t, k.kind, "x1", "app-01"); got != st.status {
					t.Fatalf("after %s: status %s, want %s", st.action, got, st.status)
				}
			}
			expect(t, call(t, h, "GET", admin(one), ""), 200, detail("stopped"))
			mustOK(t, h, "DELETE", admin(one+"?type=uninstall"), "")
			expect(t, call(t, h, "GET", admin(one), ""), 404, errJSON("NOT_FOUND", "Server not found: x1"))
			expect(t, call(t, h, "GET", admin("/rest/"+k.kind+"/servers"), ""), 200, "")
			want := []string{
				"INFO x1: " + k.label + " x1 installed on node app-01",
				"INFO x1: " + k.label + " x1 started on node app-01",
				"WARNING x1: " + k.label + " x1 stopped on node app-01",
				"INFO x1: " + k.label + " x1 uninstalled from node app-01",
			}
			if got := f.messages(); strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("events\n got %q\nwant %q", got, want)
			}
		})
	}
}

func TestServerWithoutTransitionDelay(t *testing.T) {
	f := newSrvFixture(t, func(o *Options) { o.TransitionDelay = -1 })
	mustOK(t, f.h, "POST", admin(srvPath("session", "session-01", "web-01", "/action")), `{"action":"start"}`)
	if got := f.status(t, "session", "session-01", "web-01"); got != "running" {
		t.Fatalf("status %s, want running at once", got)
	}
}

func TestServerForceStop(t *testing.T) {
	f := newSrvFixture(t)
	was02, web02 := srvPath("was", "was-02", "web-01", "/action"), srvPath("web", "web-02", "web-01", "/action")
	mustOK(t, f.h, "POST", admin(was02), `{"action":"start"}`)
	mustOK(t, f.h, "POST", admin(web02), `{"action":"start"}`)
	// force is a WAS option: it interrupts a start and skips the stopping phase.
	mustOK(t, f.h, "POST", admin(was02), `{"action":"stop","force":true}`)
	if got := f.status(t, "was", "was-02", "web-01"); got != "stopped" {
		t.Fatalf("WAS status %s after a forced stop", got)
	}
	expect(t, call(t, f.h, "POST", admin(web02), `{"action":"stop","force":true}`), 200,
		actionN("Server web-02 is starting; try again when it is running"))
	// force on start means nothing.
	mustOK(t, f.h, "POST", admin(srvPath("was", "was-01", "web-01", "/action")), `{"action":"stop"}`)
	expect(t, call(t, f.h, "POST", admin(srvPath("was", "was-01", "web-01", "/action")), `{"action":"start","force":true}`), 200,
		actionN("Server was-01 is stopping; try again when it is stopped"))
}

type srvCase struct {
	name, method, path, body string
	status                   int
	want                     string
}

func runSrvCases(t *testing.T, h http.Handler, cases []srvCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			expect(t, call(t, h, tc.method, admin(tc.path), tc.body), tc.status, tc.want)
		})
	}
}

func TestServerCreateErrors(t *testing.T) {
	h := newSrvFixture(t).h
	bad := func(msg string) string { return errJSON("BAD_REQUEST", msg) }
	was := func(extra string) string {
		return `{"type":"install","serverId":"x1","nodeName":"app-01","systemName":"shop"` + extra + `}`
	}
	idRule := " (allowed: 1-63 characters: letters, digits, '.', '-' and '_'; not 'register')"
	runSrvCases(t, h, []srvCase{
		{"no type", "POST", "/rest/was/servers", `{}`, 400, bad("type is required")},
		{"no serverId", "POST", "/rest/was/servers", `{"type":"install"}`, 400, bad("serverId is required")},
		{"no nodeName", "POST", "/rest/was/servers", `{"type":"install","serverId":"x"}`, 400, bad("nodeName is required")},
		{"no systemName", "POST", "/rest/was/servers", `{"type":"install","serverId":"x","nodeName":"n"}`, 400, bad("systemName is required")},
		{"no httpPort", "POST", "/rest/was/servers", was(``), 400, bad("httpPort is required")},
		{"null httpPort", "POST", "/rest/web/servers", was(`,"httpPort":null`), 400, bad("httpPort is required")},
		{"session needs serverPort", "POST", "/rest/session/servers", was(`,"httpPort":80`), 400, bad("serverPort is required")},
		{"bad type", "POST", "/rest/was/servers", `{"type":"create","serverId":"x","nodeName":"n","systemName":"s","httpPort":1}`, 400,
			bad("Invalid type: create (allowed: install, register)")},
		{"bad serverId", "POST", "/rest/was/servers", `{"type":"install","serverId":"a/b","nodeName":"n","systemName":"s","httpPort":1}`, 400,
			bad("Invalid serverId: a/b" + idRule)},
		{"reserved serverId", "POST", "/rest/was/servers", `{"type":"install","serverId":"register","nodeName":"n","systemName":"s","httpPort":1}`, 400,
			bad("Invalid serverId: register" + idRule)},
		{"port zero", "POST", "/rest/was/servers", was(`,"httpPort":0`), 400, bad("httpPort must be between 1 and 65535")},
		{"port too big", "POST", "/rest/web/servers", was(`,"httpPort":80,"httpsPort":65536`), 400, bad("httpsPort must be between 1 and 65535")},
		{"port not a number", "POST", "/rest/was/servers", was(`,"httpPort":"http"`), 400, bad("httpPort must be an integer")},
		{"same port twice", "POST", "/rest/was/servers", was(`,"httpPort":9000,"ajpPort":9000`), 400, bad("httpPort and ajpPort must differ")},
		{"bad serverType", "POST", "/rest/was/servers", was(`,"httpPort":9000,"serverType":"X"`), 400,
			bad("Invalid serverType: X (allowed: S, E, Standard, Enterprise)")},
		{"relative installRootPath", "POST", "/rest/was/servers", was(`,"httpPort":9000,"installRootPath":"opt/x"`), 400,
			bad("Invalid installRootPath: opt/x (must be an absolute path)")},
		{"installRootPath on register", "POST", "/rest/was/servers",
			`{"type":"register","serverId":"was-reg-1","nodeName":"app-01","systemName":"shop","httpPort":9000,"installRootPath":"/x"}`, 400,
			bad("installRootPath is only allowed with type install")},
		{"serverId not a string", "POST", "/rest/was/servers", `{"type":"install","serverId":1}`, 400,
			bad("invalid JSON body: serverId must be a string, not number")},
		{"unknown system", "POST", "/rest/was/servers", `{"type":"install","serverId":"x","nodeName":"app-01","systemName":"nope","httpPort":1}`, 404,
			errJSON("NOT_FOUND", "System not found: nope")},
		{"unknown node", "POST", "/rest/was/servers", `{"type":"install","serverId":"x","nodeName":"nope","systemName":"shop","httpPort":1}`, 404,
			errJSON("NOT_FOUND", "Node not found: nope")},
		{"duplicate", "POST", "/rest/was/servers", `{"type":"install","serverId":"was-01","nodeName":"web-01","systemName":"shop","httpPort":9999}`, 409,
			errJSON("CONFLICT", "Server already exists: was-01")},
		{"id of a registerable server", "POST", "/rest/was/servers", `{"type":"install","serverId":"was-reg-1","nodeName":"web-01","systemName":"shop","httpPort":9999}`, 409,
			errJSON("CONFLICT", "Server already exists: was-reg-1")},
		{"port of a session server", "POST", "/rest/was/servers", `{"type":"install","serverId":"x","nodeName":"web-01","systemName":"shop","httpPort":5180}`, 409,
			errJSON("CONFLICT", "Port 5180 is already used by session-01 on node web-01")},
		{"ajp port of a WAS server", "POST", "/rest/web/servers", `{"type":"install","serverId":"x","nodeName":"web-01","systemName":"shop","httpPort":8009}`, 409,
			errJSON("CONFLICT", "Port 8009 is already used by was-01 on node web-01")},
		{"register unknown", "POST", "/rest/was/servers", `{"type":"register","serverId":"nope","nodeName":"web-01","systemName":"shop","httpPort":9999}`, 404,
			errJSON("NOT_FOUND", "Registerable server not found: nope")},
		{"register onto a used port", "POST", "/rest/was/servers", `{"type":"register","serverId":"was-reg-1","nodeName":"web-01","systemName":"shop","httpPort":80}`, 409,
			errJSON("CONFLICT", "Port 80 is already used by web-01 on node web-01")},
	})
	// Another node, another kind: the same serverId and ports are fine.
	mustOK(t, h, "POST", admin("/rest/web/servers"), `{"type":"install","serverId":"was-01","nodeName":"app-01","systemName":"shop","httpPort":8080}`)
}

func TestServerRegisterAndDeregister(t *testing.T) {
	f := newSrvFixture(t)
	h := f.h
	regList := admin("/rest/was/servers/register/nodes/app-01/systems/shop")
	one := srvPath("was", "was-reg-1", "app-01", "")
	mustOK(t, h, "POST", admin("/rest/was/servers"), `{"type":"register","serverId":"was-reg-1","nodeName":"app-01","systemName":"shop","httpPort":18081}`)
	// The request's port wins; the rest comes from what the node reported.
	expect(t, call(t, h, "GET", admin(one), ""), 200,
		`{"serverId":"was-reg-1","nodeName":"app-01","systemName":"shop","httpPort":18081,"ajpPort":18009,"serverType":"S","status":"stopped",`+
			`"javaHome":"/usr/lib/jvm/java-17","installRootPath":"/opt/apm/was/was-reg-1","sessionCluster":null,"datasources":[]}`)
	expect(t, call(t, h, "GET", regList, ""), 200, `{"noRegisterdServers":[]}`)
	expect(t, call(t, h, "POST", admin("/rest/was/servers"), `{"type":"register","serverId":"was-reg-1","nodeName":"app-01","systemName":"shop","httpPort":1}`), 409,
		errJSON("CONFLICT", "Server already exists: was-reg-1"))

	// Deregistered, it is back on the list as it was.
	mustOK(t, h, "DELETE", admin(one+"?type=deregister"), "")
	expect(t, call(t, h, "GET", admin(one), ""), 404, errJSON("NOT_FOUND", "Server not found: was-reg-1"))
	expect(t, call(t, h, "GET", regList, ""), 200,
		`{"noRegisterdServers":[{"systemName":"shop","nodeName":"app-01","serverId":"was-reg-1","serverIp":"10.0.0.12","serverType":"Standard","httpPort":18081,"ajpPort":18009}]}`)
	expect(t, call(t, h, "POST", admin("/rest/was/servers"), `{"type":"install","serverId":"was-reg-1","nodeName":"app-01","systemName":"shop","httpPort":1}`), 409,
		errJSON("CONFLICT", "Server already exists: was-reg-1"))

	// Registered again with another edition, then uninstalled: gone for good.
	mustOK(t, h, "POST", admin("/rest/was/servers"), `{"type":"register","serverId":"was-reg-1","nodeName":"app-01","systemName":"shop","httpPort":18081,"serverType":"Enterprise"}`)
	mustOK(t, h, "DELETE", admin(one+"?type=uninstall"), "")
	expect(t, call(t, h, "GET", regList, ""), 200, `{"noRegisterdServers":[]}`)

	// An installed server can be deregistered too.
	mustOK(t, h, "POST", admin("/rest/web/servers"), `{"type":"install","serverId":"x2","nodeName":"app-01","systemName":"shop","httpPort":81}`)
	mustOK(t, h, "DELETE", admin(srvPath("web", "x2", "app-01", "?type=deregister")), "")
	expect(t, call(t, h, "GET", admin("/rest/web/servers/register/nodes/app-01/systems/shop"), ""), 200, `{"noRegisterdServers":[`+
		`{"systemName":"shop","nodeName":"app-01","serverId":"web-reg-1","serverIp":"10.0.0.12","httpPort":10080,"httpsPort":10443},`+
		`{"systemName":"shop","nodeName":"app-01","serverId":"x2","serverIp":"10.0.0.12","httpPort":81,"httpsPort":0}]}`)

	mustOK(t, h, "POST", admin("/rest/session/servers"), `{"type":"register","serverId":"session-reg-1","nodeName":"app-01","systemName":"shop","serverPort":15180}`)
	expect(t, call(t, h, "GET", admin("/rest/session/servers/register/nodes/app-01/systems/shop"), ""), 200, `{"servers":[]}`)
	expect(t, call(t, h, "GET", admin("/rest/session/servers/register/nodes/nope/systems/shop"), ""), 404, errJSON("NOT_FOUND", "Node not found: nope"))
	expect(t, call(t, h, "GET", admin("/rest/session/servers/register/nodes/app-01/systems/nope"), ""), 404, errJSON("NOT_FOUND", "System not found: nope"))

	want := []string{
		"INFO was-reg-1: WAS server was-reg-1 registered on node app-01",
		"INFO was-reg-1: WAS server was-reg-1 deregistered from node app-01",
		"INFO was-reg-1: WAS server was-reg-1 registered on node app-01",
		"INFO was-reg-1: WAS server was-reg-1 uninstalled from node app-01",
		"INFO x2: Web server x2 installed on node app-01",
		"INFO x2: Web server x2 deregistered from node app-01",
		"INFO session-reg-1: Session server session-reg-1 registered on node app-01",
	}
	if got := f.messages(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("events\n got %q\nwant %q", got, want)
	}
}

func TestServerModifyDeleteAndActionErrors(t *testing.T) {
	h := newSrvFixture(t).h
	bad := func(msg string) string { return errJSON("BAD_REQUEST", msg) }
	was02 := srvPath("was", "was-02", "web-01", "")
	runSrvCases(t, h, []srvCase{
		{"modify nothing", "PUT", was02, `{}`, 200, actionY},
		{"modify to own port", "PUT", was02, `{"httpPort":8180}`, 200, actionY},
		{"modify onto another server's port", "PUT", was02, `{"httpPort":8080}`, 409, errJSON("CONFLICT", "Port 8080 is already used by was-01 on node web-01")},
		{"modify to equal ports", "PUT", was02, `{"ajpPort":8180}`, 400, bad("httpPort and ajpPort must differ")},
		{"modify bad port", "PUT", was02, `{"httpPort":99999}`, 400, bad("httpPort must be between 1 and 65535")},
		{"modify relative javaHome", "PUT", was02, `{"javaHome":"jdk"}`, 400, bad("Invalid javaHome: jdk (must be an absolute path)")},
		{"modify unknown server", "PUT", srvPath("was", "nope", "web-01", ""), `{}`, 404, errJSON("NOT_FOUND", "Server not found: nope")},
		{"modify unknown node", "PUT", srvPath("was", "was-02", "nope", ""), `{}`, 404, errJSON("NOT_FOUND", "Node not found: nope")},
		{"modify other kind", "PUT", srvPath("web", "was-02", "web-01", ""), `{}`, 404, errJSON("NOT_FOUND", "Server not found: was-02")},
		{"delete without type", "DELETE", was02, "", 400, bad("type is required")},
		{"delete bad type", "DELETE", was02 + "?type=remove", "", 400, bad("Invalid type: remove (allowed: uninstall, deregister)")},
		{"delete unknown", "DELETE", srvPath("session", "nope", "web-01", "?type=uninstall"), "", 404, errJSON("NOT_FOUND", "Server not found: nope")},
		{"action without body", "POST", was02 + "/action", "", 415, errJSON("UNSUPPORTED_MEDIA_TYPE", "Content-Type must be application/json")},
		{"action missing", "POST", was02 + "/action", `{}`, 400, bad("action is required")},
		{"action unknown", "POST", was02 + "/action", `{"action":"restart"}`, 400, bad("Invalid action: restart (allowed: start, stop)")},
		{"WAS-only path on web", "POST", srvPath("web", "web-01", "web-01", "/session"), `{}`, 404,
			errJSON("NOT_FOUND", "Not found: "+srvPath("web", "web-01", "web-01", "/session"))},
		{"web-only path on session", "PUT", srvPath("session", "session-01", "web-01", "/uri?type=create"), `{}`, 404,
			errJSON("NOT_FOUND", "Not found: "+srvPath("session", "session-01", "web-01", "/uri"))},
	})
	mustOK(t, h, "PUT", admin(was02), `{"httpPort":8280,"javaHome":"/opt/jdk-21"}`)
	mustOK(t, h, "PUT", admin(srvPath("session", "session-01", "web-01", "")), `{"serverPort":"5181","httpPort":1}`)
	expect(t, call(t, h, "GET", admin("/rest/session/servers"), ""), 200,
		`{"servers":[{"serverId":"session-01","nodeName":"web-01","systemName":"shop","serverPort":5181,"status":"stopped"}]}`)
	got := call(t, h, "GET", admin(was02), "")
	if !strings.Contains(got.body, `"httpPort":8280,"ajpPort":8109,`) || !strings.Contains(got.body, `"javaHome":"/opt/jdk-21"`) {
		t.Fatalf("detail after modify: %s", got.body)
	}
	// A WAS server that a web server balances to stays until the worker is gone (409: a
	// dependant remains), and then until its parts are gone.
	was01 := srvPath("was", "was-01", "web-01", "")
	mustOK(t, h, "POST", admin(was01+"/action"), `{"action":"stop","force":true}`)
	expect(t, call(t, h, "DELETE", admin(was01+"?type=deregister"), ""), 409,
		errJSON("CONFLICT", "Server was-01 is a load balancer worker of web server web-01; remove the worker first"))
	mustOK(t, h, "PUT", admin(srvPath("web", "web-01", "web-01", "/worker")), `{"workers":[]}`)
	expect(t, call(t, h, "DELETE", admin(was01+"?type=deregister"), ""), 409,
		errJSON("CONFLICT", "Server was-01 still has session clustering, datasource(s) orders-ds, application(s) /shop; remove them first"))
	mustOK(t, h, "DELETE", admin(was01+"/session"), "")
	mustOK(t, h, "DELETE", admin(was01+"/datasource?resourceName=orders-ds"), "")
	mustOK(t, h, "DELETE", admin(was01+"/application?contextPath=/shop"), "")
	mustOK(t, h, "DELETE", admin(was01+"?type=deregister"), "")
}

// TestWASDeleteBlockedByParts: each kind of part (session clustering, datasource,
// application) alone blocks both kinds of delete with a 409 that names it, and removing it
// lets the delete through.
func TestWASDeleteBlockedByParts(t *testing.T) {
	parts := []struct {
		name, add, addBody, remove, msg string
	}{
		{"session clustering", "/session", `{"primaryHost":"10.0.0.12","primaryPort":5180}`, "/session",
			"Server x1 still has session clustering; remove them first"},
		{"datasource", "/datasource", `{"resourceName":"orders-ds"}`, "/datasource?resourceName=orders-ds",
			"Server x1 still has datasource(s) orders-ds; remove them first"},
		{"imported datasource", "/resource", `{"resourceType":"datasource","resourceName":"orders-ds"}`, "/datasource?resourceName=orders-ds",
			"Server x1 still has datasource(s) orders-ds; remove them first"},
		{"application", "/application", `{"contextPath":"/shop","sourcePath":"/opt/apps/shop.war"}`, "/application?contextPath=/shop",
			"Server x1 still has application(s) /shop; remove them first"},
	}
	for _, part := range parts {
		for _, typ := range []string{"uninstall", "deregister"} {
			t.Run(part.name+"/"+typ, func(t *testing.T) {
				f := newSrvFixture(t)
				h, one := f.h, srvPath("was", "x1", "app-01", "")
				mustOK(t, h, "POST", admin("/rest/was/servers"), `{"type":"install","serverId":"x1","nodeName":"app-01","systemName":"shop","httpPort":9080}`)
				mustOK(t, h, "POST", admin(one+part.add), part.addBody)
				expect(t, call(t, h, "DELETE", admin(one+"?type="+typ), ""), 409, errJSON("CONFLICT", part.msg))
				if got := f.status(t, "was", "x1", "app-01"); got != "stopped" { // still there, unchanged
					t.Fatalf("status %s after the refusal", got)
				}
				mustOK(t, h, "DELETE", admin(one+part.remove), "")
				mustOK(t, h, "DELETE", admin(one+"?type="+typ), "")
				expect(t, call(t, h, "GET", admin(one), ""), 404, errJSON("NOT_FOUND", "Server not found: x1"))
				want := []string{
					"INFO x1: WAS server x1 installed on node app-01",
					"INFO x1: WAS server x1 " + typ + "ed from node app-01",
				}
				if got := f.messages(); strings.Join(got, "\n") != strings.Join(want, "\n") {
					t.Errorf("events\n got %q\nwant %q", got, want)
				}
			})
		}
	}
}

// TestWASDeleteRefusalOrder: a server that is not stopped is refused with actionResult N
// whatever it has; once stopped, a web server balancing to it comes first, then its parts,
// all kinds named in a fixed order with sorted lists, until none remains.
func TestWASDeleteRefusalOrder(t *testing.T) {
	f := newSrvFixture(t)
	h, one := f.h, srvPath("was", "x1", "app-01", "")
	del := func() response { return call(t, h, "DELETE", admin(one+"?type=uninstall"), "") }
	mustOK(t, h, "POST", admin("/rest/was/servers"), `{"type":"install","serverId":"x1","nodeName":"app-01","systemName":"shop","httpPort":9080,"ajpPort":9009}`)
	mustOK(t, h, "POST", admin("/rest/resource/datasources"), dsBody("zeta-ds"))
	mustOK(t, h, "POST", admin("/rest/resource/datasources"), dsBody("alpha-ds"))
	for _, add := range []struct{ path, body string }{
		{"/application", `{"contextPath":"/shop","sourcePath":"/opt/apps/shop.war"}`},
		{"/datasource", `{"resourceName":"zeta-ds"}`},
		{"/application", `{"contextPath":"/api","sourcePath":"/opt/apps/api.war"}`},
		{"/datasource", `{"resourceName":"alpha-ds"}`},
		{"/session", `{"primaryHost":"10.0.0.12","primaryPort":5180}`},
	} {
		mustOK(t, h, "POST", admin(one+add.path), add.body)
	}
	mustOK(t, h, "PUT", admin(srvPath("web", "web-02", "web-01", "/worker")), `{"workers":[{"serverId":"x1","nodeName":"app-01","systemName":"shop"}]}`)

	mustOK(t, h, "POST", admin(one+"/action"), `{"action":"start"}`)
	expect(t, del(), 200, actionN("Server x1 is starting; stop it first"))
	f.clock.advance(time.Second)
	expect(t, del(), 200, actionN("Server x1 is running; stop it first"))
	mustOK(t, h, "POST", admin(one+"/action"), `{"action":"stop"}`)
	expect(t, del(), 200, actionN("Server x1 is stopping; try again when it is stopped"))
	f.clock.advance(time.Second)

	steps := []struct{ remove, msg string }{
		{"", "Server x1 is a load balancer worker of web server web-02; remove the worker first"},
		{"worker", "Server x1 still has session clustering, datasource(s) alpha-ds, zeta-ds, application(s) /api, /shop; remove them first"},
		{"/session", "Server x1 still has datasource(s) alpha-ds, zeta-ds, application(s) /api, /shop; remove them first"},
		{"/datasource?resourceName=alpha-ds", "Server x1 still has datasource(s) zeta-ds, application(s) /api, /shop; remove them first"},
		{"/datasource?resourceName=zeta-ds", "Server x1 still has application(s) /api, /shop; remove them first"},
		{"/application?contextPath=/shop", "Server x1 still has application(s) /api; remove them first"},
	}
	for _, st := range steps {
		switch st.remove {
		case "":
		case "worker":
			mustOK(t, h, "PUT", admin(srvPath("web", "web-02", "web-01", "/worker")), `{"workers":[]}`)
		default:
			mustOK(t, h, "DELETE", admin(one+st.remove), "")
		}
		expect(t, del(), 409, errJSON("CONFLICT", st.msg))
	}
	mustOK(t, h, "DELETE", admin(one+"/application?contextPath=/api"), "")
	mustOK(t, h, "DELETE", admin(one+"?type=uninstall"), "")
}

// TestWorkerCheckIsForWASOnly: a web or session server that shares its id and node with a
// WAS server used as a worker is no worker itself.
func TestWorkerCheckIsForWASOnly(t *testing.T) {
	h := newSrvFixture(t).h
	mustOK(t, h, "POST", admin("/rest/web/servers"), `{"type":"install","serverId":"was-01","nodeName":"web-01","systemName":"shop","httpPort":9999}`)
	mustOK(t, h, "POST", admin("/rest/session/servers"), `{"type":"install","serverId":"was-01","nodeName":"web-01","systemName":"shop","serverPort":9998}`)
	mustOK(t, h, "DELETE", admin(srvPath("web", "was-01", "web-01", "?type=uninstall")), "")
	mustOK(t, h, "DELETE", admin(srvPath("session", "was-01", "web-01", "?type=deregister")), "")
}

func TestViewerCannotChangeServers(t *testing.T) {
	h := newSrvFixture(t).h
	forbidden := errJSON("FORBIDDEN", "Access denied")
	for _, tc := range []struct{ method, path string }{
		{"POST", "/rest/was/servers"},
		{"PUT", srvPath("web", "web-01", "web-01", "")},
		{"DELETE", srvPath("session", "session-01", "web-01", "?type=uninstall")},
		{"POST", srvPath("was", "was-01", "web-01", "/action")},
		{"POST", srvPath("was", "was-01", "web-01", "/application")},
		{"PUT", srvPath("web", "web-01", "web-01", "/worker")},
		{"POST", srvPath("web", "web-01", "web-01", "/ssl")},
	} {
		expect(t, call(t, h, tc.method, viewer(tc.path), `{}`), 403, forbidden)
	}
	expect(t, call(t, h, "GET", viewer("/rest/was/servers"), ""), 200, "")
}

func TestWASSubOperations(t *testing.T) {
	h := newSrvFixture(t).h
	bad := func(msg string) string { return errJSON("BAD_REQUEST", msg) }
	p := func(suffix string) string { return srvPath("was", "was-02", "web-01", suffix) }
	runSrvCases(t, h, []srvCase{
		{"cluster without host", "POST", p("/session"), `{}`, 400, bad("primaryHost is required")},
		{"cluster without port", "POST", p("/session"), `{"primaryHost":"h"}`, 400, bad("primaryPort is required")},
		{"cluster bad port", "POST", p("/session"), `{"primaryHost":"h","primaryPort":0}`, 400, bad("primaryPort must be between 1 and 65535")},
		{"cluster secondary port alone", "POST", p("/session"), `{"primaryHost":"h","primaryPort":1,"secondaryPort":2}`, 400,
			bad("secondaryHost is required with secondaryPort")},
		{"cluster secondary host alone", "POST", p("/session"), `{"primaryHost":"h","primaryPort":1,"secondaryHost":"g"}`, 400,
			bad("secondaryPort is required with secondaryHost")},
		{"cluster set", "POST", p("/session"), `{"primaryHost":"10.0.0.11","primaryPort":5180,"secondaryHost":"10.0.0.12","secondaryPort":"5181"}`, 200, actionY},
		{"cluster replaced", "POST", p("/session"), `{"primaryHost":"10.0.0.11","primaryPort":5180,"secondaryHost":"10.0.0.12","secondaryPort":5182}`, 200, actionY},
		{"cluster removed from was-01", "DELETE", srvPath("was", "was-01", "web-01", "/session"), "", 200, actionY},
		{"cluster removed twice", "DELETE", srvPath("was", "was-01", "web-01", "/session"), "", 404, errJSON("NOT_FOUND", "Session clustering not found: was-01")},

		{"attach without name", "POST", p("/datasource"), `{}`, 400, bad("resourceName is required")},
		{"attach unknown", "POST", p("/datasource"), `{"resourceName":"nope"}`, 404, errJSON("NOT_FOUND", "Datasource not found: nope")},
		{"attach", "POST", p("/datasource"), `{"resourceName":"orders-ds"}`, 200, actionY},
		{"attach twice", "POST", p("/datasource"), `{"resourceName":"orders-ds"}`, 409, errJSON("CONFLICT", "Datasource already attached: orders-ds")},
		{"detach without name", "DELETE", p("/datasource"), "", 400, bad("resourceName is required")},
		{"detach from was-01", "DELETE", srvPath("was", "was-01", "web-01", "/datasource?resourceName=orders-ds"), "", 200, actionY},
		{"detach absent", "DELETE", srvPath("was", "was-01", "web-01", "/datasource?resourceName=orders-ds"), "", 404,
			errJSON("NOT_FOUND", "Datasource not attached: orders-ds")},

		{"deploy without contextPath", "POST", p("/application"), `{"sourcePath":"/a.war"}`, 400, bad("contextPath is required")},
		{"deploy without sourcePath", "POST", p("/application"), `{"contextPath":"/a"}`, 400, bad("sourcePath is required")},
		{"deploy bad contextPath", "POST", p("/application"), `{"contextPath":"a","sourcePath":"/a.war"}`, 400, bad("Invalid contextPath: a (must start with '/')")},
		{"deploy relative sourcePath", "POST", p("/application"), `{"contextPath":"/a","sourcePath":"a.war"}`, 400,
			bad("Invalid sourcePath: a.war (must be an absolute path)")},
		{"deploy api", "POST", p("/application"), `{"contextPath":"/api","sourcePath":"/opt/apps/api.war","applicationName":"api-v2"}`, 200, actionY},
		{"deploy root", "POST", p("/application"), `{"contextPath":"/","sourcePath":"/opt/apps/root.war"}`, 200, actionY},
		{"deploy twice", "POST", p("/application"), `{"contextPath":"/api","sourcePath":"/opt/apps/other.war"}`, 409,
			errJSON("CONFLICT", "Application already deployed: /api")},
		{"statuses of a stopped server", "GET", p("/applications/status"), "", 200,
			`{"applications":[{"contextPath":"/","status":"stopped","sessions":0},{"contextPath":"/api","status":"stopped","sessions":0}]}`},
		{"undeploy without contextPath", "DELETE", p("/application"), "", 400, bad("contextPath is required")},
		{"undeploy", "DELETE", p("/application?contextPath=/api"), "", 200, actionY},
		{"undeploy twice", "DELETE", p("/application?contextPath=/api"), "", 404, errJSON("NOT_FOUND", "Application not found: /api")},
		{"statuses after undeploy", "GET", p("/applications/status"), "", 200, `{"applications":[{"contextPath":"/","status":"stopped","sessions":0}]}`},
		{"statuses of unknown server", "GET", srvPath("was", "nope", "web-01", "/applications/status"), "", 404, errJSON("NOT_FOUND", "Server not found: nope")},

		{"import without type", "POST", p("/resource"), `{"resourceName":"x"}`, 400, bad("resourceType is required")},
		{"import without name", "POST", p("/resource"), `{"resourceType":"jms"}`, 400, bad("resourceName is required")},
		{"import unknown type", "POST", p("/resource"), `{"resourceType":"queue","resourceName":"x"}`, 400,
			bad("Invalid resourceType: queue (allowed: datasource, application, jms, jta)")},
		{"import unknown datasource", "POST", p("/resource"), `{"resourceType":"datasource","resourceName":"nope"}`, 404,
			errJSON("NOT_FOUND", "Datasource not found: nope")},
		{"import JMS", "POST", p("/resource"), `{"resourceType":"JMS","resourceName":"jms/orders"}`, 200, actionY},
		{"import JMS again", "POST", p("/resource"), `{"resourceType":"jms","resourceName":"jms/orders"}`, 200, actionY},
		{"import datasource attached already", "POST", p("/resource"), `{"resourceType":"datasource","resourceName":"orders-ds"}`, 200, actionY},
		{"import application", "POST", p("/resource"), `{"resourceType":"application","resourceName":"billing"}`, 200, actionY},
	})
	expect(t, call(t, h, "GET", admin(p("")), ""), 200,
		`{"serverId":"was-02","nodeName":"web-01","systemName":"shop","httpPort":8180,"ajpPort":8109,"serverType":"E","status":"stopped",`+
			`"javaHome":"/usr/lib/jvm/java-17","installRootPath":"/opt/apm/was/was-02",`+
			`"sessionCluster":{"primaryHost":"10.0.0.11","primaryPort":5180,"secondaryHost":"10.0.0.12","secondaryPort":5182},`+
			`"datasources":["orders-ds"]}`)
	got := call(t, h, "GET", admin(srvPath("was", "was-01", "web-01", "")), "")
	if !strings.Contains(got.body, `"sessionCluster":null,"datasources":[]`) {
		t.Fatalf("was-01 after removals: %s", got.body)
	}
	// Importing a datasource attaches it.
	mustOK(t, h, "POST", admin(srvPath("was", "was-01", "web-01", "/resource")), `{"resourceType":"datasource","resourceName":"orders-ds"}`)
	if got := call(t, h, "GET", admin(srvPath("was", "was-01", "web-01", "")), ""); !strings.Contains(got.body, `"datasources":["orders-ds"]`) {
		t.Fatalf("was-01 after import: %s", got.body)
	}
}

// srvPEMs returns a certificate and its private key (PKCS#8), both PEM, and the CA
// certificate that signed it.
func srvPEMs(t *testing.T) (certPEM, keyPEM, caPEM string) {
	t.Helper()
	cfg, ca, err := SelfSignedTLS([]string{"www.shop.example"})
	if err != nil {
		t.Fatal(err)
	}
	leaf := cfg.Certificates[0]
	der, err := x509.MarshalPKCS8PrivateKey(leaf.PrivateKey)
	if err != nil {
		t.Fatal(err)
	}
	certPEM = string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: leaf.Certificate[0]}))
	keyPEM = string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}))
	return certPEM, keyPEM, string(ca)
}

func TestWebSubOperations(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	f := newSrvFixture(t, func(o *Options) { o.StateFile = path })
	h := f.h
	bad := func(msg string) string { return errJSON("BAD_REQUEST", msg) }
	p := func(suffix string) string { return srvPath("web", "web-02", "web-01", suffix) }
	mustOK(t, h, "POST", admin("/rest/was/servers"), `{"type":"install","serverId":"no-ajp","nodeName":"app-01","systemName":"shop","httpPort":8080}`)
	cert, key, ca := srvPEMs(t)
	otherCert, otherKey, _ := srvPEMs(t)
	ssl := func(fields map[string]any) string {
		body := map[string]any{"httpsPort": 8443, "certificatePem": cert, "privateKeyPem": key}
		for k, v := range fields {
			if v == nil {
				delete(body, k)
			} else {
				body[k] = v
			}
		}
		out, _ := json.Marshal(body)
		return string(out)
	}
	runSrvCases(t, h, []srvCase{
		{"workers missing", "PUT", p("/worker"), `{}`, 400, bad("workers is required")},
		{"workers null", "PUT", p("/worker"), `{"workers":null}`, 400, bad("workers is required")},
		{"worker without serverId", "PUT", p("/worker"), `{"workers":[{"nodeName":"web-01","systemName":"shop"}]}`, 400, bad("workers[0].serverId is required")},
		{"worker without systemName", "PUT", p("/worker"), `{"workers":[{"serverId":"was-01","nodeName":"web-01"}]}`, 400, bad("workers[0].systemName is required")},
		{"worker bad port", "PUT", p("/worker"), `{"workers":[{"serverId":"was-01","nodeName":"web-01","systemName":"shop","ajpPort":0}]}`, 400,
			bad("workers[0].ajpPort must be between 1 and 65535")},
		{"worker bad factor", "PUT", p("/worker"), `{"workers":[{"serverId":"was-01","nodeName":"web-01","systemName":"shop","lbFactor":101}]}`, 400,
			bad("workers[0].lbFactor must be between 1 and 100")},
		{"worker twice", "PUT", p("/worker"), `{"workers":[{"serverId":"was-01","nodeName":"web-01","systemName":"shop"},{"serverId":"was-01","nodeName":"web-01","systemName":"shop"}]}`, 400,
			bad("Duplicate worker: was-01 on node web-01")},
		{"worker unknown WAS", "PUT", p("/worker"), `{"workers":[{"serverId":"web-01","nodeName":"web-01","systemName":"shop"}]}`, 404,
			errJSON("NOT_FOUND", "WAS server not found: web-01")},
		{"worker unknown node", "PUT", p("/worker"), `{"workers":[{"serverId":"was-01","nodeName":"nope","systemName":"shop"}]}`, 404,
			errJSON("NOT_FOUND", "Node not found: nope")},
		{"worker WAS without AJP", "PUT", p("/worker"), `{"workers":[{"serverId":"no-ajp","nodeName":"app-01","systemName":"shop"}]}`, 400,
			bad("workers[0].ajpPort is required: WAS server no-ajp has no ajpPort")},
		{"workers set", "PUT", p("/worker"), `{"workers":[{"serverId":"was-02","nodeName":"web-01","systemName":"shop","lbFactor":"3"},` +
			`{"serverId":"no-ajp","nodeName":"app-01","systemName":"shop","host":"was.internal","ajpPort":8010}]}`, 200, actionY},

		{"ssl without port", "POST", p("/ssl"), ssl(map[string]any{"httpsPort": nil}), 400, bad("httpsPort is required")},
		{"ssl without certificate", "POST", p("/ssl"), ssl(map[string]any{"certificatePem": ""}), 400, bad("certificatePem is required")},
		{"ssl without key", "POST", p("/ssl"), ssl(map[string]any{"privateKeyPem": nil}), 400, bad("privateKeyPem is required")},
		{"ssl bad port", "POST", p("/ssl"), ssl(map[string]any{"httpsPort": 0}), 400, bad("httpsPort must be between 1 and 65535")},
		{"ssl certificate not PEM", "POST", p("/ssl"), ssl(map[string]any{"certificatePem": "garbage"}), 400,
			bad("Invalid certificatePem: expected a PEM-encoded CERTIFICATE")},
		{"ssl key as certificate", "POST", p("/ssl"), ssl(map[string]any{"certificatePem": key}), 400,
			bad("Invalid certificatePem: expected a PEM-encoded CERTIFICATE")},
		{"ssl certificate as key", "POST", p("/ssl"), ssl(map[string]any{"privateKeyPem": cert}), 400,
			bad("Invalid privateKeyPem: expected a PEM-encoded PRIVATE KEY")},
		{"ssl broken key", "POST", p("/ssl"), ssl(map[string]any{"privateKeyPem": "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"}), 400,
			bad("Invalid privateKeyPem: the key cannot be parsed (encrypted keys are not supported)")},
		{"ssl key of another certificate", "POST", p("/ssl"), ssl(map[string]any{"privateKeyPem": otherKey}), 400,
			bad("privateKeyPem does not match certificatePem")},
		{"ssl bad chain", "POST", p("/ssl"), ssl(map[string]any{"caChainPem": key}), 400, bad("Invalid caChainPem: expected PEM-encoded CERTIFICATEs")},
		{"ssl port taken", "POST", p("/ssl"), ssl(map[string]any{"httpsPort": 8080}), 409, errJSON("CONFLICT", "Port 8080 is already used by was-01 on node web-01")},
		{"ssl", "POST", p("/ssl"), ssl(map[string]any{"caChainPem": ca + otherCert}), 200, actionY},

		{"uris without type", "PUT", p("/uri"), `{"uris":["/a"]}`, 400, bad("type is required")},
		{"uris bad type", "PUT", p("/uri?type=replace"), `{"uris":["/a"]}`, 400, bad("Invalid type: replace (allowed: create, delete)")},
		{"uris missing", "PUT", p("/uri?type=create"), `{}`, 400, bad("uris is required")},
		{"uris empty", "PUT", p("/uri?type=create"), `{"uris":[]}`, 400, bad("uris must not be empty")},
		{"uri without slash", "PUT", p("/uri?type=create"), `{"uris":["/ok","api/*"]}`, 400, bad("Invalid URI pattern: api/* (must start with '/')")},
		{"uris added", "PUT", p("/uri?type=create"), `{"uris":["/shop/*","/api/*"]}`, 200, actionY},
		{"uris added again", "PUT", p("/uri?type=create"), `{"uris":["/api/*","/static/*"]}`, 200, actionY},
		{"uris deleted", "PUT", p("/uri?type=delete"), `{"uris":["/shop/*","/never/*"]}`, 200, actionY},
	})
	expect(t, call(t, h, "GET", admin(p("")), ""), 200,
		`{"serverId":"web-02","nodeName":"web-01","systemName":"shop","httpPort":8081,"httpsPort":8443,"status":"stopped","installRootPath":"/opt/apm/web/web-02",`+
			`"workers":[{"serverId":"was-02","nodeName":"web-01","systemName":"shop","host":"10.0.0.11","ajpPort":8109,"lbFactor":3},`+
			`{"serverId":"no-ajp","nodeName":"app-01","systemName":"shop","host":"was.internal","ajpPort":8010,"lbFactor":1}],`+
			`"uris":["/api/*","/static/*"],"sslEnabled":true}`)
	// The PEMs are kept nowhere: not in the state file either.
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "BEGIN") || strings.Contains(string(data), strings.Split(key, "\n")[1]) {
		t.Fatal("the state file contains PEM material")
	}
	// Workers follow a system rename.
	mustOK(t, h, "PUT", admin("/rest/systems/shop"), `{"systemName":"store"}`)
	got := call(t, h, "GET", admin("/rest/web/servers/web-02/nodes/web-01/systems/store"), "")
	if !strings.Contains(got.body, `{"serverId":"was-02","nodeName":"web-01","systemName":"store",`) {
		t.Fatalf("after rename: %s", got.body)
	}
}

func TestServersStateFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	opts := func(o *Options) { o.StateFile = path }
	f := newSrvFixture(t, opts)
	mustOK(t, f.h, "POST", admin("/rest/was/servers"), `{"type":"register","serverId":"was-reg-1","nodeName":"app-01","systemName":"shop","httpPort":18080}`)
	mustOK(t, f.h, "DELETE", admin(srvPath("web", "web-02", "web-01", "?type=deregister")), "")
	mustOK(t, f.h, "POST", admin(srvPath("was", "was-02", "web-01", "/action")), `{"action":"start"}`)
	reads := []string{
		"/rest/was/servers", "/rest/web/servers", srvPath("was", "was-reg-1", "app-01", ""),
		"/rest/was/servers/register/nodes/app-01/systems/shop", "/rest/web/servers/register/nodes/web-01/systems/shop",
	}
	var before []string
	for _, r := range reads {
		before = append(before, call(t, f.h, "GET", admin(r), "").body)
	}
	g := newSrvFixture(t, opts) // same clock time: was-02 is still starting
	for i, r := range reads {
		expect(t, call(t, g.h, "GET", admin(r), ""), 200, before[i])
	}
	if !strings.Contains(before[0], `"serverId":"was-02","nodeName":"web-01","systemName":"shop","httpPort":8180,"serverType":"E","status":"starting"`) {
		t.Fatalf("was list: %s", before[0])
	}
}

// A started server's applications deploy for the transition delay before they run, and
// so does a newly deployed one: a client that waits for "running" servers only would
// send requests to applications that do not serve yet.
func TestApplicationsDeployAfterTheirServerStarts(t *testing.T) {
	f := newSrvFixture(t)
	status := srvPath("was", "was-01", "web-01", "/applications/status")
	action := srvPath("was", "was-01", "web-01", "/action")
	mustOK(t, f.h, "POST", admin(action), `{"action":"stop"}`)
	f.clock.advance(time.Second)
	mustOK(t, f.h, "POST", admin(action), `{"action":"start"}`)
	expect(t, call(t, f.h, "GET", admin(status), ""), 200, `{"applications":[{"contextPath":"/shop","status":"starting","sessions":0}]}`)
	f.clock.advance(time.Second)
	expect(t, call(t, f.h, "GET", admin(status), ""), 200, `{"applications":[{"contextPath":"/shop","status":"deploying","sessions":0}]}`)
	f.clock.advance(time.Second)
	expect(t, call(t, f.h, "GET", admin(status), ""), 200, `{"applications":[{"contextPath":"/shop","status":"running","sessions":44}]}`)

	mustOK(t, f.h, "POST", admin(srvPath("was", "was-01", "web-01", "/application")), `{"contextPath":"/api","sourcePath":"/opt/apps/api.war"}`)
	expect(t, call(t, f.h, "GET", admin(status), ""), 200, `{"applications":[{"contextPath":"/api","status":"deploying","sessions":0},`+
		`{"contextPath":"/shop","status":"running","sessions":44}]}`)
}

// A server made to fail its starts is starting for the transition delay and then
// stopped, every time, until it is made to start again; the admin call does the same as
// Sim.FailStarts and refuses what names no server.
func TestFailStarts(t *testing.T) {
	f := newSrvFixture(t)
	one := srvPath("was", "was-02", "web-01", "")
	expect(t, call(t, f.h, "PUT", admin("/_apmsim/start-failures/was"), `{"servers":["was-02@web-01/shop"],"fail":true}`), 200,
		`{"servers":["was-02@web-01/shop"],"fail":true}`)
	for range 2 {
		mustOK(t, f.h, "POST", admin(one+"/action"), `{"action":"start"}`)
		if got := call(t, f.h, "GET", admin(one), "").body; !strings.Contains(got, `"status":"starting"`) {
			t.Fatalf("right after the start: %s, want starting", got)
		}
		f.clock.advance(time.Second)
		if got := call(t, f.h, "GET", admin(one), "").body; !strings.Contains(got, `"status":"stopped"`) {
			t.Fatalf("after the transition delay: %s, want stopped", got)
		}
	}
	expect(t, call(t, f.h, "PUT", admin("/_apmsim/start-failures/was"), `{"servers":["nope@web-01/shop"],"fail":true}`), 404,
		errJSON("NOT_FOUND", "Server not found: nope"))
	expect(t, call(t, f.h, "PUT", admin("/_apmsim/start-failures/jvm"), `{"servers":[],"fail":true}`), 400,
		errJSON("BAD_REQUEST", "Invalid kind: jvm (allowed: was, web, session)"))
	expect(t, call(t, f.h, "PUT", viewer("/_apmsim/start-failures/was"), `{"servers":["was-02@web-01/shop"],"fail":false}`), 403,
		errJSON("FORBIDDEN", "Access denied"))

	if err := f.s.FailStarts("was", false, "was-02@web-01/shop"); err != nil {
		t.Fatal(err)
	}
	mustOK(t, f.h, "POST", admin(one+"/action"), `{"action":"start"}`)
	f.clock.advance(2 * time.Second)
	if got := call(t, f.h, "GET", admin(one), "").body; !strings.Contains(got, `"status":"running"`) {
		t.Fatalf("started again after FailStarts(false): %s, want running", got)
	}
}
