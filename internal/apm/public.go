package apm

import "context"

// Calls under /rest/public: the manager needs no key for them, and the client sends none
// (see isPublic), so the key is not exposed to anything that logs these requests.

// PublicNode is an element of the public node list. The manager documents that list as
// dummy data for testing.
type PublicNode struct{ NodeID, NodeName, SystemName, ConnectionStatus, IPAddress string }

// ManagerInfo describes the manager.
type ManagerInfo struct {
	Version, PatchVersion, Status string
	HAMode                        bool
}

type wirePublicNode struct {
	NodeID           flexString `json:"nodeId"`
	NodeName         flexString `json:"nodeName"`
	SystemName       flexString `json:"systemName"`
	ConnectionStatus flexString `json:"connectionStatus"`
	IPAddress        flexString `json:"ipAddress"`
}

type wireManagerInfo struct {
	Version      flexString `json:"version"`
	PatchVersion flexString `json:"patchVersion"`
	Status       flexString `json:"status"`
	HAMode       flexBool   `json:"haMode"`
}

func (w wirePublicNode) node() PublicNode {
	return PublicNode{
		NodeID:           string(w.NodeID),
		NodeName:         string(w.NodeName),
		SystemName:       string(w.SystemName),
		ConnectionStatus: string(w.ConnectionStatus),
		IPAddress:        string(w.IPAddress),
	}
}

func (w wireManagerInfo) info() ManagerInfo {
	return ManagerInfo{
		Version:      string(w.Version),
		PatchVersion: string(w.PatchVersion),
		Status:       string(w.Status),
		HAMode:       bool(w.HAMode),
	}
}

// ListPublicNodes returns the public node list (GET /rest/public/nodes, no key). The
// result is never nil.
func (c *Client) ListPublicNodes(ctx context.Context) ([]PublicNode, error) {
	return getList(ctx, c, "/rest/public/nodes", nil, "nodeList", wirePublicNode.node)
}

// ManagerInfo returns the manager's version and status (GET /rest/public/managerInfo, no key).
func (c *Client) ManagerInfo(ctx context.Context) (*ManagerInfo, error) {
	return getAt(ctx, c, "/rest/public/managerInfo", wireManagerInfo.info)
}
