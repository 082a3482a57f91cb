package apmsim

import "net/http"

// area is one part of the API: it registers its routes on the router.
// An area is a small struct holding the *Sim, in a file of its own.
//
// To add an area, write the file and add one line to areas below. If the
// area keeps state, give it a slot with newExtKey (world.go); if it
// relates to systems or nodes, implement the optional hooks below instead
// of changing systems.go or nodes.go.
type area interface {
	register(r *router)
}

// areas lists every area of the sim, in the order their seeders run.
func (s *Sim) areas() []area {
	return []area{
		systemsArea{s},
		nodesArea{s},
		resourcesArea{s},
		serversArea{s}, // after resources: its demo seed attaches a demo datasource
		adminArea{s},
		traceLogArea{s},
		publicArea{s},
		simAdminArea{s},
		metersArea{s},
		licensesArea{s},
		containersArea{s},
		notificationsArea{s}, // before events: events seed notifications after the node ones
		eventsArea{s},
		newFaultsArea(s),
	}
}

// Optional hooks an area may implement. The core calls them with the
// world lock held (read lock for the read-only ones, write lock for the
// rest); they must not call Sim.read or Sim.update themselves.

// seeder adds the area's part of a named seed ("demo", ...) to a fresh
// world. Seeders run in the order of areas, so later areas can rely on
// the systems and nodes seeded before them.
type seeder interface {
	seed(w *world, seed string)
}

// nodeServerLister lists what the area runs on a node (WAS, web and
// session servers) for the node detail's "servers" array.
type nodeServerLister interface {
	nodeServers(w *world, n *node) []nodeServer
}

// systemCounter adds the area's servers to a system's counts
// (webCount, appCount, sessionCount, cacheCount).
type systemCounter interface {
	countSystem(w *world, sys *system, c *systemCounts)
}

// nodeDeleteGuard may refuse the deletion of a node, e.g. while servers
// still run on it; the returned error (usually a conflict) is the response.
type nodeDeleteGuard interface {
	checkNodeDelete(w *world, n *node) error
}

// nodeServer is one element of the node detail's "servers" array.
type nodeServer struct {
	ServerID   string `json:"serverId"`
	ServerType string `json:"serverType"`
	Status     string `json:"status"`
}

// systemCounts are the per-system server counts other areas contribute.
type systemCounts struct {
	Web, App, Session, Cache int
}

// Server kinds as the node detail's "servers" array reports them in serverType, shared by
// the servers area (which runs them) and the meters area (which measures them).
const (
	serverKindWAS     = "was"
	serverKindWeb     = "web"
	serverKindSession = "session"
)

// simEvent is something that happened in the manager that other areas may record, such
// as a node registered or a server started. Areas publish events with Sim.publish.
type simEvent struct {
	Severity string // "INFO", "WARNING" or "CRITICAL"
	Target   string // name of the node or server concerned
	Message  string
}

// eventRecorder records published events (the notifications area turns them into
// notifications). Called with the write lock held.
type eventRecorder interface {
	recordEvent(w *world, ev simEvent)
}

// publish hands ev to every area that records events. The caller holds the write lock.
func (s *Sim) publish(w *world, ev simEvent) {
	for _, ar := range s.areaList {
		if r, ok := ar.(eventRecorder); ok {
			r.recordEvent(w, ev)
		}
	}
}

// writeRecord describes one write request after it was answered.
type writeRecord struct {
	Actor  string // "admin" or "viewer": which key acted; never the key itself
	Method string
	Path   string // without query
	Status int
	// Refused is set when the answer was a 200 {"actionResult":"N"}: the manager declined
	// the write (api/rest-interface.md: N means the operation failed).
	Refused bool
}

// writeObserver sees every authenticated write request (the admin area keeps the action
// trace log with it). Called without any lock held, after the response was written.
type writeObserver interface {
	observeWrite(rec writeRecord)
}

// datasourceRegistry tells whether a datasource resource exists (the resources area);
// the WAS area checks it before attaching a datasource. Called with a lock held.
type datasourceRegistry interface {
	hasDatasource(w *world, name string) bool
}

// datasourceExists asks the areas that keep datasources. The caller holds a lock.
func (s *Sim) datasourceExists(w *world, name string) bool {
	for _, ar := range s.areaList {
		if r, ok := ar.(datasourceRegistry); ok && r.hasDatasource(w, name) {
			return true
		}
	}
	return false
}

// datasourceHolder names what a datasource is attached to (the WAS area: its servers);
// the resources area refuses to delete a datasource that is still attached, so that no
// server is left with the name of a datasource that no longer exists. Each holder is
// named for a message, such as "was-1 (app-01/shop)". Called with a lock held.
type datasourceHolder interface {
	datasourceHolders(w *world, name string) []string
}

// datasourceHolders asks every area that attaches datasources; the names come in area
// order, each area's sorted. The caller holds a lock.
func (s *Sim) datasourceHolders(w *world, name string) []string {
	var out []string
	for _, ar := range s.areaList {
		if h, ok := ar.(datasourceHolder); ok {
			out = append(out, h.datasourceHolders(w, name)...)
		}
	}
	return out
}

// requestInterceptor sees a request after authentication (a request with no or a wrong
// key never reaches it) and before routing (the faults area injects errors, latency,
// connection resets and lost answers this way). It answers the request itself, passes it
// on to next (which routes and serves it), or
// passes it on with a writer of its own and then answers in place of next. Called without
// any lock held.
type requestInterceptor interface {
	intercept(w http.ResponseWriter, r *http.Request, next http.Handler)
}
