package apm

import (
	"cmp"
	"context"
	"net/http"
)

// Node is a node of a system (spec part 2; detail fields from api/decisions.md). NodeID is
// the detail's "nodeId"; when the detail carries none it equals NodeName (api/decisions.md
// "Identity and paths"). The list documents no nodeId: NodeID is empty there.
type Node struct {
	NodeID                       string
	NodeName, SystemName, HostIP string
	AgentPort                    int64
	Status                       string
	Servers                      []NodeServer // detail only, never nil there; nil from the list
}

// NodeServer is a server as listed in a node's detail.
type NodeServer struct{ ServerID, ServerType, Status string }

// CreateNodeRequest is the body of POST /rest/nodes; every field is required.
type CreateNodeRequest struct {
	NodeName, SystemName, HostIP string
	AgentPort                    int64
}

// UpdateNodeRequest is the body of PUT /rest/nodes/{nodeId}/systems/{systemName}; zero
// fields are left out, so they keep their current value.
type UpdateNodeRequest struct {
	HostIP    string
	AgentPort int64
}

type wireNode struct {
	NodeID     flexString       `json:"nodeId"`
	NodeName   flexString       `json:"nodeName"`
	SystemName flexString       `json:"systemName"`
	HostIP     flexString       `json:"hostIp"`
	AgentPort  flexInt          `json:"agentPort"`
	Status     flexString       `json:"status"`
	Servers    []wireNodeServer `json:"servers"`
}

type wireNodeServer struct {
	ServerID   flexString `json:"serverId"`
	ServerType flexString `json:"serverType"`
	Status     flexString `json:"status"`
}

func (w wireNode) node() Node {
	return Node{
		NodeID:     string(w.NodeID),
		NodeName:   string(w.NodeName),
		SystemName: string(w.SystemName),
		HostIP:     string(w.HostIP),
		AgentPort:  int64(w.AgentPort),
		Status:     string(w.Status),
	}
}

// detail is node() with the servers and the nodeId fallback, which only the detail has.
func (w wireNode) detail() Node {
	n := w.node()
	n.NodeID = cmp.Or(n.NodeID, n.NodeName)
	n.Servers = mapAll(w.Servers, wireNodeServer.server)
	return n
}

func (w wireNodeServer) server() NodeServer {
	return NodeServer{ServerID: string(w.ServerID), ServerType: string(w.ServerType), Status: string(w.Status)}
}

// ListNodes returns every node of every system (GET /rest/nodes). The result is never nil.
func (c *Client) ListNodes(ctx context.Context) ([]Node, error) {
	return getList(ctx, c, "/rest/nodes", nil, "nodes", wireNode.node)
}

// GetNode returns one node with its servers (GET /rest/nodes/{nodeName}/systems/{systemName}).
func (c *Client) GetNode(ctx context.Context, systemName, nodeName string) (*Node, error) {
	// The path names the system; a terse manager may not repeat it. It is filled in before
	// conversion; a missing nodeId falls back to the name.
	inSystem := func(w wireNode) Node {
		w.SystemName = cmp.Or(w.SystemName, flexString(systemName))
		return w.detail()
	}
	return getDetail(ctx, c, func(w wireNode) (string, string) { return "nodeName", string(w.NodeName) },
		inSystem, "/rest/nodes/{}/systems/{}", nodeName, systemName)
}

type createNodeBody struct {
	NodeName   string `json:"nodeName"`
	SystemName string `json:"systemName"`
	HostIP     string `json:"hostIp"`
	AgentPort  int64  `json:"agentPort"`
}

type updateNodeBody struct {
	HostIP    string `json:"hostIp,omitempty"`
	AgentPort int64  `json:"agentPort,omitempty"`
}

// CreateNode registers a node in a system (POST /rest/nodes, scale-out).
func (c *Client) CreateNode(ctx context.Context, req CreateNodeRequest) error {
	return c.send(ctx, http.MethodPost, "/rest/nodes", nil, createNodeBody(req))
}

// UpdateNode modifies a node (PUT /rest/nodes/{nodeId}/systems/{systemName}).
func (c *Client) UpdateNode(ctx context.Context, systemName, nodeID string, req UpdateNodeRequest) error {
	path, err := buildPath("/rest/nodes/{}/systems/{}", nodeID, systemName)
	if err != nil {
		return err
	}
	return c.send(ctx, http.MethodPut, path, nil, updateNodeBody(req), about(nodeID))
}

// DeleteNode removes a node (DELETE /rest/nodes/{nodeId}/systems/{systemName}, scale-in).
func (c *Client) DeleteNode(ctx context.Context, systemName, nodeID string) error {
	path, err := buildPath("/rest/nodes/{}/systems/{}", nodeID, systemName)
	if err != nil {
		return err
	}
	return c.send(ctx, http.MethodDelete, path, nil, nil, about(nodeID))
}
