package apmsim

import (
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"strings"
)

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
