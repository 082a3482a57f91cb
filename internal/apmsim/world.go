package apmsim

import (
	"cmp"
	"fmt"
	"slices"
	"time"
)

// world is the whole state of the simulated manager. It is only touched
// under Sim.mu: reads through Sim.read, changes through Sim.update.
//
// Entities refer to each other by generated ID, never by name, so that a
// rename (systems can be renamed) needs no cascading updates.
type world struct {
	seq     map[string]int     // last number issued per ID prefix; IDs are never reused
	systems map[string]*system // by systemId
	nodes   map[string]*node   // by nodeId
	ext     map[string]any     // state of areas outside the core, see extKey
	// unknownExt keeps area state found in a state file that this build
	// has no area for, so that saving does not drop it.
	unknownExt map[string][]byte
}

type system struct {
	ID        string    `json:"systemId"`
	Name      string    `json:"systemName"`
	CreatedAt time.Time `json:"createdAt"`
}

type node struct {
	ID        string    `json:"nodeId"`
	Name      string    `json:"nodeName"`
	SystemID  string    `json:"systemId"`
	HostIP    string    `json:"hostIp"`
	AgentPort int       `json:"agentPort"`
	Status    string    `json:"status"`
	CreatedAt time.Time `json:"createdAt"`
}

// Node status on registration; the public reference shows only "running".
const nodeStatusRunning = "running"

func newWorld() *world {
	w := &world{
		seq:        map[string]int{},
		systems:    map[string]*system{},
		nodes:      map[string]*node{},
		ext:        make(map[string]any, len(extTypes)),
		unknownExt: map[string][]byte{},
	}
	// Every registered area state exists from the start, so readers holding
	// only the read lock never need to create one.
	for name, mk := range extTypes {
		w.ext[name] = mk()
	}
	return w
}

// nextID issues the next ID for prefix, e.g. "SYS-0001".
func (w *world) nextID(prefix string) string {
	w.seq[prefix]++
	return fmt.Sprintf("%s-%04d", prefix, w.seq[prefix])
}

// systemByName returns the system called name, or nil. Names are
// case-sensitive. A scan is fast enough for the handful of systems a
// manager has.
func (w *world) systemByName(name string) *system {
	for _, s := range w.systems {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// nodesOf returns the nodes of a system sorted by name.
func (w *world) nodesOf(systemID string) []*node {
	var out []*node
	for _, n := range w.nodes {
		if n.SystemID == systemID {
			out = append(out, n)
		}
	}
	slices.SortFunc(out, func(a, b *node) int { return cmp.Compare(a.Name, b.Name) })
	return out
}

// nodeByName returns the node called name in the system, or nil.
func (w *world) nodeByName(systemID, name string) *node {
	for _, n := range w.nodes {
		if n.SystemID == systemID && n.Name == name {
			return n
		}
	}
	return nil
}

// sortedSystems returns all systems sorted by name.
func (w *world) sortedSystems() []*system {
	out := make([]*system, 0, len(w.systems))
	for _, s := range w.systems {
		out = append(out, s)
	}
	slices.SortFunc(out, func(a, b *system) int { return cmp.Compare(a.Name, b.Name) })
	return out
}

// sortedNodes returns all nodes sorted by system name, then node name.
func (w *world) sortedNodes() []*node {
	out := make([]*node, 0, len(w.nodes))
	for _, n := range w.nodes {
		out = append(out, n)
	}
	w.sortNodes(out)
	return out
}

// sortNodes orders nodes by system name, then node name.
func (w *world) sortNodes(nodes []*node) {
	slices.SortFunc(nodes, func(a, b *node) int {
		return cmp.Or(
			cmp.Compare(w.systems[a.SystemID].Name, w.systems[b.SystemID].Name),
			cmp.Compare(a.Name, b.Name),
		)
	})
}

// extTypes holds a constructor for each area state registered with
// newExtKey. It is filled during package initialisation and read-only
// afterwards, so no lock guards it.
var extTypes = map[string]func() any{}

// extKey gives an area outside the core its own typed slot in the world,
// so that adding an area needs no change to this file. Declare one at
// package level:
//
//	var wasState = newExtKey[wasData]("was")
//
// and use wasState.of(w) inside Sim.read or Sim.update. T must be
// JSON-serialisable (it goes into the state file under "areas") and its
// zero value must be usable; if *T has a method init() it is called when
// a fresh world is made.
type extKey[T any] struct{ name string }

func newExtKey[T any](name string) extKey[T] {
	if _, dup := extTypes[name]; dup {
		panic("apmsim: duplicate area state " + name)
	}
	extTypes[name] = func() any {
		v := new(T)
		if i, ok := any(v).(interface{ init() }); ok {
			i.init()
		}
		return v
	}
	return extKey[T]{name: name}
}

// of returns the area's state in w.
func (k extKey[T]) of(w *world) *T {
	v, ok := w.ext[k.name].(*T)
	if !ok {
		// newWorld and loadState create every registered slot with its type.
		panic("apmsim: area state " + k.name + " is missing or of the wrong type")
	}
	return v
}
