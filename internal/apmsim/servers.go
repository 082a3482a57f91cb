package apmsim

import (
	"cmp"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"time"
)

// serversArea serves the WAS, web and session servers (spec 4.2 to 4.4, except the two
// container lists). The three kinds share their endpoints under /rest/<kind>/servers and
// one implementation, driven by a serverKindSpec per kind; the kind-only sub-operations
// are in servers_was.go and servers_web.go, the registerable lists in
// servers_registerable.go.
//
// A server belongs to a node (by nodeId, stable across system renames) and is identified
// by kind + node + serverId. Its status is computed when read: an action stores where the
// server is heading ("running"/"stopped") and until when it is in transition
// ("starting"/"stopping"), so that no goroutine runs and tests with a fixed clock are
// deterministic.
type serversArea struct{ s *Sim }

// Server statuses (api/decisions.md "States").
const (
	srvRunning  = "running"
	srvStopped  = "stopped"
	srvStarting = "starting"
	srvStopping = "stopping"
)

// serverKindSpec is what differs between the kinds.
type serverKindSpec struct {
	name  string // path segment and node-detail serverType: serverKindWAS, ...
	label string // "WAS server", in events
	// ports are the kind's port fields in body order; the first is required on install
	// and register, the others are optional (0 = none). All of them can be modified.
	ports            []string
	takesServerType  bool // WAS: serverType S/E
	takesInstallRoot bool // WAS: installRootPath on install
	takesJavaHome    bool // WAS: javaHome on modify
	takesForce       bool // WAS: force on stop
	count            func(c *systemCounts)
	listJSON         func(v serverView) any
	detailJSON       func(v serverView) any
	base             regTemplate // the unregistered server every node's agent reports
	regKey           string      // wrapper key of the registerable list
	regJSON          func(r *regServer, n *node, system string) any
}

var (
	wasKind = &serverKindSpec{
		name: serverKindWAS, label: "WAS server", ports: []string{"httpPort", "ajpPort"},
		takesServerType: true, takesInstallRoot: true, takesJavaHome: true, takesForce: true,
		count:    func(c *systemCounts) { c.App++ },
		listJSON: wasListJSON, detailJSON: wasDetailJSON,
		base:   regTemplate{id: "was-reg-1", ports: map[string]int{"httpPort": 18080, "ajpPort": 18009}, serverType: wasStandard},
		regKey: "noRegisterdServers", regJSON: wasRegJSONOf,
	}
	webKind = &serverKindSpec{
		name: serverKindWeb, label: "Web server", ports: []string{"httpPort", "httpsPort"},
		count:    func(c *systemCounts) { c.Web++ },
		listJSON: webListJSON, detailJSON: webDetailJSON,
		base:   regTemplate{id: "web-reg-1", ports: map[string]int{"httpPort": 10080, "httpsPort": 10443}},
		regKey: "noRegisterdServers", regJSON: webRegJSONOf,
	}
	sessionKind = &serverKindSpec{
		name: serverKindSession, label: "Session server", ports: []string{"serverPort"},
		count:    func(c *systemCounts) { c.Session++ },
		listJSON: sessionServerJSONOf, detailJSON: sessionServerJSONOf,
		base:   regTemplate{id: "session-reg-1", ports: map[string]int{"serverPort": 15180}},
		regKey: "servers", regJSON: sessionRegJSONOf,
	}
	// serverKindSpecs is in the order servers are listed in a node's detail.
	serverKindSpecs = []*serverKindSpec{wasKind, webKind, sessionKind}
)

// simServer is one registered server. Fields of other kinds stay empty.
type simServer struct {
	Kind       string         `json:"kind"`
	ServerID   string         `json:"serverId"`
	NodeID     string         `json:"nodeId"`
	Ports      map[string]int `json:"ports"` // by body field name; absent = none
	ServerType string         `json:"serverType,omitempty"`
	JavaHome   string         `json:"javaHome,omitempty"`
	Home       string         `json:"installRootPath"`
	// Target is where the last action leads (running or stopped); until TransitionEnd the
	// server is starting or stopping.
	Target        string    `json:"target"`
	TransitionEnd time.Time `json:"transitionEnd"`
	// FailsStart makes every start of the server fail (Sim.FailStarts): it is starting
	// for the transition delay, then stopped, as a manager reports a process that exits
	// while it starts. StartFailing marks the start under way that will fail.
	FailsStart   bool `json:"failsStart,omitempty"`
	StartFailing bool `json:"startFailing,omitempty"`

	// WAS.
	Cluster     *wasSessionCluster `json:"sessionCluster,omitempty"`
	Datasources []string           `json:"datasources,omitempty"`
	Apps        []wasApplication   `json:"applications,omitempty"`
	// Web.
	Workers []webWorker `json:"workers,omitempty"`
	URIs    []string    `json:"uris,omitempty"`
	SSL     bool        `json:"ssl,omitempty"`
}

// statusAt is the server's status at now.
func (sv *simServer) statusAt(now time.Time) string {
	switch {
	case !now.Before(sv.TransitionEnd):
		return sv.Target
	case sv.Target == srvRunning || sv.StartFailing:
		return srvStarting
	default:
		return srvStopping
	}
}

// serversData is the area's state. Besides the registered servers it keeps what differs
// from each node's built-in registerable list (see servers_registerable.go).
type serversData struct {
	Servers map[string]*simServer `json:"servers"` // by serverKey
	// Claimed marks built-in unregistered servers that were registered (and maybe
	// uninstalled since): they are no longer offered.
	Claimed map[string]bool `json:"claimed"`
	// Released holds deregistered servers, offered for registration again.
	Released map[string]*regServer `json:"released"`
}

func (d *serversData) init() {
	d.Servers = map[string]*simServer{}
	d.Claimed = map[string]bool{}
	d.Released = map[string]*regServer{}
}

var serversState = newExtKey[serversData]("servers")

func serverKey(kind, nodeID, serverID string) string { return kind + "/" + nodeID + "/" + serverID }

// serverView is a server with what rendering needs besides the server itself.
type serverView struct {
	wd           *world
	sv           *simServer
	node         *node
	system       string // system name
	status       string
	omitOptional bool // Options.OmitOptionalFields
}

func (a serversArea) view(wd *world, sv *simServer) serverView {
	n := wd.nodes[sv.NodeID]
	return serverView{wd: wd, sv: sv, node: n, system: wd.systems[n.SystemID].Name, status: sv.statusAt(a.s.now()),
		omitOptional: a.s.omitOptional}
}

func (a serversArea) register(r *router) {
	for _, k := range serverKindSpecs {
		base := "/rest/" + k.name + "/servers"
		one := base + "/{serverId}/nodes/{nodeName}/systems/{systemName}"
		r.handle("GET "+base, a.list(k))
		r.handle("GET "+one, a.get(k))
		r.handle("POST "+base, a.create(k))
		r.handle("PUT "+one, a.modify(k))
		r.handle("DELETE "+one, a.delete(k))
		r.handle("POST "+one+"/action", a.action(k))
		r.handle("GET "+base+"/register/nodes/{nodeName}/systems/{systemName}", a.registerable(k))
	}
	a.registerWAS(r, "/rest/was/servers/{serverId}/nodes/{nodeName}/systems/{systemName}")
	a.registerWeb(r, "/rest/web/servers/{serverId}/nodes/{nodeName}/systems/{systemName}")
}

// ---- answers ----

// serverRefusal is an operation the manager declines: 200 {"actionResult":"N"}. Update
// functions return it like an *apiError; nothing has changed when they do.
type serverRefusal struct{ msg string }

func (e *serverRefusal) Error() string { return e.msg }

func serverRefused(format string, args ...any) error {
	return &serverRefusal{fmt.Sprintf(format, args...)}
}

// actionResultN is a refusal; the message may accompany it (api/rest-interface.md part
// 2), so it is left out when optional fields are omitted.
type actionResultN struct {
	Result  string `json:"actionResult"`
	Message string `json:"message,omitempty"`
}

// writeResult answers a write: Y, N with the refusal's message, or the error.
func (a serversArea) writeResult(w http.ResponseWriter, err error) {
	var ref *serverRefusal
	switch {
	case err == nil:
		actionOK(w)
	case errors.As(err, &ref):
		out := actionResultN{Result: "N", Message: ref.msg}
		if a.s.omitOptional {
			out.Message = ""
		}
		writeJSON(w, http.StatusOK, out)
	default:
		writeErr(w, err)
	}
}

// decodeServerBody decodes a body and checks it; on failure it has answered.
func decodeServerBody[T any](w http.ResponseWriter, r *http.Request, body *T, check func(*T) error) bool {
	err := decodeBody(r, body)
	if err == nil {
		err = check(body)
	}
	if err != nil {
		writeErr(w, err)
		return false
	}
	return true
}

// serverQuery reads a required query parameter; on failure it has answered.
func serverQuery(w http.ResponseWriter, r *http.Request, name string) (string, bool) {
	v := r.URL.Query().Get(name)
	if v == "" {
		writeErr(w, badRequest("%s is required", name))
	}
	return v, v != ""
}

// ---- lookups ----

// serverNode resolves a system and node by name: 404 for either.
func serverNode(wd *world, systemName, nodeName string) (*node, error) {
	sys := wd.systemByName(systemName)
	if sys == nil {
		return nil, notFound("System not found: %s", systemName)
	}
	n := wd.nodeByName(sys.ID, nodeName)
	if n == nil {
		return nil, notFound("Node not found: %s", nodeName)
	}
	return n, nil
}

// locate resolves the {serverId}/nodes/{nodeName}/systems/{systemName} of a request.
func (a serversArea) locate(wd *world, k *serverKindSpec, r *http.Request) (*simServer, error) {
	n, err := serverNode(wd, r.PathValue("systemName"), r.PathValue("nodeName"))
	if err != nil {
		return nil, err
	}
	id := r.PathValue("serverId")
	sv := serversState.of(wd).Servers[serverKey(k.name, n.ID, id)]
	if sv == nil {
		return nil, notFound("Server not found: %s", id)
	}
	return sv, nil
}

// change runs fn on the addressed server under the write lock and answers Y, N or the
// error. fn must check everything before it changes anything.
func (a serversArea) change(w http.ResponseWriter, r *http.Request, k *serverKindSpec, fn func(wd *world, sv *simServer) error) {
	a.writeResult(w, a.s.update(func(wd *world) error {
		sv, err := a.locate(wd, k, r)
		if err != nil {
			return err
		}
		return fn(wd, sv)
	}))
}

// sortedServers returns the servers of kind k (all kinds for nil) by system name, node
// name, kind and serverId.
func (a serversArea) sortedServers(wd *world, k *serverKindSpec) []*simServer {
	var out []*simServer
	for _, sv := range serversState.of(wd).Servers {
		if k == nil || sv.Kind == k.name {
			out = append(out, sv)
		}
	}
	slices.SortFunc(out, func(x, y *simServer) int {
		nx, ny := wd.nodes[x.NodeID], wd.nodes[y.NodeID]
		return cmp.Or(
			cmp.Compare(wd.systems[nx.SystemID].Name, wd.systems[ny.SystemID].Name),
			cmp.Compare(nx.Name, ny.Name),
			cmp.Compare(kindOrder(x.Kind), kindOrder(y.Kind)),
			cmp.Compare(x.ServerID, y.ServerID),
		)
	})
	return out
}

func kindOrder(kind string) int {
	return slices.IndexFunc(serverKindSpecs, func(k *serverKindSpec) bool { return k.name == kind })
}

func kindSpec(kind string) *serverKindSpec { return serverKindSpecs[kindOrder(kind)] }

// ---- reads ----

func (a serversArea) list(k *serverKindSpec) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var out []any
		a.s.read(func(wd *world) {
			out = []any{}
			for _, sv := range a.sortedServers(wd, k) {
				out = append(out, k.listJSON(a.view(wd, sv)))
			}
		})
		writeJSON(w, http.StatusOK, map[string]any{"servers": out})
	}
}

func (a serversArea) get(k *serverKindSpec) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var out any
		var err error
		a.s.read(func(wd *world) {
			var sv *simServer
			if sv, err = a.locate(wd, k, r); err == nil {
				out = k.detailJSON(a.view(wd, sv))
			}
		})
		if err != nil {
			writeErr(w, err)
			return
		}
		writeJSON(w, http.StatusOK, out)
	}
}

// sessionServerJSON is the session server of spec part 2, both list element and detail.
type sessionServerJSON struct {
	ServerID   string `json:"serverId"`
	NodeName   string `json:"nodeName"`
	SystemName string `json:"systemName"`
	ServerPort int    `json:"serverPort"`
	Status     string `json:"status"`
}

func sessionServerJSONOf(v serverView) any {
	return sessionServerJSON{v.sv.ServerID, v.node.Name, v.system, v.sv.Ports["serverPort"], v.status}
}

// ---- install and register ----

// announce publishes what happened to sv, e.g. "WAS server was-01 installed on node web-01".
func (a serversArea) announce(wd *world, k *serverKindSpec, sv *simServer, severity, what string) {
	a.s.publish(wd, simEvent{Severity: severity, Target: sv.ServerID,
		Message: fmt.Sprintf("%s %s %s node %s", k.label, sv.ServerID, what, wd.nodes[sv.NodeID].Name)})
}

// ---- modify ----

// nodeServers lists the node's servers for the node detail (and the meters area), WAS
// first, then web, then session, each by serverId.
func (a serversArea) nodeServers(wd *world, n *node) []nodeServer {
	var out []nodeServer
	for _, sv := range a.sortedServers(wd, nil) {
		if sv.NodeID == n.ID {
			out = append(out, nodeServer{ServerID: sv.ServerID, ServerType: sv.Kind, Status: sv.statusAt(a.s.now())})
		}
	}
	return out
}

// countSystem counts WAS servers as appCount, web as webCount, session as sessionCount.
func (a serversArea) countSystem(wd *world, sys *system, c *systemCounts) {
	for _, sv := range serversState.of(wd).Servers {
		if wd.nodes[sv.NodeID].SystemID == sys.ID {
			kindSpec(sv.Kind).count(c)
		}
	}
}

// checkNodeDelete refuses scale-in of a node that still has servers; nothing cascades.
func (a serversArea) checkNodeDelete(wd *world, n *node) error {
	count := 0
	for _, sv := range serversState.of(wd).Servers {
		if sv.NodeID == n.ID {
			count++
		}
	}
	if count > 0 {
		return conflict("Node %s still has %d server(s); delete them first", n.Name, count)
	}
	return nil
}

// ---- demo seed ----

// demoDatasource is the resources area's demo datasource, attached to was-01 when it
// exists (the resources area seeds before this one).
const demoDatasource = "orders-ds"

// seed adds the demo servers, all on node web-01 of system shop, so that app-01 stays
// empty and can be scaled in: was-01 (running, application /shop, session clustering,
// datasource orders-ds), was-02 (Enterprise, stopped), web-01 (running, balancing to
// was-01, URI /shop/*), web-02 (stopped) and session-01 (stopped).
func (a serversArea) seed(wd *world, seed string) {
	if seed != SeedDemo {
		return
	}
	n := wd.nodeByName(wd.systemByName("shop").ID, "web-01")
	st := serversState.of(wd)
	// The demo's servers have been in their state for a while: their applications serve.
	settled := a.s.now().UTC().Add(-a.s.transitionDelay)
	add := func(k *serverKindSpec, id string, ports map[string]int, target string) *simServer {
		sv := &simServer{Kind: k.name, ServerID: id, NodeID: n.ID, Ports: ports, Target: target, TransitionEnd: settled}
		a.completeDefaults(k, sv)
		st.Servers[serverKey(k.name, n.ID, id)] = sv
		return sv
	}
	was01 := add(wasKind, "was-01", map[string]int{"httpPort": 8080, "ajpPort": 8009}, srvRunning)
	was01.Apps = []wasApplication{{ContextPath: "/shop", SourcePath: "/opt/apps/shop.war", Name: "shop"}}
	was01.Cluster = &wasSessionCluster{PrimaryHost: n.HostIP, PrimaryPort: 5180}
	if a.s.datasourceExists(wd, demoDatasource) {
		attachDatasourceTo(was01, demoDatasource)
	}
	add(wasKind, "was-02", map[string]int{"httpPort": 8180, "ajpPort": 8109}, srvStopped).ServerType = wasEnterprise
	web01 := add(webKind, "web-01", map[string]int{"httpPort": 80}, srvRunning)
	web01.Workers = []webWorker{{NodeID: n.ID, ServerID: "was-01", Host: n.HostIP, AJPPort: 8009, LBFactor: 1}}
	web01.URIs = []string{"/shop/*"}
	add(webKind, "web-02", map[string]int{"httpPort": 8081}, srvStopped)
	add(sessionKind, "session-01", map[string]int{"serverPort": 5180}, srvStopped)
}
