package apmsim

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

// nodesArea serves /rest/nodes (spec 4.6). A node is identified by
// nodeName + systemName for reads, but PUT and DELETE address it by
// nodeId, which the sim generates ("ND-0001") and which therefore never
// equals the name: a client that mixes them up fails its tests. Only the
// node detail reveals the id. With Options.OmitOptionalFields the detail
// leaves nodeId out, and the id is the node's name (api/decisions.md,
// "Identity and paths").
type nodesArea struct{ s *Sim }

func (a nodesArea) register(r *router) {
	r.handle("GET /rest/nodes", a.list)
	r.handle("GET /rest/nodes/{nodeName}/systems/{systemName}", a.get)
	r.handle("POST /rest/nodes", a.create)
	r.handle("PUT /rest/nodes/{nodeId}/systems/{systemName}", a.modify)
	r.handle("DELETE /rest/nodes/{nodeId}/systems/{systemName}", a.delete)
}

// nodeJSON is an element of the node list (api/rest-interface.md part 2).
type nodeJSON struct {
	NodeName   string `json:"nodeName"`
	SystemName string `json:"systemName"`
	HostIP     string `json:"hostIp"`
	AgentPort  int    `json:"agentPort"`
	Status     string `json:"status"`
}

// nodeDetailJSON is the node detail (api/decisions.md); NodeID is empty, and
// so absent, when optional fields are omitted.
type nodeDetailJSON struct {
	NodeID string `json:"nodeId,omitempty"`
	nodeJSON
	Servers []nodeServer `json:"servers"`
}

func toNodeJSON(wd *world, n *node) nodeJSON {
	return nodeJSON{
		NodeName: n.Name, SystemName: wd.systems[n.SystemID].Name,
		HostIP: n.HostIP, AgentPort: n.AgentPort, Status: n.Status,
	}
}

func (a nodesArea) list(w http.ResponseWriter, r *http.Request) {
	var out []nodeJSON
	a.s.read(func(wd *world) {
		out = make([]nodeJSON, 0, len(wd.nodes))
		for _, n := range wd.sortedNodes() {
			out = append(out, toNodeJSON(wd, n))
		}
	})
	writeJSON(w, http.StatusOK, map[string]any{"nodes": out})
}

func (a nodesArea) get(w http.ResponseWriter, r *http.Request) {
	nodeName, systemName := r.PathValue("nodeName"), r.PathValue("systemName")
	var out nodeDetailJSON
	var err error
	a.s.read(func(wd *world) {
		sys := wd.systemByName(systemName)
		if sys == nil {
			err = notFound("System not found: %s", systemName)
			return
		}
		n := wd.nodeByName(sys.ID, nodeName)
		if n == nil {
			err = notFound("Node not found: %s", nodeName)
			return
		}
		out = nodeDetailJSON{nodeJSON: toNodeJSON(wd, n), Servers: a.servers(wd, n)}
		if !a.s.omitOptional {
			out.NodeID = n.ID
		}
	})
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// servers collects what the server areas run on n; never nil, so the
// detail always carries an array.
func (a nodesArea) servers(wd *world, n *node) []nodeServer {
	out := []nodeServer{}
	for _, ar := range a.s.areaList {
		if l, ok := ar.(nodeServerLister); ok {
			out = append(out, l.nodeServers(wd, n)...)
		}
	}
	return out
}

type createNodeBody struct {
	NodeName   string          `json:"nodeName"`
	SystemName string          `json:"systemName"`
	HostIP     string          `json:"hostIp"`
	AgentPort  json.RawMessage `json:"agentPort"` // number or numeric string
}

// check validates a registration: required fields first (in body order),
// then their formats. It returns the parsed agent port.
func (b createNodeBody) check() (int, error) {
	port, havePort, portErr := intField("agentPort", b.AgentPort)
	switch {
	case b.NodeName == "":
		return 0, badRequest("nodeName is required")
	case b.SystemName == "":
		return 0, badRequest("systemName is required")
	case b.HostIP == "":
		return 0, badRequest("hostIp is required")
	case portErr == nil && !havePort:
		return 0, badRequest("agentPort is required")
	}
	if err := validNodeName(b.NodeName); err != nil {
		return 0, err
	}
	if err := validHostIP(b.HostIP); err != nil {
		return 0, err
	}
	if portErr != nil {
		return 0, portErr
	}
	return port, validPort("agentPort", port)
}

func (a nodesArea) create(w http.ResponseWriter, r *http.Request) {
	var body createNodeBody
	if err := decodeBody(r, &body); err != nil {
		writeErr(w, err)
		return
	}
	port, err := body.check()
	if err != nil {
		writeErr(w, err)
		return
	}
	err = a.s.update(func(wd *world) error {
		sys := wd.systemByName(body.SystemName)
		if sys == nil {
			return notFound("System not found: %s", body.SystemName)
		}
		if wd.nodeByName(sys.ID, body.NodeName) != nil {
			return conflict("Node already exists: %s", body.NodeName)
		}
		wd.addNode(sys, body.NodeName, body.HostIP, port, a.s.now())
		a.s.publish(wd, simEvent{Severity: "INFO", Target: body.NodeName,
			Message: fmt.Sprintf("Node %s registered in system %s", body.NodeName, sys.Name)})
		return nil
	})
	answer(w, err)
}

// modifyNodeBody holds the changeable fields; absent (or null) means
// unchanged.
type modifyNodeBody struct {
	HostIP    *string         `json:"hostIp"`
	AgentPort json.RawMessage `json:"agentPort"`
}

func (b modifyNodeBody) check() (port int, havePort bool, err error) {
	if b.HostIP != nil {
		if *b.HostIP == "" {
			return 0, false, badRequest("hostIp must not be empty")
		}
		if err := validHostIP(*b.HostIP); err != nil {
			return 0, false, err
		}
	}
	port, havePort, err = intField("agentPort", b.AgentPort)
	if err == nil && havePort {
		err = validPort("agentPort", port)
	}
	return port, havePort, err
}

func (a nodesArea) modify(w http.ResponseWriter, r *http.Request) {
	nodeID, systemName := r.PathValue("nodeId"), r.PathValue("systemName")
	var body modifyNodeBody
	if err := decodeBody(r, &body); err != nil {
		writeErr(w, err)
		return
	}
	port, havePort, err := body.check()
	if err != nil {
		writeErr(w, err)
		return
	}
	err = a.s.update(func(wd *world) error {
		n, err := a.findNodeByID(wd, nodeID, systemName)
		if err != nil {
			return err
		}
		if body.HostIP != nil {
			n.HostIP = *body.HostIP
		}
		if havePort {
			n.AgentPort = port
		}
		return nil
	})
	answer(w, err)
}

func (a nodesArea) delete(w http.ResponseWriter, r *http.Request) {
	nodeID, systemName := r.PathValue("nodeId"), r.PathValue("systemName")
	err := a.s.update(func(wd *world) error {
		n, err := a.findNodeByID(wd, nodeID, systemName)
		if err != nil {
			return err
		}
		for _, ar := range a.s.areaList {
			if g, ok := ar.(nodeDeleteGuard); ok {
				if err := g.checkNodeDelete(wd, n); err != nil {
					return err
				}
			}
		}
		delete(wd.nodes, n.ID)
		a.s.publish(wd, simEvent{Severity: "INFO", Target: n.Name,
			Message: fmt.Sprintf("Node %s removed from system %s", n.Name, systemName)})
		return nil
	})
	answer(w, err)
}

// findNodeByID resolves the {nodeId}/systems/{systemName} of PUT and
// DELETE. A node of another system is "not found" in this one. Without
// nodeId in the detail a client can only know the name, which is then the
// id; the generated id is refused, since no answer has revealed it.
func (a nodesArea) findNodeByID(wd *world, nodeID, systemName string) (*node, error) {
	sys := wd.systemByName(systemName)
	if sys == nil {
		return nil, notFound("System not found: %s", systemName)
	}
	var n *node
	if a.s.omitOptional {
		n = wd.nodeByName(sys.ID, nodeID)
	} else if n = wd.nodes[nodeID]; n != nil && n.SystemID != sys.ID {
		n = nil
	}
	if n == nil {
		return nil, notFound("Node not found: %s", nodeID)
	}
	return n, nil
}

// seed adds the demo nodes web-01 and app-01 to the demo system "shop".
func (a nodesArea) seed(wd *world, seed string) {
	if seed != SeedDemo {
		return
	}
	shop := wd.systemByName("shop")
	wd.addNode(shop, "web-01", "10.0.0.11", 7730, a.s.now())
	wd.addNode(shop, "app-01", "10.0.0.12", 7730, a.s.now())
}

func (wd *world) addNode(sys *system, name, hostIP string, agentPort int, now time.Time) {
	n := &node{
		ID: wd.nextID("ND"), Name: name, SystemID: sys.ID, HostIP: hostIP,
		AgentPort: agentPort, Status: nodeStatusRunning, CreatedAt: now.UTC(),
	}
	wd.nodes[n.ID] = n
}
