package apmsim

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
		publicArea{s},
		simAdminArea{s},
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
