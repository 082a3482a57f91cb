package apm

import (
	"cmp"
	"context"
)

// Real-time metrics (spec 4.8; response bodies from api/decisions.md). The spec gives no
// units; the client passes the manager's numbers through unchanged. The emulator's units
// (percent for cpu and diskUsage, MB for memory and heap, bytes per second for network and
// web traffic, per-minute GC figures) are listed in its README.

// NodeMetrics are the metrics of one node.
type NodeMetrics struct {
	NodeName    string
	SystemName  string // from the path for one node; in the list only when the manager sends it
	CPU         float64
	MemoryUsed  int64
	MemoryTotal int64
	DiskUsage   float64
	NetworkIn   float64 // detail only; 0 in the list
	NetworkOut  float64 // detail only; 0 in the list
}

// NodeMetricsAll is a node's metrics together with those of its WAS and web servers
// (GET .../all). Its server entries carry fewer fields than the per-server calls: WAS
// entries only ServerID, HeapUsed, HeapMax and ThreadActive; web entries only ServerID
// and Connections.
type NodeMetricsAll struct {
	Node       NodeMetrics
	WASServers []WASServerMetrics // never nil
	WebServers []WebServerMetrics // never nil
}

// WASServerMetrics are the JVM metrics of a WAS server.
type WASServerMetrics struct {
	ServerID     string
	HeapUsed     int64
	HeapMax      int64
	ThreadActive int64
	ThreadMax    int64
	GCCount      int64
	GCTime       int64
}

// WebTraffic is what web servers and web containers report (spec part 2).
type WebTraffic struct {
	Connections    int64
	RequestsPerSec float64
	BytesIn        int64
	BytesOut       int64
}

// WebServerMetrics are the metrics of a web server.
type WebServerMetrics struct {
	ServerID string
	WebTraffic
}

// WebContainerMetrics are the metrics of a web container, addressed by host name.
type WebContainerMetrics struct {
	HostName string
	WebTraffic
}

// SessionServerMetrics are the metrics of a session server.
type SessionServerMetrics struct {
	ServerID       string
	ActiveSessions int64
	MemoryUsed     int64
	MemoryMax      int64
}

// WASContainerMetrics are the metrics of a WAS container, addressed by host name.
type WASContainerMetrics struct {
	HostName    string
	CPU         float64
	MemoryUsed  int64
	MemoryMax   int64
	ThreadCount int64
}

type wireNodeMetrics struct {
	NodeName    flexString `json:"nodeName"`
	SystemName  flexString `json:"systemName"`
	CPU         flexFloat  `json:"cpu"`
	MemoryUsed  flexInt    `json:"memoryUsed"`
	MemoryTotal flexInt    `json:"memoryTotal"`
	DiskUsage   flexFloat  `json:"diskUsage"`
	NetworkIn   flexFloat  `json:"networkIn"`
	NetworkOut  flexFloat  `json:"networkOut"`
}

func (w wireNodeMetrics) metrics() NodeMetrics {
	return NodeMetrics{
		NodeName:    string(w.NodeName),
		SystemName:  string(w.SystemName),
		CPU:         float64(w.CPU),
		MemoryUsed:  int64(w.MemoryUsed),
		MemoryTotal: int64(w.MemoryTotal),
		DiskUsage:   float64(w.DiskUsage),
		NetworkIn:   float64(w.NetworkIn),
		NetworkOut:  float64(w.NetworkOut),
	}
}

// named fills the names the path gave when a terse manager does not repeat them.
func (m NodeMetrics) named(systemName, nodeName string) NodeMetrics {
	if m.NodeName == "" {
		m.NodeName = nodeName
	}
	if m.SystemName == "" {
		m.SystemName = systemName
	}
	return m
}

type wireWASServerMetrics struct {
	ServerID     flexString `json:"serverId"`
	HeapUsed     flexInt    `json:"heapUsed"`
	HeapMax      flexInt    `json:"heapMax"`
	ThreadActive flexInt    `json:"threadActive"`
	ThreadMax    flexInt    `json:"threadMax"`
	GCCount      flexInt    `json:"gcCount"`
	GCTime       flexInt    `json:"gcTime"`
}

func (w wireWASServerMetrics) metrics() WASServerMetrics {
	return WASServerMetrics{
		ServerID:     string(w.ServerID),
		HeapUsed:     int64(w.HeapUsed),
		HeapMax:      int64(w.HeapMax),
		ThreadActive: int64(w.ThreadActive),
		ThreadMax:    int64(w.ThreadMax),
		GCCount:      int64(w.GCCount),
		GCTime:       int64(w.GCTime),
	}
}

type wireWebTraffic struct {
	Connections    flexInt   `json:"connections"`
	RequestsPerSec flexFloat `json:"requestsPerSec"`
	BytesIn        flexInt   `json:"bytesIn"`
	BytesOut       flexInt   `json:"bytesOut"`
}

func (w wireWebTraffic) traffic() WebTraffic {
	return WebTraffic{
		Connections:    int64(w.Connections),
		RequestsPerSec: float64(w.RequestsPerSec),
		BytesIn:        int64(w.BytesIn),
		BytesOut:       int64(w.BytesOut),
	}
}

type wireWebServerMetrics struct {
	ServerID flexString `json:"serverId"`
	wireWebTraffic
}

func (w wireWebServerMetrics) metrics() WebServerMetrics {
	return WebServerMetrics{ServerID: string(w.ServerID), WebTraffic: w.traffic()}
}

type wireWebContainerMetrics struct {
	HostName flexString `json:"hostName"`
	wireWebTraffic
}

func (w wireWebContainerMetrics) metrics() WebContainerMetrics {
	return WebContainerMetrics{HostName: string(w.HostName), WebTraffic: w.traffic()}
}

type wireSessionServerMetrics struct {
	ServerID       flexString `json:"serverId"`
	ActiveSessions flexInt    `json:"activeSessions"`
	MemoryUsed     flexInt    `json:"memoryUsed"`
	MemoryMax      flexInt    `json:"memoryMax"`
}

func (w wireSessionServerMetrics) metrics() SessionServerMetrics {
	return SessionServerMetrics{
		ServerID:       string(w.ServerID),
		ActiveSessions: int64(w.ActiveSessions),
		MemoryUsed:     int64(w.MemoryUsed),
		MemoryMax:      int64(w.MemoryMax),
	}
}

type wireWASContainerMetrics struct {
	HostName    flexString `json:"hostName"`
	CPU         flexFloat  `json:"cpu"`
	MemoryUsed  flexInt    `json:"memoryUsed"`
	MemoryMax   flexInt    `json:"memoryMax"`
	ThreadCount flexInt    `json:"threadCount"`
}

func (w wireWASContainerMetrics) metrics() WASContainerMetrics {
	return WASContainerMetrics{
		HostName:    string(w.HostName),
		CPU:         float64(w.CPU),
		MemoryUsed:  int64(w.MemoryUsed),
		MemoryMax:   int64(w.MemoryMax),
		ThreadCount: int64(w.ThreadCount),
	}
}

type wireNodeMetricsAll struct {
	Node       wireNodeMetrics        `json:"node"`
	WASServers []wireWASServerMetrics `json:"wasServers"`
	WebServers []wireWebServerMetrics `json:"webServers"`
}

func (w wireNodeMetricsAll) metrics() NodeMetricsAll {
	return NodeMetricsAll{
		Node:       w.Node.metrics(),
		WASServers: mapAll(w.WASServers, wireWASServerMetrics.metrics),
		WebServers: mapAll(w.WebServers, wireWebServerMetrics.metrics),
	}
}

// NodeMetricsList returns the metrics of every node (GET /meters/nodes). The list carries
// no network figures. The result is never nil.
func (c *Client) NodeMetricsList(ctx context.Context) ([]NodeMetrics, error) {
	return getList(ctx, c, "/meters/nodes", nil, "nodes", wireNodeMetrics.metrics)
}

// NodeMetrics returns the metrics of one node (GET /meters/nodes/{nodeName}/systems/{systemName}).
func (c *Client) NodeMetrics(ctx context.Context, systemName, nodeName string) (*NodeMetrics, error) {
	m, err := getOne(ctx, c, wireNodeMetrics.metrics, "/meters/nodes/{}/systems/{}", nodeName, systemName)
	if err == nil {
		*m = m.named(systemName, nodeName)
	}
	return m, err
}

// NodeMetricsAll returns the metrics of one node and of its WAS and web servers
// (GET /meters/nodes/{nodeName}/systems/{systemName}/all).
func (c *Client) NodeMetricsAll(ctx context.Context, systemName, nodeName string) (*NodeMetricsAll, error) {
	m, err := getOne(ctx, c, wireNodeMetricsAll.metrics, "/meters/nodes/{}/systems/{}/all", nodeName, systemName)
	if err == nil {
		m.Node = m.Node.named(systemName, nodeName)
	}
	return m, err
}

// WASServerMetrics returns the metrics of a WAS server
// (GET /meters/was/servers/{serverId}/nodes/{nodeName}/systems/{systemName}).
func (c *Client) WASServerMetrics(ctx context.Context, systemName, nodeName, serverID string) (*WASServerMetrics, error) {
	m, err := getOne(ctx, c, wireWASServerMetrics.metrics, "/meters/was/servers/{}/nodes/{}/systems/{}", serverID, nodeName, systemName)
	if err == nil {
		m.ServerID = cmp.Or(m.ServerID, serverID) // the path names it; a terse manager may not repeat it
	}
	return m, err
}

// WebServerMetrics returns the metrics of a web server
// (GET /meters/web/servers/{serverId}/nodes/{nodeName}/systems/{systemName}).
func (c *Client) WebServerMetrics(ctx context.Context, systemName, nodeName, serverID string) (*WebServerMetrics, error) {
	m, err := getOne(ctx, c, wireWebServerMetrics.metrics, "/meters/web/servers/{}/nodes/{}/systems/{}", serverID, nodeName, systemName)
	if err == nil {
		m.ServerID = cmp.Or(m.ServerID, serverID) // the path names it; a terse manager may not repeat it
	}
	return m, err
}

// SessionServerMetrics returns the metrics of a session server
// (GET /meters/session/servers/{serverId}/nodes/{nodeName}/systems/{systemName}).
func (c *Client) SessionServerMetrics(ctx context.Context, systemName, nodeName, serverID string) (*SessionServerMetrics, error) {
	m, err := getOne(ctx, c, wireSessionServerMetrics.metrics, "/meters/session/servers/{}/nodes/{}/systems/{}", serverID, nodeName, systemName)
	if err == nil {
		m.ServerID = cmp.Or(m.ServerID, serverID) // the path names it; a terse manager may not repeat it
	}
	return m, err
}

// WASContainerMetrics returns the metrics of a WAS container (GET /meters/was/container/{hostName}).
func (c *Client) WASContainerMetrics(ctx context.Context, hostName string) (*WASContainerMetrics, error) {
	m, err := getOne(ctx, c, wireWASContainerMetrics.metrics, "/meters/was/container/{}", hostName)
	if err == nil {
		m.HostName = cmp.Or(m.HostName, hostName) // the path names it; a terse manager may not repeat it
	}
	return m, err
}

// WebContainerMetrics returns the metrics of a web container (GET /meters/web/container/{hostName}).
func (c *Client) WebContainerMetrics(ctx context.Context, hostName string) (*WebContainerMetrics, error) {
	m, err := getOne(ctx, c, wireWebContainerMetrics.metrics, "/meters/web/container/{}", hostName)
	if err == nil {
		m.HostName = cmp.Or(m.HostName, hostName) // the path names it; a terse manager may not repeat it
	}
	return m, err
}
