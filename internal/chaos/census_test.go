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
// server in both must also agree on its port, on its server_type where the state has one,
// and, where the state declares a running state, on the manager's status.
//
// Every other object is an entry: an identity key, the same in the manager and the state,
// and a value they must agree on. Databases, datasources, users and roles are their names
// (a datasource's value is its database); grants are a user and a role. A server's parts
// are one entry per resource: a web server's workers (the value is the WAS servers' ids),
// its URI patterns (the patterns) and its SSL set-up (the HTTPS port); a WAS server's
// session clustering (the session servers' addresses), and each attached datasource and
// deployed application. A web server with no workers, patterns or SSL, and a WAS server
// without clustering, has no such entry.

// managerView is what the manager holds: its lists, and, when read with details, what
// only the servers' details and the users' grants show.
type managerView struct {
	systems     []apm.System
	nodes       []apm.Node   // from the list: SystemName and NodeName, no NodeID
	servers     []apm.Server // from the lists of the three kinds; with details, WAS and web servers' details
	databases   []apm.Database
	datasources []apm.Datasource
	users       []apm.User
	roles       []apm.Role

	detailed     bool
	grants       []grant                    // with details: every user's roles
	applications map[apm.ServerRef][]string // with details: each WAS server's applications' context paths
}

type grant struct{ user, role string }

// objects counts the objects: those of the lists, and with details the parts and grants.
func (v managerView) objects() int {
	return len(v.systems) + len(v.nodes) + len(v.servers) + len(managerParts(v))
}

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
	entries []stateEntry
	tainted []string // the addresses of the resources marked tainted
}

type stateSystem struct{ addr, id, name string }

type stateNode struct{ addr, systemID, name, nodeID string }

// stateServer is a server resource: its node's id (node_id), server_id, its kind's main
// port (http_port, or a session server's server_port), a WAS server's server_type ("" when
// the state has none) and its declared state ("" when the configuration leaves the running
// state alone).
type stateServer struct {
	addr             string
	kind             apm.ServerKind
	nodeID, serverID string
	port             int64
	edition          string
	state            string
}

// stateEntry is any other resource: its address, its identity key and its value.
type stateEntry struct{ addr, key, value string }

// entry is an object of the manager other than a system, node or server.
type entry struct{ key, desc, value string }

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
	objects    int      // objects in the manager, parts and grants included
	servers    int      // servers in the manager
	running    int      // of them, running
	inState    int      // resources in the state
	orphans    []string // in the manager, not in the state
	missing    []string // in the state, not in the manager
	duplicates []string // one entry per extra copy of an identity, in the manager or the state
	mismatches []string // objects in both whose port, server_type, running state or value differ
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
				Status     string         `json:"status"` // "tainted", or none
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
			if inst.Status == "tainted" {
				v.tainted = append(v.tainted, r.Type+"."+r.Name)
			}
		}
	}
	return v, nil
}

// attrs reads a resource's attributes as the state file has them.
type attrs map[string]any

func (a attrs) str(k string) string { s, _ := a[k].(string); return s }
func (a attrs) num(k string) int64  { f, _ := a[k].(float64); return int64(f) } // JSON numbers

// list is a list or set of strings, sorted.
func (a attrs) list(k string) []string {
	list, _ := a[k].([]any)
	out := make([]string, 0, len(list))
	for _, e := range list {
		s, _ := e.(string)
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

// keys is the keys of a map attribute, sorted.
func (a attrs) keys(k string) []string {
	m, _ := a[k].(map[string]any)
	return slices.Sorted(maps.Keys(m))
}

func (v *stateView) add(addr, typ string, raw map[string]any) {
	a := attrs(raw)
	switch typ {
	case "apm_system":
		v.systems = append(v.systems, stateSystem{addr: addr, id: a.str("id"), name: a.str("name")})
		return
	case "apm_node":
		v.nodes = append(v.nodes, stateNode{addr: addr, systemID: a.str("system_id"), name: a.str("name"), nodeID: a.str("node_id")})
		return
	}
	if st, ok := serverTypes[typ]; ok {
		v.servers = append(v.servers, stateServer{addr: addr, kind: st.kind, nodeID: a.str("node_id"), serverID: a.str("server_id"),
			port: a.num(st.port), edition: a.str("server_type"), state: a.str("state")})
		return
	}
	var key, value string
	switch typ {
	case "apm_database":
		key = databaseKey(a.str("resource_name"))
	case "apm_datasource":
		key, value = datasourceKey(a.str("resource_name")), a.str("database_id")
	case "apm_user":
		key = userKey(a.str("user_id"))
	case "apm_role":
		key = roleKey(a.str("role_id"))
	case "apm_user_role":
		key = grantKey(a.str("user_id"), a.str("role_id"))
	case "apm_web_workers":
		key, value = workersKey(a.str("web_server_id")), strings.Join(a.keys("workers"), ", ")
	case "apm_web_uri_patterns":
		key, value = urisKey(a.str("web_server_id")), strings.Join(a.list("patterns"), ", ")
	case "apm_web_ssl":
		key, value = sslKey(a.str("web_server_id")), sslValue(a.num("https_port"))
	case "apm_was_session_cluster":
		key, value = clusterKey(a.str("was_server_id")),
			clusterValue(a.str("primary_host"), a.num("primary_port"), a.str("secondary_host"), a.num("secondary_port"))
	case "apm_was_datasource":
		key = attachmentKey(a.str("was_server_id"), a.str("datasource_name"))
	case "apm_was_application":
		key = applicationKey(a.str("was_server_id"), a.str("context_path"))
	default:
		return // a type the census does not know of, such as none of the fleet's
	}
	v.entries = append(v.entries, stateEntry{addr: addr, key: key, value: value})
}

// The entries' identity keys and values. A server's id is "<system_id>/<node>/<server_id>".
func databaseKey(name string) string            { return "database " + name }
func datasourceKey(name string) string          { return "datasource " + name }
func userKey(id string) string                  { return "user " + id }
func roleKey(id string) string                  { return "role " + id }
func grantKey(user, role string) string         { return "grant " + user + "/" + role }
func workersKey(web string) string              { return "workers of " + web }
func urisKey(web string) string                 { return "URI patterns of " + web }
func sslKey(web string) string                  { return "SSL of " + web }
func sslValue(port int64) string                { return fmt.Sprintf("HTTPS port %d", port) }
func clusterKey(was string) string              { return "session clustering of " + was }
func attachmentKey(was, name string) string     { return "datasource " + name + " attached to " + was }
func applicationKey(was, context string) string { return "application " + context + " on " + was }

func clusterValue(primary string, primaryPort int64, secondary string, secondaryPort int64) string {
	return fmt.Sprintf("primary %s:%d, secondary %s:%d", primary, primaryPort, secondary, secondaryPort)
}

// managerParts lists the manager's entries: databases, datasources, users and roles from
// the lists, and with details the servers' parts and the grants, each described by the
// names the manager knows it by.
func managerParts(m managerView) []entry {
	var out []entry
	for _, d := range m.databases {
		out = append(out, entry{databaseKey(d.ResourceName), "database " + d.ResourceName, ""})
	}
	for _, d := range m.datasources {
		out = append(out, entry{datasourceKey(d.ResourceName), "datasource " + d.ResourceName, d.DatabaseResourceName})
	}
	for _, u := range m.users {
		out = append(out, entry{userKey(u.UserID), "user " + u.UserID, ""})
	}
	for _, r := range m.roles {
		out = append(out, entry{roleKey(r.AuthID), "role " + r.AuthID, ""})
	}
	if !m.detailed {
		return out
	}
	for _, g := range m.grants {
		out = append(out, entry{grantKey(g.user, g.role), "grant of role " + g.role + " to user " + g.user, ""})
	}
	ids := systemIDs(m)
	for _, srv := range m.servers {
		id, desc := managerServerID(ids, srv), serverDescription(srv)
		switch srv.Kind {
		case apm.KindWeb:
			if len(srv.Workers) > 0 {
				was := make([]string, 0, len(srv.Workers))
				for _, w := range srv.Workers {
					was = append(was, ids[w.SystemName]+"/"+w.NodeName+"/"+w.ServerID)
				}
				slices.Sort(was)
				out = append(out, entry{workersKey(id), "workers of " + desc, strings.Join(was, ", ")})
			}
			if len(srv.URIs) > 0 {
				uris := slices.Sorted(slices.Values(srv.URIs))
				out = append(out, entry{urisKey(id), "URI patterns of " + desc, strings.Join(uris, ", ")})
			}
			if srv.SSLEnabled {
				out = append(out, entry{sslKey(id), "SSL of " + desc, sslValue(srv.HTTPSPort)})
			}
		case apm.KindWAS:
			if c := srv.SessionCluster; c != nil {
				out = append(out, entry{clusterKey(id), "session clustering of " + desc,
					clusterValue(c.PrimaryHost, c.PrimaryPort, c.SecondaryHost, c.SecondaryPort)})
			}
			for _, ds := range srv.Datasources {
				out = append(out, entry{attachmentKey(id, ds), "datasource " + ds + " attached to " + desc, ""})
			}
			for _, ctx := range m.applications[srv.Ref()] {
				out = append(out, entry{applicationKey(id, ctx), "application " + ctx + " on " + desc, ""})
			}
		}
	}
	return out
}

func takeCensus(m managerView, s stateView) census {
	c := census{
		objects: m.objects(), servers: len(m.servers),
		inState: len(s.systems) + len(s.nodes) + len(s.servers) + len(s.entries),
	}
	for _, srv := range m.servers {
		if strings.EqualFold(srv.Status, "running") {
			c.running++
		}
	}
	parts := managerParts(m)
	c.duplicates = append(managerDuplicates(m, parts), stateDuplicates(s)...)
	c.orphans, c.missing = compareSets(managerKeys(m, parts), stateKeys(s))
	c.mismatches = append(serverMismatches(m, s), entryMismatches(parts, s)...)
	slices.Sort(c.mismatches)
	return c
}

// serverMismatches lists the servers of the state whose port differs from the manager's,
// whose server_type (where the state has one) is not the manager's, or whose declared
// state is not the manager's status. A server the manager lacks is missing, not a
// mismatch.
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
		if st.edition != "" && !strings.EqualFold(string(srv.Edition), st.edition) {
			out = append(out, fmt.Sprintf("%s: server_type %s in the state, %s in the manager", st.addr, st.edition, srv.Edition))
		}
		if st.state != "" && !strings.EqualFold(srv.Status, st.state) {
			out = append(out, fmt.Sprintf("%s: state %s in the state, status %s in the manager", st.addr, st.state, srv.Status))
		}
	}
	return out
}

// entryMismatches lists the entries of the state whose value is not the manager's.
func entryMismatches(parts []entry, s stateView) []string {
	values := map[string]string{}
	for _, p := range parts {
		values[p.key] = p.value
	}
	var out []string
	for _, e := range s.entries {
		if v, ok := values[e.key]; ok && v != e.value {
			out = append(out, fmt.Sprintf("%s: %q in the state, %q in the manager", e.addr, e.value, v))
		}
	}
	return out
}

// managerKeys names every manager object by its identity key, with a description.
func managerKeys(m managerView, parts []entry) map[string]string {
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
	for _, p := range parts {
		keys[p.key] = p.desc
	}
	return keys
}

// serverDescription names a manager's server as the orphans list does: "was server
// chaos-s1/s1-n1/was-1".
func serverDescription(srv apm.Server) string {
	return fmt.Sprintf("%s server %s/%s/%s", srv.Kind, srv.SystemName, srv.NodeName, srv.ServerID)
}

// stateKeys names every resource of the state by its identity key, with a description:
// its address and id.
func stateKeys(s stateView) map[string]string {
	keys := map[string]string{}
	for k, r := range stateResources(s) {
		keys[k] = r.addr + " (" + r.id + ")"
	}
	return keys
}

// stateResource is a resource of the state: its address and its id.
type stateResource struct{ addr, id string }

// stateResources are the resources of the state by their identity keys.
func stateResources(s stateView) map[string]stateResource {
	res := map[string]stateResource{}
	for _, sys := range s.systems {
		res["system "+sys.id] = stateResource{sys.addr, sys.id}
	}
	for _, n := range s.nodes {
		res[nodeKey(n.systemID, n.name)] = stateResource{n.addr, n.systemID + "/" + n.name}
	}
	for _, srv := range s.servers {
		res[serverKey(srv.kind, srv.nodeID, srv.serverID)] = stateResource{srv.addr, srv.nodeID + "/" + srv.serverID}
	}
	for _, e := range s.entries {
		res[e.key] = stateResource{e.addr, e.key}
	}
	return res
}

// taintedHeld lists the resources of the state marked tainted whose object the manager
// has: the next apply would replace (delete and create again) an object that is there.
func taintedHeld(m managerView, s stateView) []string {
	held := managerKeys(m, managerParts(m))
	var out []string
	for k, r := range stateResources(s) {
		if _, ok := held[k]; ok && slices.Contains(s.tainted, r.addr) {
			out = append(out, r.addr+" ("+r.id+")")
		}
	}
	slices.Sort(out)
	return out
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

// managerServerID is the provider's id of a manager's server, which names its system.
func managerServerID(ids map[string]string, srv apm.Server) string {
	return ids[srv.SystemName] + "/" + srv.NodeName + "/" + srv.ServerID
}

// managerServerKey is the identity of a manager's server.
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

func managerDuplicates(m managerView, parts []entry) []string {
	ids := systemIDs(m)
	var names, sysIDs, nodes, servers, others []string
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
	for _, p := range parts {
		others = append(others, p.key)
	}
	return slices.Concat(repeated("manager: system name", names), repeated("manager: system id", sysIDs), repeated("manager:", nodes),
		repeated("manager:", servers), repeated("manager:", others))
}

func stateDuplicates(s stateView) []string {
	var sysIDs, nodes, nodeIDs, servers, others []string
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
	for _, e := range s.entries {
		others = append(others, e.key)
	}
	return slices.Concat(repeated("state: system id", sysIDs), repeated("state:", nodes), repeated("state: node_id", nodeIDs),
		repeated("state:", servers), repeated("state:", others))
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
