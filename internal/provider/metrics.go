package provider

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
)

// Real-time metrics (spec 4.8): read-only data sources, one per path of the manager. The
// values are what the manager reports at the time of the read; they change from one read
// to the next. The spec gives no units; the descriptions state the manager's (apmsim's
// README lists them).

const (
	cpuDescription        = "CPU usage, in percent (0–100)."
	diskUsageDescription  = "Disk usage, in percent (0–100)."
	memoryUsedDescription = "Memory in use, in MB."
)

// Node metrics.

var nodeMetricsListFields = []engine.Field[apm.NodeMetrics]{
	engine.StringField(attrNodeName, "Name of the node.", func(m *apm.NodeMetrics) string { return m.NodeName }),
	engine.Float64Field(attrCPU, cpuDescription, func(m *apm.NodeMetrics) float64 { return m.CPU }),
	engine.Int64Field(attrMemoryUsed, memoryUsedDescription, func(m *apm.NodeMetrics) int64 { return m.MemoryUsed }),
	engine.Int64Field(attrMemoryTotal, "Memory of the node, in MB.", func(m *apm.NodeMetrics) int64 { return m.MemoryTotal }),
	engine.Float64Field(attrDiskUsage, diskUsageDescription, func(m *apm.NodeMetrics) float64 { return m.DiskUsage }),
}

var newNodesMetricsDataSource = engine.NewListDataSource(listDataSourceType[apm.NodeMetrics]{
	Name: "nodes_metrics",
	Description: "Reads the current metrics of every node the manager manages (`GET /meters/nodes`), sorted by node name. " +
		"The manager's list names nodes but not their systems, and has no network figures: `apm_node_metrics` has them.",
	ListName:        "nodes",
	ListDescription: "The metrics of each node.",
	Fields:          nodeMetricsListFields,
	List: func(ctx context.Context, c *conn, _ engine.Attrs) ([]apm.NodeMetrics, error) {
		nodes, err := c.NodeMetricsList(ctx)
		if err != nil {
			return nil, err
		}
		slices.SortStableFunc(nodes, func(a, b apm.NodeMetrics) int { return strings.Compare(a.NodeName, b.NodeName) })
		return nodes, nil
	},
})

// nodeMetricsObject is a node's metrics, with its servers' when include_servers is true
// (all is nil otherwise).
type nodeMetricsObject struct {
	apm.NodeMetrics
	all *apm.NodeMetricsAll
}

var wasServerSummaryFields = []engine.Field[apm.WASServerMetrics]{
	engine.StringField(attrServerID, "The manager's `serverId` of the WAS server.", func(m *apm.WASServerMetrics) string { return m.ServerID }),
	engine.Int64Field(attrHeapUsed, "JVM heap in use, in MB.", func(m *apm.WASServerMetrics) int64 { return m.HeapUsed }),
	engine.Int64Field(attrHeapMax, "Maximum JVM heap, in MB.", func(m *apm.WASServerMetrics) int64 { return m.HeapMax }),
	engine.Int64Field(attrThreadActive, "Active threads (a count).", func(m *apm.WASServerMetrics) int64 { return m.ThreadActive }),
}

var webServerSummaryFields = []engine.Field[apm.WebServerMetrics]{
	engine.StringField(attrServerID, "The manager's `serverId` of the web server.", func(m *apm.WebServerMetrics) string { return m.ServerID }),
	engine.Int64Field(attrConnections, "Open connections (a count).", func(m *apm.WebServerMetrics) int64 { return m.Connections }),
}

// serversList is a list of the node's servers, null when include_servers is not true.
func serversList[E any](name, description string, items []engine.Field[E], get func(*apm.NodeMetricsAll) []E) engine.Field[nodeMetricsObject] {
	return engine.ListField(name, description, items, func(o *nodeMetricsObject) []E { return get(o.all) }).
		NullWhen(func(o *nodeMetricsObject) bool { return o.all == nil })
}

var nodeMetricsFields = []engine.Field[nodeMetricsObject]{
	engine.StringField(attrSystemName, "Name of the node's system.", func(m *nodeMetricsObject) string { return m.SystemName }).
		Validate(systemNameValidators()...),
	engine.StringField(attrNodeName, "Name of the node.", func(m *nodeMetricsObject) string { return m.NodeName }).
		Validate(nodeNameValidators()...),
	engine.Float64Field(attrCPU, cpuDescription, func(m *nodeMetricsObject) float64 { return m.CPU }),
	engine.Int64Field(attrMemoryUsed, memoryUsedDescription, func(m *nodeMetricsObject) int64 { return m.MemoryUsed }),
	engine.Int64Field(attrMemoryTotal, "Memory of the node, in MB.", func(m *nodeMetricsObject) int64 { return m.MemoryTotal }),
	engine.Float64Field(attrDiskUsage, diskUsageDescription, func(m *nodeMetricsObject) float64 { return m.DiskUsage }),
	engine.Float64Field(attrNetworkIn, "Incoming network traffic, in bytes per second.", func(m *nodeMetricsObject) float64 { return m.NetworkIn }),
	engine.Float64Field(attrNetworkOut, "Outgoing network traffic, in bytes per second.", func(m *nodeMetricsObject) float64 { return m.NetworkOut }),
	serversList("was_servers", "The node's WAS servers, sorted by server id, when `include_servers` is `true` (null otherwise).",
		wasServerSummaryFields, func(a *apm.NodeMetricsAll) []apm.WASServerMetrics { return a.WASServers }),
	serversList("web_servers", "The node's web servers, sorted by server id, when `include_servers` is `true` (null otherwise).",
		webServerSummaryFields, func(a *apm.NodeMetricsAll) []apm.WebServerMetrics { return a.WebServers }),
}

var newNodeMetricsDataSource = engine.NewDataSource(dataSourceType[nodeMetricsObject]{
	Name: "node_metrics",
	Description: "Reads the current metrics of one node (`GET /meters/nodes/{nodeName}/systems/{systemName}`), and with " +
		"`include_servers = true` those of its WAS and web servers too (`.../all`, one request). " +
		"Naming a system or node that does not exist is an error.",
	Fields: nodeMetricsFields,
	Keys:   []string{attrSystemName, attrNodeName},
	Args: map[string]dschema.Attribute{
		attrIncludeServers: dschema.BoolAttribute{
			MarkdownDescription: "Whether to read the metrics of the node's WAS and web servers too, into `was_servers` and " +
				"`web_servers` (session servers are not part of them). Defaults to `false`.",
			Optional: true,
		},
	},
	Read: readNodeMetrics,
})

func readNodeMetrics(ctx context.Context, c *conn, config engine.Attrs) (*nodeMetricsObject, error) {
	systemName, nodeName := config.Str(attrSystemName), config.Str(attrNodeName)
	var include bool
	if v := config[attrIncludeServers]; v.IsKnown() && !v.IsNull() {
		if err := v.As(&include); err != nil {
			return nil, fmt.Errorf("include_servers: %w", err)
		}
	}
	if !include {
		n, err := c.NodeMetrics(ctx, systemName, nodeName)
		if err != nil {
			return nil, err
		}
		return &nodeMetricsObject{NodeMetrics: *n}, nil
	}
	all, err := c.NodeMetricsAll(ctx, systemName, nodeName)
	if err != nil {
		return nil, err
	}
	slices.SortStableFunc(all.WASServers, func(a, b apm.WASServerMetrics) int { return strings.Compare(a.ServerID, b.ServerID) })
	slices.SortStableFunc(all.WebServers, func(a, b apm.WebServerMetrics) int { return strings.Compare(a.ServerID, b.ServerID) })
	return &nodeMetricsObject{NodeMetrics: all.Node, all: all}, nil
}

// Server metrics: a server is found by its system, node and id, as in the manager's paths.

// serverMetrics is the metrics M of a server, with the names that found it.
type serverMetrics[M any] struct {
	SystemName, NodeName, ServerID string
	M                              M
}

// serverKeyFields are the lookup keys of a server's metrics.
func serverKeyFields[M any](kind string) []engine.Field[serverMetrics[M]] {
	return []engine.Field[serverMetrics[M]]{
		engine.StringField(attrSystemName, "Name of the server's system.", func(s *serverMetrics[M]) string { return s.SystemName }).
			Validate(systemNameValidators()...),
		engine.StringField(attrNodeName, "Name of the server's node.", func(s *serverMetrics[M]) string { return s.NodeName }).
			Validate(nodeNameValidators()...),
		engine.StringField(attrServerID, "The manager's `serverId` of the "+kind+" server.", func(s *serverMetrics[M]) string { return s.ServerID }).
			Validate(serverIDValidators()...),
	}
}

// serverMetricsDataSource declares the metrics data source of one server kind.
func serverMetricsDataSource[M any](kind, path string, fields []engine.Field[serverMetrics[M]],
	read func(ctx context.Context, c *conn, systemName, nodeName, serverID string) (*M, error),
) func() datasource.DataSource {
	return engine.NewDataSource(dataSourceType[serverMetrics[M]]{
		Name: strings.ToLower(kind) + "_server_metrics",
		Description: "Reads the current metrics of one " + kind + " server (`GET " + path + "`). A stopped server carries no load. " +
			"Naming a system, node or server that does not exist (or a server of another kind) is an error.",
		Fields: append(serverKeyFields[M](kind), fields...),
		Keys:   []string{attrSystemName, attrNodeName, attrServerID},
		Read: func(ctx context.Context, c *conn, config engine.Attrs) (*serverMetrics[M], error) {
			s := serverMetrics[M]{SystemName: config.Str(attrSystemName), NodeName: config.Str(attrNodeName), ServerID: config.Str(attrServerID)}
			v, err := read(ctx, c, s.SystemName, s.NodeName, s.ServerID)
			if err != nil {
				return nil, err
			}
			s.M = *v
			return &s, nil
		},
	})
}

type wasServerMetrics = serverMetrics[apm.WASServerMetrics]

var newWASServerMetricsDataSource = serverMetricsDataSource("WAS", "/meters/was/servers/{serverId}/nodes/{nodeName}/systems/{systemName}",
	[]engine.Field[wasServerMetrics]{
		engine.Int64Field(attrHeapUsed, "JVM heap in use, in MB.", func(s *wasServerMetrics) int64 { return s.M.HeapUsed }),
		engine.Int64Field(attrHeapMax, "Maximum JVM heap, in MB.", func(s *wasServerMetrics) int64 { return s.M.HeapMax }),
		engine.Int64Field(attrThreadActive, "Active threads (a count).", func(s *wasServerMetrics) int64 { return s.M.ThreadActive }),
		engine.Int64Field(attrThreadMax, "Maximum threads (a count).", func(s *wasServerMetrics) int64 { return s.M.ThreadMax }),
		engine.Int64Field(attrGCCount, "Garbage collections over the last minute (a count).", func(s *wasServerMetrics) int64 { return s.M.GCCount }),
		engine.Int64Field(attrGCTime, "Time spent in garbage collection over the last minute, in milliseconds.",
			func(s *wasServerMetrics) int64 { return s.M.GCTime }),
	},
	func(ctx context.Context, c *conn, systemName, nodeName, serverID string) (*apm.WASServerMetrics, error) {
		return c.WASServerMetrics(ctx, systemName, nodeName, serverID)
	})

// webTrafficFields are the metrics of web servers and web containers.
func webTrafficFields[T any](traffic func(*T) *apm.WebTraffic) []engine.Field[T] {
	return []engine.Field[T]{
		engine.Int64Field(attrConnections, "Open connections (a count).", func(o *T) int64 { return traffic(o).Connections }),
		engine.Float64Field(attrRequestsPerSec, "Requests, in requests per second.", func(o *T) float64 { return traffic(o).RequestsPerSec }),
		engine.Int64Field(attrBytesIn, "Incoming traffic, in bytes per second.", func(o *T) int64 { return traffic(o).BytesIn }),
		engine.Int64Field(attrBytesOut, "Outgoing traffic, in bytes per second.", func(o *T) int64 { return traffic(o).BytesOut }),
	}
}

type webServerMetrics = serverMetrics[apm.WebServerMetrics]

var newWebServerMetricsDataSource = serverMetricsDataSource("web", "/meters/web/servers/{serverId}/nodes/{nodeName}/systems/{systemName}",
	webTrafficFields(func(s *webServerMetrics) *apm.WebTraffic { return &s.M.WebTraffic }),
	func(ctx context.Context, c *conn, systemName, nodeName, serverID string) (*apm.WebServerMetrics, error) {
		return c.WebServerMetrics(ctx, systemName, nodeName, serverID)
	})

type sessionServerMetrics = serverMetrics[apm.SessionServerMetrics]

var newSessionServerMetricsDataSource = serverMetricsDataSource("session", "/meters/session/servers/{serverId}/nodes/{nodeName}/systems/{systemName}",
	[]engine.Field[sessionServerMetrics]{
		engine.Int64Field(attrActiveSessions, "Active sessions (a count).", func(s *sessionServerMetrics) int64 { return s.M.ActiveSessions }),
		engine.Int64Field(attrMemoryUsed, memoryUsedDescription, func(s *sessionServerMetrics) int64 { return s.M.MemoryUsed }),
		engine.Int64Field(attrMemoryMax, "Maximum memory, in MB.", func(s *sessionServerMetrics) int64 { return s.M.MemoryMax }),
	},
	func(ctx context.Context, c *conn, systemName, nodeName, serverID string) (*apm.SessionServerMetrics, error) {
		return c.SessionServerMetrics(ctx, systemName, nodeName, serverID)
	})

// Container metrics: a container is found by its host name, the server_name of
// apm_container_servers.

func hostNameField[T any](get func(*T) string) engine.Field[T] {
	return engine.StringField(attrHostName, "Host name of the container: the `server_name` of its server in `apm_container_servers`.", get)
}

var newWASContainerMetricsDataSource = engine.NewDataSource(dataSourceType[apm.WASContainerMetrics]{
	Name: "was_container_metrics",
	Description: "Reads the current metrics of one WAS container (`GET /meters/was/container/{hostName}`). " +
		"Naming a host that is no WAS container is an error.",
	Fields: []engine.Field[apm.WASContainerMetrics]{
		hostNameField(func(c *apm.WASContainerMetrics) string { return c.HostName }),
		engine.Float64Field(attrCPU, cpuDescription, func(c *apm.WASContainerMetrics) float64 { return c.CPU }),
		engine.Int64Field(attrMemoryUsed, memoryUsedDescription, func(c *apm.WASContainerMetrics) int64 { return c.MemoryUsed }),
		engine.Int64Field(attrMemoryMax, "Maximum memory, in MB.", func(c *apm.WASContainerMetrics) int64 { return c.MemoryMax }),
		engine.Int64Field(attrThreadCount, "Threads (a count).", func(c *apm.WASContainerMetrics) int64 { return c.ThreadCount }),
	},
	Keys: []string{attrHostName},
	Read: func(ctx context.Context, c *conn, config engine.Attrs) (*apm.WASContainerMetrics, error) {
		return c.WASContainerMetrics(ctx, config.Str(attrHostName))
	},
})

var newWebContainerMetricsDataSource = engine.NewDataSource(dataSourceType[apm.WebContainerMetrics]{
	Name: "web_container_metrics",
	Description: "Reads the current metrics of one web container (`GET /meters/web/container/{hostName}`). " +
		"Naming a host that is no web container is an error.",
	Fields: append([]engine.Field[apm.WebContainerMetrics]{hostNameField(func(c *apm.WebContainerMetrics) string { return c.HostName })},
		webTrafficFields(func(c *apm.WebContainerMetrics) *apm.WebTraffic { return &c.WebTraffic })...),
	Keys: []string{attrHostName},
	Read: func(ctx context.Context, c *conn, config engine.Attrs) (*apm.WebContainerMetrics, error) {
		return c.WebContainerMetrics(ctx, config.Str(attrHostName))
	},
})
