package apmsim

import (
	"cmp"
	"hash/fnv"
	"math"
	"net/http"
	"slices"
	"strconv"
	"time"
)

// metersArea serves /meters (spec 4.8, bodies from api/decisions.md). Metrics are not stored: each
// value is a function of the measured entity and the minute of the sim's clock, so that
// they move over time, are the same for every request within one minute, and repeat
// exactly for the same world and clock. Every view of an entity (the node list, the node,
// the node's /all, the server itself) is computed by the same function, so they agree.
//
// Units: cpu and diskUsage in percent (0-100, one decimal); node memory, heap and
// container/session memory in MB; networkIn/networkOut and bytesIn/bytesOut in bytes per
// second; requestsPerSec with one decimal; gcCount and gcTime (ms) over the last minute.
type metersArea struct{ s *Sim }

func (a metersArea) register(r *router) {
	r.handle("GET /meters/nodes", a.nodes)
	r.handle("GET /meters/nodes/{nodeName}/systems/{systemName}", a.node)
	r.handle("GET /meters/nodes/{nodeName}/systems/{systemName}/all", a.nodeAll)
	r.handle("GET /meters/was/servers/{serverId}/nodes/{nodeName}/systems/{systemName}",
		a.server(serverKindWAS, func(id string, m meter) any { return wasMeters(id, m) }))
	r.handle("GET /meters/web/servers/{serverId}/nodes/{nodeName}/systems/{systemName}",
		a.server(serverKindWeb, func(id string, m meter) any { return webServerMetersJSON{id, webTraffic(m)} }))
	r.handle("GET /meters/session/servers/{serverId}/nodes/{nodeName}/systems/{systemName}",
		a.server(serverKindSession, func(id string, m meter) any { return sessionMeters(id, m) }))
	r.handle("GET /meters/was/container/{hostName}", a.container(containerKindWAS,
		func(host string, m meter) any { return wasContainerMeters(host, m) }))
	r.handle("GET /meters/web/container/{hostName}", a.container(containerKindWeb,
		func(host string, m meter) any { return webContainerMetersJSON{host, webTraffic(m)} }))
}

// nodeMetersJSON is an element of GET /meters/nodes (api/decisions.md). It names the
// node but not its system, so two nodes of the same name in different systems cannot be
// told apart there; the per-node path can.
type nodeMetersJSON struct {
	NodeName    string  `json:"nodeName"`
	CPU         float64 `json:"cpu"`
	MemoryUsed  int     `json:"memoryUsed"`
	MemoryTotal int     `json:"memoryTotal"`
	DiskUsage   float64 `json:"diskUsage"`
}

type nodeMetersDetailJSON struct {
	nodeMetersJSON
	NetworkIn  int `json:"networkIn"`
	NetworkOut int `json:"networkOut"`
}

type wasMetersJSON struct {
	ServerID     string `json:"serverId"`
	HeapUsed     int    `json:"heapUsed"`
	HeapMax      int    `json:"heapMax"`
	ThreadActive int    `json:"threadActive"`
	ThreadMax    int    `json:"threadMax"`
	GCCount      int    `json:"gcCount"`
	GCTime       int    `json:"gcTime"`
}

// wasSummaryJSON and webSummaryJSON are the server entries of a node's /all view.
type wasSummaryJSON struct {
	ServerID     string `json:"serverId"`
	HeapUsed     int    `json:"heapUsed"`
	HeapMax      int    `json:"heapMax"`
	ThreadActive int    `json:"threadActive"`
}

type webSummaryJSON struct {
	ServerID    string `json:"serverId"`
	Connections int    `json:"connections"`
}

type nodeAllJSON struct {
	Node       nodeMetersDetailJSON `json:"node"`
	WASServers []wasSummaryJSON     `json:"wasServers"`
	WebServers []webSummaryJSON     `json:"webServers"`
}

// webTrafficJSON is what web servers and web containers share (spec part 2).
type webTrafficJSON struct {
	Connections    int     `json:"connections"`
	RequestsPerSec float64 `json:"requestsPerSec"`
	BytesIn        int     `json:"bytesIn"`
	BytesOut       int     `json:"bytesOut"`
}

type webServerMetersJSON struct {
	ServerID string `json:"serverId"`
	webTrafficJSON
}

type webContainerMetersJSON struct {
	HostName string `json:"hostName"`
	webTrafficJSON
}

type sessionMetersJSON struct {
	ServerID       string `json:"serverId"`
	ActiveSessions int    `json:"activeSessions"`
	MemoryUsed     int    `json:"memoryUsed"`
	MemoryMax      int    `json:"memoryMax"`
}

type wasContainerMetersJSON struct {
	HostName    string  `json:"hostName"`
	CPU         float64 `json:"cpu"`
	MemoryUsed  int     `json:"memoryUsed"`
	MemoryMax   int     `json:"memoryMax"`
	ThreadCount int     `json:"threadCount"`
}

func (a metersArea) nodes(w http.ResponseWriter, r *http.Request) {
	answerRead(a.s, w, func(wd *world, now time.Time) (any, error) {
		out := make([]nodeMetersJSON, 0, len(wd.nodes))
		for _, n := range wd.sortedNodes() {
			out = append(out, measureNode(n, now).nodeMetersJSON)
		}
		return map[string]any{"nodes": out}, nil
	})
}

func (a metersArea) node(w http.ResponseWriter, r *http.Request) {
	answerRead(a.s, w, func(wd *world, now time.Time) (any, error) {
		n, err := nodeOfPath(wd, r)
		if err != nil {
			return nil, err
		}
		return measureNode(n, now), nil
	})
}

// nodeAll lists the node's WAS and web servers sorted by serverId. Session servers are not
// part of this view (api/decisions.md gives it only the two arrays).
func (a metersArea) nodeAll(w http.ResponseWriter, r *http.Request) {
	answerRead(a.s, w, func(wd *world, now time.Time) (any, error) {
		n, err := nodeOfPath(wd, r)
		if err != nil {
			return nil, err
		}
		out := nodeAllJSON{Node: measureNode(n, now), WASServers: []wasSummaryJSON{}, WebServers: []webSummaryJSON{}}
		for _, sv := range a.serversOn(wd, n) {
			m := serverMeter(n, sv, now)
			switch sv.ServerType {
			case serverKindWAS:
				full := wasMeters(sv.ServerID, m)
				out.WASServers = append(out.WASServers, wasSummaryJSON{full.ServerID, full.HeapUsed, full.HeapMax, full.ThreadActive})
			case serverKindWeb:
				out.WebServers = append(out.WebServers, webSummaryJSON{sv.ServerID, webTraffic(m).Connections})
			}
		}
		return out, nil
	})
}

// server answers the metrics of one server of kind on the path's node.
func (a metersArea) server(kind string, measure func(serverID string, m meter) any) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		answerRead(a.s, w, func(wd *world, now time.Time) (any, error) {
			n, err := nodeOfPath(wd, r)
			if err != nil {
				return nil, err
			}
			id := r.PathValue("serverId")
			for _, sv := range a.serversOn(wd, n) {
				if sv.ServerType == kind && sv.ServerID == id {
					return measure(id, serverMeter(n, sv, now)), nil
				}
			}
			return nil, notFound("Server not found: %s", id)
		})
	}
}

// container answers the metrics of the container whose serverName is the path's hostName.
func (a metersArea) container(kind string, measure func(hostName string, m meter) any) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		answerRead(a.s, w, func(wd *world, now time.Time) (any, error) {
			host := r.PathValue("hostName")
			if !containerExists(wd, kind, host) {
				return nil, notFound("Container not found: %s", host)
			}
			return measure(host, meter{entity: "container/" + kind + "/" + host, t: now, running: true}), nil
		})
	}
}

// serversOn is what the server areas run on n, sorted by serverId; the same source as the
// node detail's "servers".
func (a metersArea) serversOn(wd *world, n *node) []nodeServer {
	out := nodesArea(a).servers(wd, n)
	slices.SortFunc(out, func(x, y nodeServer) int { return cmp.Compare(x.ServerID, y.ServerID) })
	return out
}

// answerRead writes what fn computes from the world under the read lock, or fn's error.
// The clock is read once, so that every value of one answer is from the same minute.
func answerRead(s *Sim, w http.ResponseWriter, fn func(wd *world, now time.Time) (any, error)) {
	now := s.now()
	var out any
	var err error
	s.read(func(wd *world) { out, err = fn(wd, now) })
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// nodeOfPath resolves the {nodeName}/systems/{systemName} of a path, with the 404s of the
// other node and server paths.
func nodeOfPath(wd *world, r *http.Request) (*node, error) {
	return serverNode(wd, r.PathValue("systemName"), r.PathValue("nodeName"))
}

// meter reads the series of one measured entity at one time. A server that is not
// running has no load: its usage figures are 0 and only its capacities remain.
type meter struct {
	entity  string // e.g. "node/ND-0001", "server/was/ND-0002/was-01", "container/web/shop-web-0"
	t       time.Time
	running bool
}

// load is a value in [0, 1] of the series (entity, metric) at the meter's minute: a
// per-series level (0.2 to 0.6) plus a sine wave of amplitude 0.35 whose period (20 to 119
// minutes) and phase come from the series' hash, plus up to ±0.05 of per-minute noise.
// Series with a high level peak above 0.9, so thresholds at 90% are crossed now and then.
func (m meter) load(metric string) float64 {
	if !m.running {
		return 0
	}
	h := seriesHash(m.entity, metric)
	minute := m.t.Unix() / 60
	level := 0.2 + 0.4*unitOf(h)
	period := float64(20 + h%100)
	phase := 2 * math.Pi * unitOf(seriesHash(m.entity, metric, "phase"))
	noise := unitOf(seriesHash(m.entity, metric, strconv.FormatInt(minute, 10))) - 0.5
	v := level + 0.35*math.Sin(2*math.Pi*float64(minute)/period+phase) + 0.1*noise
	return min(max(v, 0), 1)
}

// pick chooses one of the capacities for the entity; it does not change over time.
func (m meter) pick(metric string, choices ...int) int {
	return choices[seriesHash(m.entity, metric)%uint64(len(choices))]
}

// seriesHash is FNV-1a over the parts, each terminated so that ("ab","c") != ("a","bc"),
// followed by the SplitMix64 finalizer: FNV alone barely changes its high bits between
// names that differ in one character ("ND-0001", "ND-0002"), and unitOf uses those bits.
func seriesHash(parts ...string) uint64 {
	h := fnv.New64a()
	for _, p := range parts {
		_, _ = h.Write([]byte(p))
		_, _ = h.Write([]byte{0})
	}
	x := h.Sum64()
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// unitOf maps a hash to [0, 1).
func unitOf(h uint64) float64 { return float64(h>>11) / (1 << 53) }

func round1(x float64) float64 { return math.Round(x*10) / 10 }

// scale is the integer part of max*f.
func scale(limit int, f float64) int { return int(float64(limit) * f) }

// measureNode computes a node's metrics at t. Nodes are keyed by nodeId, so a system
// rename does not change them.
func measureNode(n *node, t time.Time) nodeMetersDetailJSON {
	m := meter{entity: "node/" + n.ID, t: t, running: true}
	total := m.pick("memoryTotal", 8192, 16384, 32768)
	return nodeMetersDetailJSON{
		nodeMetersJSON: nodeMetersJSON{
			NodeName:    n.Name,
			CPU:         round1(1 + 98*m.load("cpu")),
			MemoryUsed:  scale(total, 0.1+0.88*m.load("memory")),
			MemoryTotal: total,
			DiskUsage:   round1(5 + 93*m.load("disk")),
		},
		NetworkIn:  scale(5_000_000, m.load("networkIn")),
		NetworkOut: scale(20_000_000, m.load("networkOut")),
	}
}

// serverMeter measures a server by kind, node and id; only a running server has load.
func serverMeter(n *node, sv nodeServer, t time.Time) meter {
	return meter{entity: "server/" + sv.ServerType + "/" + n.ID + "/" + sv.ServerID, t: t, running: sv.Status == "running"}
}

func wasMeters(id string, m meter) wasMetersJSON {
	out := wasMetersJSON{ServerID: id, HeapMax: m.pick("heapMax", 1024, 2048, 4096), ThreadMax: m.pick("threadMax", 200, 300, 500)}
	if !m.running {
		return out
	}
	out.HeapUsed = scale(out.HeapMax, 0.15+0.8*m.load("heap"))
	out.ThreadActive = 1 + scale(out.ThreadMax, 0.75*m.load("threads"))
	out.GCCount = scale(12, m.load("gc"))
	out.GCTime = out.GCCount * (15 + scale(85, m.load("gcPause")))
	return out
}

// webTraffic derives connections and bytes from the request rate, so that they move
// together: about 0.9 KB in and 8 to 20 KB out per request.
func webTraffic(m meter) webTrafficJSON {
	if !m.running {
		return webTrafficJSON{}
	}
	rps := round1(2 + 400*m.load("requests"))
	return webTrafficJSON{
		Connections:    int(rps/4) + scale(40, m.load("keepAlive")),
		RequestsPerSec: rps,
		BytesIn:        int(rps * 900),
		BytesOut:       int(rps * (8000 + 12000*m.load("responseSize"))),
	}
}

func sessionMeters(id string, m meter) sessionMetersJSON {
	out := sessionMetersJSON{ServerID: id, MemoryMax: m.pick("memoryMax", 512, 1024, 2048)}
	if !m.running {
		return out
	}
	l := m.load("sessions")
	out.ActiveSessions = scale(out.MemoryMax*3, l)
	out.MemoryUsed = scale(out.MemoryMax, 0.08+0.85*l)
	return out
}

func wasContainerMeters(host string, m meter) wasContainerMetersJSON {
	memMax := m.pick("memoryMax", 1024, 2048, 4096)
	return wasContainerMetersJSON{
		HostName:    host,
		CPU:         round1(1 + 98*m.load("cpu")),
		MemoryUsed:  scale(memMax, 0.2+0.75*m.load("memory")),
		MemoryMax:   memMax,
		ThreadCount: 20 + scale(230, m.load("threads")),
	}
}
