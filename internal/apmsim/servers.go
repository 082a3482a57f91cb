package apmsim

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
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
	case sv.Target == srvRunning:
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

// serverPortsBody holds every kind's port fields; a kind reads only its own.
type serverPortsBody struct {
	HTTPPort   json.RawMessage `json:"httpPort"`
	AJPPort    json.RawMessage `json:"ajpPort"`
	HTTPSPort  json.RawMessage `json:"httpsPort"`
	ServerPort json.RawMessage `json:"serverPort"`
}

func (b serverPortsBody) raw(field string) json.RawMessage {
	return map[string]json.RawMessage{
		"httpPort": b.HTTPPort, "ajpPort": b.AJPPort, "httpsPort": b.HTTPSPort, "serverPort": b.ServerPort,
	}[field]
}

// parse reads k's ports: the present ones, validated for range. Whether a port is
// required is the caller's business (install needs one, modify none).
func (b serverPortsBody) parse(k *serverKindSpec) (map[string]int, error) {
	ports := map[string]int{}
	for _, f := range k.ports {
		p, present, err := intField(f, b.raw(f))
		if err == nil && present {
			err = validPort(f, p)
		}
		if err != nil {
			return nil, err
		}
		if present {
			ports[f] = p
		}
	}
	return ports, nil
}

type serverCreateBody struct {
	Type       string `json:"type"`
	ServerID   string `json:"serverId"`
	NodeName   string `json:"nodeName"`
	SystemName string `json:"systemName"`
	serverPortsBody
	ServerType      string `json:"serverType"`
	InstallRootPath string `json:"installRootPath"`
}

// serverCreate is a checked install or register request.
type serverCreate struct {
	register   bool
	body       serverCreateBody
	ports      map[string]int // the ones given
	serverType string         // "S", "E" or "" (not given)
}

// check validates an install or register: required fields first (in body order), then
// their formats. Fields of other kinds are ignored like unknown fields.
func (b serverCreateBody) check(k *serverKindSpec) (*serverCreate, error) {
	required := k.ports[0]
	_, havePort, _ := intField(required, b.raw(required))
	for _, f := range []struct {
		name    string
		present bool
	}{{"type", b.Type != ""}, {"serverId", b.ServerID != ""}, {"nodeName", b.NodeName != ""}, {"systemName", b.SystemName != ""}, {required, havePort}} {
		if !f.present {
			return nil, badRequest("%s is required", f.name)
		}
	}
	if b.Type != "install" && b.Type != "register" {
		return nil, badRequest("Invalid type: %s (allowed: install, register)", b.Type)
	}
	c := &serverCreate{register: b.Type == "register", body: b}
	if err := validServerID(b.ServerID); err != nil {
		return nil, err
	}
	var err error
	if c.ports, err = b.parse(k); err != nil {
		return nil, err
	}
	if k.takesServerType && b.ServerType != "" {
		if c.serverType, err = parseWASServerType(b.ServerType); err != nil {
			return nil, err
		}
	}
	if k.takesInstallRoot && b.InstallRootPath != "" {
		if c.register {
			return nil, badRequest("installRootPath is only allowed with type install")
		}
		if err := checkAbsPath("installRootPath", b.InstallRootPath); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// serverIDRule is the sim's own rule (the spec gives none): a host-name-like label, and
// not "register", which would collide with the registerable-list path.
const serverIDRule = "1-63 characters: letters, digits, '.', '-' and '_'; not 'register'"

func validServerID(id string) error {
	if !nameOK(id, 63, ".-_") || id == "register" {
		return badRequest("Invalid serverId: %s (allowed: %s)", id, serverIDRule)
	}
	return nil
}

func checkAbsPath(field, p string) error {
	if !strings.HasPrefix(p, "/") {
		return badRequest("Invalid %s: %s (must be an absolute path)", field, p)
	}
	return nil
}

func (a serversArea) create(k *serverKindSpec) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var body serverCreateBody
		if err := decodeBody(r, &body); err != nil {
			writeErr(w, err)
			return
		}
		req, err := body.check(k)
		if err != nil {
			writeErr(w, err)
			return
		}
		a.writeResult(w, a.s.update(func(wd *world) error { return a.createIn(wd, k, req) }))
	}
}

// createIn installs or registers req in wd: 404 for an unknown system or node (or
// registerable server), 409 for a taken serverId or port.
func (a serversArea) createIn(wd *world, k *serverKindSpec, req *serverCreate) error {
	n, err := serverNode(wd, req.body.SystemName, req.body.NodeName)
	if err != nil {
		return err
	}
	id := req.body.ServerID
	st := serversState.of(wd)
	key := serverKey(k.name, n.ID, id)
	reg := a.findRegisterable(wd, k, n, id)
	// An unregistered server is on the node already: installing another with its id clashes.
	if st.Servers[key] != nil || (!req.register && reg != nil) {
		return conflict("Server already exists: %s", id)
	}
	sv := &simServer{
		Kind: k.name, ServerID: id, NodeID: n.ID, Ports: req.ports, ServerType: req.serverType,
		Home: req.body.InstallRootPath, Target: srvStopped, TransitionEnd: a.s.now().UTC(),
	}
	if req.register {
		if reg == nil {
			return notFound("Registerable server not found: %s", id)
		}
		adoptRegisterable(sv, reg)
	}
	a.completeDefaults(k, sv)
	if err := checkServerPorts(wd, k, sv, sv.Ports); err != nil {
		return err
	}
	if req.register {
		st.Claimed[key] = true
		delete(st.Released, key)
	}
	st.Servers[key] = sv
	what := "installed on"
	if req.register {
		what = "registered on"
	}
	a.announce(wd, k, sv, "INFO", what)
	return nil
}

// completeDefaults fills what an install or register left out.
func (a serversArea) completeDefaults(k *serverKindSpec, sv *simServer) {
	if sv.Home == "" {
		sv.Home = defaultServerHome(k.name, sv.ServerID)
	}
	if k.takesServerType && sv.ServerType == "" {
		sv.ServerType = wasStandard
	}
	if k.takesJavaHome && sv.JavaHome == "" {
		sv.JavaHome = defaultJavaHome
	}
}

// defaultJavaHome is the javaHome of a WAS server until a modify sets another.
const defaultJavaHome = "/usr/lib/jvm/java-17"

func defaultServerHome(kind, id string) string { return "/opt/apm/" + kind + "/" + id }

// checkServerPorts checks the ports sv would have: distinct among themselves (400), and
// not used by another server of any kind on the node (409).
func checkServerPorts(wd *world, k *serverKindSpec, sv *simServer, ports map[string]int) error {
	for i, f := range k.ports {
		for _, g := range k.ports[i+1:] {
			if p, ok := ports[f]; ok && ports[g] == p {
				return badRequest("%s and %s must differ", f, g)
			}
		}
	}
	n := wd.nodes[sv.NodeID]
	for _, f := range k.ports {
		p, ok := ports[f]
		if !ok {
			continue
		}
		for _, other := range (serversArea{}).sortedServers(wd, nil) {
			if other.NodeID == sv.NodeID && other != sv && slices.Contains(slices.Collect(maps.Values(other.Ports)), p) {
				return conflict("Port %d is already used by %s on node %s", p, other.ServerID, n.Name)
			}
		}
	}
	return nil
}

// announce publishes what happened to sv, e.g. "WAS server was-01 installed on node web-01".
func (a serversArea) announce(wd *world, k *serverKindSpec, sv *simServer, severity, what string) {
	a.s.publish(wd, simEvent{Severity: severity, Target: sv.ServerID,
		Message: fmt.Sprintf("%s %s %s node %s", k.label, sv.ServerID, what, wd.nodes[sv.NodeID].Name)})
}

// ---- modify ----

type serverModifyBody struct {
	serverPortsBody
	JavaHome *string `json:"javaHome"`
}

func (a serversArea) modify(k *serverKindSpec) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var body serverModifyBody
		if err := decodeBody(r, &body); err != nil {
			writeErr(w, err)
			return
		}
		changes, err := body.parse(k)
		if err == nil && k.takesJavaHome && body.JavaHome != nil {
			err = checkAbsPath("javaHome", *body.JavaHome)
		}
		if err != nil {
			writeErr(w, err)
			return
		}
		a.change(w, r, k, func(wd *world, sv *simServer) error {
			ports := mergePorts(sv.Ports, changes)
			if err := checkServerPorts(wd, k, sv, ports); err != nil {
				return err
			}
			sv.Ports = ports
			if k.takesJavaHome && body.JavaHome != nil {
				sv.JavaHome = *body.JavaHome
			}
			return nil
		})
	}
}

// mergePorts returns a copy of ports with changes applied.
func mergePorts(ports, changes map[string]int) map[string]int {
	out := make(map[string]int, len(ports)+len(changes))
	for f, p := range ports {
		out[f] = p
	}
	for f, p := range changes {
		out[f] = p
	}
	return out
}

// ---- delete ----

func (a serversArea) delete(k *serverKindSpec) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		typ := r.URL.Query().Get("type")
		switch typ {
		case "uninstall", "deregister":
		case "":
			writeErr(w, badRequest("type is required"))
			return
		default:
			writeErr(w, badRequest("Invalid type: %s (allowed: uninstall, deregister)", typ))
			return
		}
		a.change(w, r, k, func(wd *world, sv *simServer) error {
			if err := a.checkRemovable(wd, sv); err != nil {
				return err
			}
			st := serversState.of(wd)
			key := serverKey(k.name, sv.NodeID, sv.ServerID)
			delete(st.Servers, key)
			what := "uninstalled from"
			if typ == "deregister" {
				st.Released[key] = releasedServer(sv)
				what = "deregistered from"
			}
			a.announce(wd, k, sv, "INFO", what)
			return nil
		})
	}
}

// checkRemovable refuses to remove a server, checking in this order:
//
//  1. a server that is not stopped: actionResult N ("is running; stop it first", "is
//     stopping; try again when it is stopped"), whatever else it has, since stopping
//     comes first anyway;
//  2. a WAS server that a web server balances to: 409, a dependant remains;
//  3. a WAS server with parts (session clustering, datasources, applications): 409, see
//     wasPartsConflict.
//
// Nothing cascades: the client removes what remains and retries.
func (a serversArea) checkRemovable(wd *world, sv *simServer) error {
	switch st := sv.statusAt(a.s.now()); st {
	case srvStopped:
	case srvStopping:
		return serverRefused("Server %s is stopping; try again when it is stopped", sv.ServerID)
	default:
		return serverRefused("Server %s is %s; stop it first", sv.ServerID, st)
	}
	if sv.Kind != serverKindWAS {
		return nil
	}
	if web := workerUsers(wd, sv); len(web) > 0 {
		return conflict("Server %s is a load balancer worker of web server %s; remove the worker first", sv.ServerID, web[0].ServerID)
	}
	return wasPartsConflict(sv)
}

// ---- start and stop ----

type serverActionBody struct {
	Action string `json:"action"`
	Force  bool   `json:"force"`
}

func (a serversArea) action(k *serverKindSpec) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var body serverActionBody
		if err := decodeBody(r, &body); err != nil {
			writeErr(w, err)
			return
		}
		switch body.Action {
		case "start", "stop":
		case "":
			writeErr(w, badRequest("action is required"))
			return
		default:
			writeErr(w, badRequest("Invalid action: %s (allowed: start, stop)", body.Action))
			return
		}
		force := k.takesForce && body.Force && body.Action == "stop"
		a.change(w, r, k, func(wd *world, sv *simServer) error {
			if err := a.move(sv, body.Action, force); err != nil {
				return err
			}
			severity, what := "INFO", "started on"
			if body.Action == "stop" {
				severity, what = "WARNING", "stopped on"
			}
			a.announce(wd, k, sv, severity, what)
			return nil
		})
	}
}

// move applies a start or stop to sv, or refuses it for the server's current status. A
// forced stop (WAS) also interrupts a start and skips the stopping phase.
func (a serversArea) move(sv *simServer, action string, force bool) error {
	now := a.s.now().UTC()
	cur := sv.statusAt(now)
	target, busy := srvRunning, srvStopping
	if action == "stop" {
		target, busy = srvStopped, srvStarting
	}
	switch {
	case cur == target || sv.Target == target:
		return serverRefused("Server %s is already %s", sv.ServerID, cur)
	case cur == busy && !force:
		return serverRefused("Server %s is %s; try again when it is %s", sv.ServerID, cur, sv.Target)
	}
	sv.Target = target
	sv.TransitionEnd = now.Add(a.s.transitionDelay)
	if force {
		sv.TransitionEnd = now
	}
	return nil
}

// ---- hooks ----

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
	add := func(k *serverKindSpec, id string, ports map[string]int, target string) *simServer {
		sv := &simServer{Kind: k.name, ServerID: id, NodeID: n.ID, Ports: ports, Target: target, TransitionEnd: a.s.now().UTC()}
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
