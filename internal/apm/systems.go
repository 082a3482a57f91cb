package apm

import (
	"context"
	"net/http"
)

// System is a system of the manager (spec part 2; detail fields from api/decisions.md).
type System struct {
	SystemID, SystemName                                    string
	NodeCount, WebCount, AppCount, SessionCount, CacheCount int64
	Nodes                                                   []SystemNode // detail only (GET /rest/systems/{name}), never nil there; nil from the list
}

// SystemNode is a node as listed in a system's detail.
type SystemNode struct{ NodeName, HostIP, Status string }

type wireSystem struct {
	SystemID     flexString       `json:"systemId"`
	SystemName   flexString       `json:"systemName"`
	NodeCount    flexInt          `json:"nodeCount"`
	WebCount     flexInt          `json:"webCount"`
	AppCount     flexInt          `json:"appCount"`
	SessionCount flexInt          `json:"sessionCount"`
	CacheCount   flexInt          `json:"cacheCount"`
	Nodes        []wireSystemNode `json:"nodes"`
}

type wireSystemNode struct {
	NodeName flexString `json:"nodeName"`
	HostIP   flexString `json:"hostIp"`
	Status   flexString `json:"status"`
}

func (w wireSystem) system() System {
	return System{
		SystemID:     string(w.SystemID),
		SystemName:   string(w.SystemName),
		NodeCount:    int64(w.NodeCount),
		WebCount:     int64(w.WebCount),
		AppCount:     int64(w.AppCount),
		SessionCount: int64(w.SessionCount),
		CacheCount:   int64(w.CacheCount),
	}
}

// detail is system() with the nodes, which only the detail carries.
func (w wireSystem) detail() System {
	s := w.system()
	s.Nodes = mapAll(w.Nodes, wireSystemNode.node)
	return s
}

func (w wireSystemNode) node() SystemNode {
	return SystemNode{NodeName: string(w.NodeName), HostIP: string(w.HostIP), Status: string(w.Status)}
}

// ListSystems returns every system (GET /rest/systems). The result is never nil.
func (c *Client) ListSystems(ctx context.Context) ([]System, error) {
	return getList(ctx, c, "/rest/systems", nil, "systems", wireSystem.system)
}

// GetSystem returns one system with its nodes (GET /rest/systems/{systemName}).
func (c *Client) GetSystem(ctx context.Context, systemName string) (*System, error) {
	return getDetail(ctx, c, func(w wireSystem) (string, string) { return "systemName", string(w.SystemName) },
		wireSystem.detail, "/rest/systems/{}", systemName)
}

type systemBody struct {
	SystemName string `json:"systemName"`
}

// CreateSystem creates a system (POST /rest/systems). An existing name gives a 409
// (IsConflict).
func (c *Client) CreateSystem(ctx context.Context, systemName string) error {
	return c.send(ctx, http.MethodPost, "/rest/systems", nil, systemBody{SystemName: systemName})
}

// RenameSystem renames a system (PUT /rest/systems/{systemName} {"systemName": newName}).
func (c *Client) RenameSystem(ctx context.Context, systemName, newName string) error {
	path, err := buildPath("/rest/systems/{}", systemName)
	if err != nil {
		return err
	}
	return c.send(ctx, http.MethodPut, path, nil, systemBody{SystemName: newName}, about(systemName))
}

// DeleteSystem deletes a system (DELETE /rest/systems/{systemName}). An unknown system
// gives a 404 (IsNotFound), which callers deleting may treat as done.
func (c *Client) DeleteSystem(ctx context.Context, systemName string) error {
	path, err := buildPath("/rest/systems/{}", systemName)
	if err != nil {
		return err
	}
	return c.send(ctx, http.MethodDelete, path, nil, nil, about(systemName))
}
