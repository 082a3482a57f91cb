package apmsim

import (
	"cmp"
	"maps"
	"net/http"
	"slices"
)

// Registerable servers: servers present on a node that the manager does not manage.
//
// Every node's agent reports one unregistered server of each kind (the kind's base
// template: was-reg-1, web-reg-1, session-reg-1), so nothing has to happen when a node is
// created. The list of a node is computed: the base server unless it was claimed (by a
// register) or is registered, plus the servers deregistered from that node (Released).
// Registering takes a server off the list, deregistering puts it back with its ports,
// type and home; uninstalling removes it for good.

// regTemplate is a kind's built-in unregistered server.
type regTemplate struct {
	id         string
	ports      map[string]int
	serverType string // WAS: "S" or "E"
}

// regServer is one unregistered server on a node.
type regServer struct {
	Kind       string         `json:"kind"`
	ServerID   string         `json:"serverId"`
	NodeID     string         `json:"nodeId"`
	Ports      map[string]int `json:"ports"`
	ServerType string         `json:"serverType,omitempty"`
	Home       string         `json:"serverHome"`
}

// registerableOn lists the unregistered servers of kind k on node n, by serverId.
func (a serversArea) registerableOn(wd *world, k *serverKindSpec, n *node) []*regServer {
	st := serversState.of(wd)
	var out []*regServer
	if key := serverKey(k.name, n.ID, k.base.id); !st.Claimed[key] && st.Servers[key] == nil {
		out = append(out, &regServer{
			Kind: k.name, ServerID: k.base.id, NodeID: n.ID, Ports: maps.Clone(k.base.ports),
			ServerType: k.base.serverType, Home: defaultServerHome(k.name, k.base.id),
		})
	}
	for key, r := range st.Released {
		if r.Kind == k.name && r.NodeID == n.ID && st.Servers[key] == nil {
			out = append(out, r)
		}
	}
	slices.SortFunc(out, func(x, y *regServer) int { return cmp.Compare(x.ServerID, y.ServerID) })
	return out
}

// findRegisterable returns the unregistered server id of kind k on n, or nil.
func (a serversArea) findRegisterable(wd *world, k *serverKindSpec, n *node, id string) *regServer {
	for _, r := range a.registerableOn(wd, k, n) {
		if r.ServerID == id {
			return r
		}
	}
	return nil
}

// adopt completes a server being registered from what the node reports: the request's
// ports and serverType win, the rest (other ports, type, home) comes from the node.
func adoptRegisterable(sv *simServer, r *regServer) {
	sv.Ports = mergePorts(r.Ports, sv.Ports)
	if sv.ServerType == "" {
		sv.ServerType = r.ServerType
	}
	sv.Home = r.Home
}

// released is what the node reports about a server once it is deregistered. The
// manager-side settings (workers, datasources, ...) are not kept.
func releasedServer(sv *simServer) *regServer {
	return &regServer{
		Kind: sv.Kind, ServerID: sv.ServerID, NodeID: sv.NodeID, Ports: maps.Clone(sv.Ports),
		ServerType: sv.ServerType, Home: sv.Home,
	}
}

// registerable serves GET /rest/<kind>/servers/register/nodes/{nodeName}/systems/{systemName}.
func (a serversArea) registerable(k *serverKindSpec) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		out := []any{}
		var err error
		a.s.read(func(wd *world) {
			var n *node
			if n, err = serverNode(wd, r.PathValue("systemName"), r.PathValue("nodeName")); err != nil {
				return
			}
			system := wd.systems[n.SystemID].Name
			for _, reg := range a.registerableOn(wd, k, n) {
				out = append(out, k.regJSON(reg, n, system))
			}
		})
		if err != nil {
			writeErr(w, err)
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{k.regKey: out})
	}
}

// wasRegJSON is the spec's "Unregistered WAS server" (part 2).
type wasRegJSON struct {
	SystemName string `json:"systemName"`
	NodeName   string `json:"nodeName"`
	ServerID   string `json:"serverId"`
	ServerIP   string `json:"serverIp"`
	ServerType string `json:"serverType"` // Standard or Enterprise
	HTTPPort   int    `json:"httpPort"`
	AJPPort    int    `json:"ajpPort"`
}

func wasRegJSONOf(r *regServer, n *node, system string) any {
	return wasRegJSON{system, n.Name, r.ServerID, n.HostIP, wasEditionName(r.ServerType), r.Ports["httpPort"], r.Ports["ajpPort"]}
}

// webRegJSON is an unregistered web server (api/decisions.md).
type webRegJSON struct {
	SystemName string `json:"systemName"`
	NodeName   string `json:"nodeName"`
	ServerID   string `json:"serverId"`
	ServerIP   string `json:"serverIp"`
	HTTPPort   int    `json:"httpPort"`
	HTTPSPort  int    `json:"httpsPort"`
}

func webRegJSONOf(r *regServer, n *node, system string) any {
	return webRegJSON{system, n.Name, r.ServerID, n.HostIP, r.Ports["httpPort"], r.Ports["httpsPort"]}
}

// sessionRegJSON is an unregistered session server (api/decisions.md); its status is
// always "available".
type sessionRegJSON struct {
	ServerID   string `json:"serverId"`
	ServerHome string `json:"serverHome"`
	Status     string `json:"status"`
}

func sessionRegJSONOf(r *regServer, _ *node, _ string) any {
	return sessionRegJSON{r.ServerID, r.Home, "available"}
}
