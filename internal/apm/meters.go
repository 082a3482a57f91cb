package apm

import (
	"context"
)

// Real-time metrics (spec 4.8; response bodies from gaps.md). The spec gives no units; the
// client passes the manager's numbers through unchanged. The emulator's units (percent for
// cpu and diskUsage, MB for memory and heap, bytes per second for network and web traffic,
// per-minute GC figures) are listed in its README.

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

type wireWebContainerMetrics struct {
	HostName flexString `json:"hostName"`
	wireWebTraffic
}

type wireSessionServerMetrics struct {
	ServerID       flexString `json:"serverId"`
	ActiveSessions flexInt    `json:"activeSessions"`
	MemoryUsed     flexInt    `json:"memoryUsed"`
	MemoryMax      flexInt    `json:"memoryMax"`
}

type wireWASContainerMetrics struct {
	HostName    flexString `json:"hostName"`
	CPU         flexFloat  `json:"cpu"`
	MemoryUsed  flexInt    `json:"memoryUsed"`
	MemoryMax   flexInt    `json:"memoryMax"`
	ThreadCount flexInt    `json:"threadCount"`
}

type wireNodeMetricsAll struct {
	Node       wireNodeMetrics        `json:"node"`
	WASServers []wireWASServerMetrics `json:"wasServers"`
	WebServers []wireWebServerMetrics `json:"webServers"`
}

// getMetrics reads one metrics object from pattern filled with segments.
func getMetrics[W any](ctx context.Context, c *Client, pattern string, segments ...string) (*W, error) {
	path, err := buildPath(pattern, segments...)
	if err != nil {
		return nil, err
	}
	w := new(W)
	if err := c.get(ctx, path, nil, w); err != nil {
		return nil, err
	}
	return w, nil
}

// orPath returns got, or the name the path gave when the manager left it out.
func orPath(got flexString, fromPath string) string {
	if got == "" {
		return fromPath
	}
	return string(got)
}

// NodeMetricsList returns the metrics of every node (GET /meters/nodes). The list carries
// no network figures. The result is never nil.
func (c *Client) NodeMetricsList(ctx context.Context) ([]NodeMetrics, error) {
	list := newList[wireNodeMetrics]("nodes")
	if err := c.get(ctx, "/meters/nodes", nil, list); err != nil {
		return nil, err
	}
	out := make([]NodeMetrics, 0, len(list.Items))
	for _, w := range list.Items {
		out = append(out, w.metrics())
	}
	return out, nil
}

// NodeMetrics returns the metrics of one node (GET /meters/nodes/{nodeName}/systems/{systemName}).
func (c *Client) NodeMetrics(ctx context.Context, systemName, nodeName string) (*NodeMetrics, error) {
	w, err := getMetrics[wireNodeMetrics](ctx, c, "/meters/nodes/{}/systems/{}", nodeName, systemName)
	if err != nil {
		return nil, err
	}
	m := w.metrics().named(systemName, nodeName)
	return &m, nil
}

// NodeMetricsAll returns the metrics of one node and of its WAS and web servers
// (GET /meters/nodes/{nodeName}/systems/{systemName}/all).
func (c *Client) NodeMetricsAll(ctx context.Context, systemName, nodeName string) (*NodeMetricsAll, error) {
	w, err := getMetrics[wireNodeMetricsAll](ctx, c, "/meters/nodes/{}/systems/{}/all", nodeName, systemName)
	if err != nil {
		return nil, err
	}
	out := &NodeMetricsAll{
		Node:       w.Node.metrics().named(systemName, nodeName),
		WASServers: make([]WASServerMetrics, 0, len(w.WASServers)),
		WebServers: make([]WebServerMetrics, 0, len(w.WebServers)),
	}
	for _, s := range w.WASServers {
		out.WASServers = append(out.WASServers, s.metrics())
	}
	for _, s := range w.WebServers {
		out.WebServers = append(out.WebServers, WebServerMetrics{ServerID: string(s.ServerID), WebTraffic: s.traffic()})
	}
	return out, nil
}

// WASServerMetrics returns the metrics of a WAS server
// (GET /meters/was/servers/{serverId}/nodes/{nodeName}/systems/{systemName}).
func (c *Client) WASServerMetrics(ctx context.Context, systemName, nodeName, serverID string) (*WASServerMetrics, error) {
	w, err := getMetrics[wireWASServerMetrics](ctx, c, "/meters/was/servers/{}/nodes/{}/systems/{}", serverID, nodeName, systemName)
	if err != nil {
		return nil, err
	}
	m := w.metrics()
	m.ServerID = orPath(w.ServerID, serverID)
	return &m, nil
}

// WebServerMetrics returns the metrics of a web server
// (GET /meters/web/servers/{serverId}/nodes/{nodeName}/systems/{systemName}).
func (c *Client) WebServerMetrics(ctx context.Context, systemName, nodeName, serverID string) (*WebServerMetrics, error) {
	w, err := getMetrics[wireWebServerMetrics](ctx, c, "/meters/web/servers/{}/nodes/{}/systems/{}", serverID, nodeName, systemName)
	if err != nil {
		return nil, err
	}
	return &WebServerMetrics{ServerID: orPath(w.ServerID, serverID), WebTraffic: w.traffic()}, nil
}

// SessionServerMetrics returns the metrics of a session server
// (GET /meters/session/servers/{serverId}/nodes/{nodeName}/systems/{systemName}).
func (c *Client) SessionServerMetrics(ctx context.Context, systemName, nodeName, serverID string) (*SessionServerMetrics, error) {
	w, err := getMetrics[wireSessionServerMetrics](ctx, c, "/meters/session/servers/{}/nodes/{}/systems/{}", serverID, nodeName, systemName)
	if err != nil {
		return nil, err
	}
	return &SessionServerMetrics{
		ServerID:       orPath(w.ServerID, serverID),
		ActiveSessions: int64(w.ActiveSessions),
		MemoryUsed:     int64(w.MemoryUsed),
		MemoryMax:      int64(w.MemoryMax),
	}, nil
}

// WASContainerMetrics returns the metrics of a WAS container (GET /meters/was/container/{hostName}).
func (c *Client) WASContainerMetrics(ctx context.Context, hostName string) (*WASContainerMetrics, error) {
	w, err := getMetrics[wireWASContainerMetrics](ctx, c, "/meters/was/container/{}", hostName)
	if err != nil {
		return nil, err
	}
	return &WASContainerMetrics{
		HostName:    orPath(w.HostName, hostName),
		CPU:         float64(w.CPU),
		MemoryUsed:  int64(w.MemoryUsed),
		MemoryMax:   int64(w.MemoryMax),
		ThreadCount: int64(w.ThreadCount),
	}, nil
}

// WebContainerMetrics returns the metrics of a web container (GET /meters/web/container/{hostName}).
func (c *Client) WebContainerMetrics(ctx context.Context, hostName string) (*WebContainerMetrics, error) {
	w, err := getMetrics[wireWebContainerMetrics](ctx, c, "/meters/web/container/{}", hostName)
	if err != nil {
		return nil, err
	}
	return &WebContainerMetrics{HostName: orPath(w.HostName, hostName), WebTraffic: w.traffic()}, nil
}
