//go:build chaos

package chaos

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
)

// A census compares the manager with the state. Identities: a system is its systemId (its
// name is unique too); a node is its system's id and its name, the provider's id
// "<system_id>/<name>", and also its nodeId where the state has one.

// managerView is what the manager holds.
type managerView struct {
	systems []apm.System
	nodes   []apm.Node // from the list: SystemName and NodeName, no NodeID
}

// stateView is what the state holds.
type stateView struct {
	systems []stateSystem
	nodes   []stateNode
}

type stateSystem struct{ addr, id, name string }

type stateNode struct{ addr, systemID, name, nodeID string }

type census struct {
	objects    int      // systems and nodes in the manager
	inState    int      // resources in the state
	orphans    []string // in the manager, not in the state
	missing    []string // in the state, not in the manager
	duplicates []string // one entry per extra copy of an identity, in the manager or the state
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
	}
}

func takeCensus(m managerView, s stateView) census {
	c := census{objects: len(m.systems) + len(m.nodes), inState: len(s.systems) + len(s.nodes)}
	c.duplicates = append(managerDuplicates(m), stateDuplicates(s)...)
	c.orphans, c.missing = compareSets(managerKeys(m), stateKeys(s))
	return c
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
	return keys
}

func stateKeys(s stateView) map[string]string {
	keys := map[string]string{}
	for _, sys := range s.systems {
		keys["system "+sys.id] = sys.addr + " (" + sys.id + ")"
	}
	for _, n := range s.nodes {
		keys[nodeKey(n.systemID, n.name)] = n.addr + " (" + n.systemID + "/" + n.name + ")"
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
	var names, sysIDs, nodes []string
	for _, s := range m.systems {
		names = append(names, s.SystemName)
		sysIDs = append(sysIDs, s.SystemID)
	}
	for _, n := range m.nodes {
		nodes = append(nodes, nodeKey(ids[n.SystemName], n.NodeName))
	}
	return slices.Concat(repeated("manager: system name", names), repeated("manager: system id", sysIDs), repeated("manager:", nodes))
}

func stateDuplicates(s stateView) []string {
	var sysIDs, nodes, nodeIDs []string
	for _, sys := range s.systems {
		sysIDs = append(sysIDs, sys.id)
	}
	for _, n := range s.nodes {
		nodes = append(nodes, nodeKey(n.systemID, n.name))
		if n.nodeID != "" {
			nodeIDs = append(nodeIDs, n.nodeID)
		}
	}
	return slices.Concat(repeated("state: system id", sysIDs), repeated("state:", nodes), repeated("state: node_id", nodeIDs))
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
