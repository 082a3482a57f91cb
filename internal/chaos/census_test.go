//go:build chaos

package chaos

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
)

// A census compares the manager with the state. Identities: a system is its systemId (its
// name is unique too); a node is its system's id and its name, the provider's id
// "<system_id>/<name>", and also its nodeId where the state has one; a server is its kind,
// its node's id and its serverId, the provider's id "<system_id>/<node>/<server_id>". A
// server in both must also agree on its port and, where the state declares a running
// state, on the manager's status.

// managerView is what the manager holds.
type managerView struct {
	systems []apm.System
	nodes   []apm.Node   // from the list: SystemName and NodeName, no NodeID
	servers []apm.Server // from the lists of the three kinds: names, main port, status
}

func (v managerView) objects() int { return len(v.systems) + len(v.nodes) + len(v.servers) }

// summary counts the objects and the servers by status: "53 objects, servers: 2 running,
// 1 starting, 2 stopped".
func (v managerView) summary() string {
	count := map[string]int{}
	for _, srv := range v.servers {
		count[strings.ToLower(srv.Status)]++
	}
	parts := make([]string, 0, len(count))
	for _, st := range slices.Sorted(maps.Keys(count)) {
		parts = append(parts, fmt.Sprintf("%d %s", count[st], st))
	}
	if len(parts) == 0 {
		parts = append(parts, "none")
	}
	return fmt.Sprintf("%d objects, servers: %s", v.objects(), strings.Join(parts, ", "))
}

// stateView is what the state holds.
type stateView struct {
	systems []stateSystem
	nodes   []stateNode
	servers []stateServer
}

type stateSystem struct{ addr, id, name string }

type stateNode struct{ addr, systemID, name, nodeID string }

// stateServer is a server resource: its node's id (node_id), server_id, its kind's main
// port (http_port, or a session server's server_port) and its declared state ("" when
// the configuration leaves the running state alone).
type stateServer struct {
	addr             string
	kind             apm.ServerKind
	nodeID, serverID string
	port             int64
	state            string
}

// serverTypes are the server resource types, their kinds and main ports.
var serverTypes = map[string]struct {
	kind apm.ServerKind
	port string
}{
	"apm_was_server":     {apm.KindWAS, "http_port"},
	"apm_web_server":     {apm.KindWeb, "http_port"},
	"apm_session_server": {apm.KindSession, "server_port"},
}

// mainPort is the port of a manager's server that its resource's main port is.
func mainPort(s apm.Server) int64 {
	if s.Kind == apm.KindSession {
		return s.ServerPort
	}
	return s.HTTPPort
}

type census struct {
	objects    int      // systems, nodes and servers in the manager
	servers    int      // servers in the manager
	running    int      // of them, running
	inState    int      // resources in the state
	orphans    []string // in the manager, not in the state
	missing    []string // in the state, not in the manager
	duplicates []string // one entry per extra copy of an identity, in the manager or the state
	mismatches []string // servers in both whose port or running state differ
}

// readState reads the resources of a state file. A missing or empty file is an empty state:
// the CLI creates the file empty when it takes the lock and fills it at its first snapshot,
// so a CLI killed before that leaves it so, and reads it the same way.
func readState(path string) (stateView, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) || (err == nil && len(bytes.TrimSpace(data)) == 0) {
		return stateView{}, nil
	}
	if err != nil {
		return stateView{}, err
	}
	var file struct {
		Resources []struct {
			Mode, Type, Name string
			Instances        []struct {
				Attributes map[string]any `json:"attributes"`
			}
		} `json:"resources"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		return stateView{}, fmt.Errorf("state file %s: %w", path, err)
	}
	var v stateView
	for _, r := range file.Resources {
		if r.Mode != "managed" {
			continue
		}
		for _, inst := range r.Instances {
			v.add(r.Type+"."+r.Name, r.Type, inst.Attributes)
		}
	}
	return v, nil
}

func (v *stateView) add(addr, typ string, a map[string]any) {
	str := func(k string) string { s, _ := a[k].(string); return s }
	switch typ {
	case "apm_system":
		v.systems = append(v.systems, stateSystem{addr: addr, id: str("id"), name: str("name")})
	case "apm_node":
		v.nodes = append(v.nodes, stateNode{addr: addr, systemID: str("system_id"), name: str("name"), nodeID: str("node_id")})
	default:
		st, ok := serverTypes[typ]
		if !ok {
			return
		}
		port, _ := a[st.port].(float64) // JSON numbers
		v.servers = append(v.servers, stateServer{addr: addr, kind: st.kind, nodeID: str("node_id"), serverID: str("server_id"),
			port: int64(port), state: str("state")})
	}
}

func takeCensus(m managerView, s stateView) census {
	c := census{
		objects: m.objects(), servers: len(m.servers),
		inState: len(s.systems) + len(s.nodes) + len(s.servers),
	}
	for _, srv := range m.servers {
		if strings.EqualFold(srv.Status, "running") {
			c.running++
		}
	}
	c.duplicates = append(managerDuplicates(m), stateDuplicates(s)...)
	c.orphans, c.missing = compareSets(managerKeys(m), stateKeys(s))
	c.mismatches = serverMismatches(m, s)
	return c
}

// serverMismatches lists the servers of the state whose port differs from the manager's,
// or whose declared state is not the manager's status, sorted. A server the manager lacks
// is missing, not a mismatch.
func serverMismatches(m managerView, s stateView) []string {
	ids := systemIDs(m)
	byKey := map[string]apm.Server{}
	for _, srv := range m.servers {
		byKey[managerServerKey(ids, srv)] = srv
	}
	var out []string
	for _, st := range s.servers {
		srv, ok := byKey[serverKey(st.kind, st.nodeID, st.serverID)]
		if !ok {
			continue
		}
		if p := mainPort(srv); p != st.port {
			out = append(out, fmt.Sprintf("%s: port %d in the state, %d in the manager", st.addr, st.port, p))
		}
		if st.state != "" && !strings.EqualFold(srv.Status, st.state) {
			out = append(out, fmt.Sprintf("%s: state %s in the state, status %s in the manager", st.addr, st.state, srv.Status))
		}
	}
	slices.Sort(out)
	return out
}

// managerKeys names every manager object by its identity key, with a description.
func managerKeys(m managerView) map[string]string {
	ids := systemIDs(m)
	keys := map[string]string{}
	for _, s := range m.systems {
		keys["system "+s.SystemID] = fmt.Sprintf("system %s (%s)", s.SystemName, s.SystemID)
	}
	for _, n := range m.nodes {
		keys[nodeKey(ids[n.SystemName], n.NodeName)] = fmt.Sprintf("node %s/%s", n.SystemName, n.NodeName)
	}
	for _, srv := range m.servers {
		keys[managerServerKey(ids, srv)] = serverDescription(srv)
	}
	return keys
}

// serverDescription names a manager's server as the orphans list does: "was server
// chaos-s1/s1-n1/was-1".
func serverDescription(srv apm.Server) string {
	return fmt.Sprintf("%s server %s/%s/%s", srv.Kind, srv.SystemName, srv.NodeName, srv.ServerID)
}

func stateKeys(s stateView) map[string]string {
	keys := map[string]string{}
	for _, sys := range s.systems {
		keys["system "+sys.id] = sys.addr + " (" + sys.id + ")"
	}
	for _, n := range s.nodes {
		keys[nodeKey(n.systemID, n.name)] = n.addr + " (" + n.systemID + "/" + n.name + ")"
	}
	for _, srv := range s.servers {
		keys[serverKey(srv.kind, srv.nodeID, srv.serverID)] = srv.addr + " (" + srv.nodeID + "/" + srv.serverID + ")"
	}
	return keys
}

// systemIDs maps system names to ids; a node in the list names its system.
func systemIDs(m managerView) map[string]string {
	ids := map[string]string{}
	for _, s := range m.systems {
		ids[s.SystemName] = s.SystemID
	}
	return ids
}

func nodeKey(systemID, name string) string { return "node " + systemID + "/" + name }

// serverKey is a server's identity: its kind, its node's id and its serverId.
func serverKey(kind apm.ServerKind, nodeID, serverID string) string {
	return "server " + string(kind) + " " + nodeID + "/" + serverID
}

// managerServerKey is the identity of a manager's server, which names its system.
func managerServerKey(ids map[string]string, srv apm.Server) string {
	return serverKey(srv.Kind, ids[srv.SystemName]+"/"+srv.NodeName, srv.ServerID)
}

// compareSets gives the descriptions of the manager's keys the state lacks (orphans) and of
// the state's keys the manager lacks (missing), sorted.
func compareSets(manager, state map[string]string) (orphans, missing []string) {
	for k, d := range manager {
		if _, ok := state[k]; !ok {
			orphans = append(orphans, d)
		}
	}
	for k, d := range state {
		if _, ok := manager[k]; !ok {
			missing = append(missing, d)
		}
	}
	slices.Sort(orphans)
	slices.Sort(missing)
	return orphans, missing
}

func managerDuplicates(m managerView) []string {
	ids := systemIDs(m)
	var names, sysIDs, nodes, servers []string
	for _, s := range m.systems {
		names = append(names, s.SystemName)
		sysIDs = append(sysIDs, s.SystemID)
	}
	for _, n := range m.nodes {
		nodes = append(nodes, nodeKey(ids[n.SystemName], n.NodeName))
	}
	for _, srv := range m.servers {
		servers = append(servers, managerServerKey(ids, srv))
	}
	return slices.Concat(repeated("manager: system name", names), repeated("manager: system id", sysIDs), repeated("manager:", nodes),
		repeated("manager:", servers))
}

func stateDuplicates(s stateView) []string {
	var sysIDs, nodes, nodeIDs, servers []string
	for _, sys := range s.systems {
		sysIDs = append(sysIDs, sys.id)
	}
	for _, n := range s.nodes {
		nodes = append(nodes, nodeKey(n.systemID, n.name))
		if n.nodeID != "" {
			nodeIDs = append(nodeIDs, n.nodeID)
		}
	}
	for _, srv := range s.servers {
		servers = append(servers, serverKey(srv.kind, srv.nodeID, srv.serverID))
	}
	return slices.Concat(repeated("state: system id", sysIDs), repeated("state:", nodes), repeated("state: node_id", nodeIDs),
		repeated("state:", servers))
}

// repeated lists one entry per extra occurrence of a key.
func repeated(what string, keys []string) []string {
	count := map[string]int{}
	var out []string
	for _, k := range keys {
		if count[k]++; count[k] > 1 {
			out = append(out, fmt.Sprintf("%s %s (copy %d)", what, k, count[k]))
		}
	}
	slices.Sort(out)
	return out
}
