package apmsim

import (
	"net/http"
	"time"
)

// systemsArea serves /rest/systems (spec 4.6).
type systemsArea struct{ s *Sim }

func (a systemsArea) register(r *router) {
	r.handle("GET /rest/systems", a.list)
	r.handle("GET /rest/systems/{systemName}", a.get)
	r.handle("POST /rest/systems", a.create)
	r.handle("PUT /rest/systems/{systemName}", a.rename)
	r.handle("DELETE /rest/systems/{systemName}", a.delete)
}

// systemJSON is an element of the system list (api/rest-interface.md part 2).
type systemJSON struct {
	SystemID     string `json:"systemId"`
	SystemName   string `json:"systemName"`
	NodeCount    int    `json:"nodeCount"`
	WebCount     int    `json:"webCount"`
	AppCount     int    `json:"appCount"`
	SessionCount int    `json:"sessionCount"`
	CacheCount   int    `json:"cacheCount"`
}

// systemDetailJSON is the detail as api/decisions.md gives it: no counts, which a
// client that needs them reads from the list.
type systemDetailJSON struct {
	SystemID   string           `json:"systemId"`
	SystemName string           `json:"systemName"`
	Nodes      []systemNodeJSON `json:"nodes"`
}

type systemNodeJSON struct {
	NodeName string `json:"nodeName"`
	HostIP   string `json:"hostIp"`
	Status   string `json:"status"`
}

type systemNameBody struct {
	SystemName string `json:"systemName"`
}

func (a systemsArea) list(w http.ResponseWriter, r *http.Request) {
	var out []systemJSON
	a.s.read(func(wd *world) {
		nodeCounts := map[string]int{}
		for _, n := range wd.nodes {
			nodeCounts[n.SystemID]++
		}
		out = make([]systemJSON, 0, len(wd.systems))
		for _, sys := range wd.sortedSystems() {
			out = append(out, a.summary(wd, sys, nodeCounts[sys.ID]))
		}
	})
	writeJSON(w, http.StatusOK, map[string]any{"systems": out})
}

func (a systemsArea) get(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("systemName")
	var out systemDetailJSON
	var err error
	a.s.read(func(wd *world) {
		sys := wd.systemByName(name)
		if sys == nil {
			err = notFound("System not found: %s", name)
			return
		}
		nodes := wd.nodesOf(sys.ID)
		out = systemDetailJSON{SystemID: sys.ID, SystemName: sys.Name}
		out.Nodes = make([]systemNodeJSON, 0, len(nodes))
		for _, n := range nodes {
			out.Nodes = append(out.Nodes, systemNodeJSON{NodeName: n.Name, HostIP: n.HostIP, Status: n.Status})
		}
	})
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// summary builds a system's list entry; the server counts come from the
// areas that implement systemCounter.
func (a systemsArea) summary(wd *world, sys *system, nodeCount int) systemJSON {
	var c systemCounts
	for _, ar := range a.s.areaList {
		if sc, ok := ar.(systemCounter); ok {
			sc.countSystem(wd, sys, &c)
		}
	}
	return systemJSON{
		SystemID: sys.ID, SystemName: sys.Name, NodeCount: nodeCount,
		WebCount: c.Web, AppCount: c.App, SessionCount: c.Session, CacheCount: c.Cache,
	}
}

// checkSystemNameBody validates the body of create and rename.
func checkSystemNameBody(b systemNameBody) error {
	if b.SystemName == "" {
		return badRequest("systemName is required")
	}
	return validSystemName(b.SystemName)
}

func (a systemsArea) create(w http.ResponseWriter, r *http.Request) {
	var body systemNameBody
	if err := decodeBody(r, &body); err != nil {
		writeErr(w, err)
		return
	}
	if err := checkSystemNameBody(body); err != nil {
		writeErr(w, err)
		return
	}
	err := a.s.update(func(wd *world) error {
		if wd.systemByName(body.SystemName) != nil {
			return conflict("System already exists: %s", body.SystemName)
		}
		wd.addSystem(body.SystemName, a.s.now())
		return nil
	})
	answer(w, err)
}

// rename changes a system's name. Its ID stays, and since nodes refer to
// the system by ID they move to the new name with it.
func (a systemsArea) rename(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("systemName")
	var body systemNameBody
	if err := decodeBody(r, &body); err != nil {
		writeErr(w, err)
		return
	}
	if err := checkSystemNameBody(body); err != nil {
		writeErr(w, err)
		return
	}
	err := a.s.update(func(wd *world) error {
		sys := wd.systemByName(name)
		if sys == nil {
			return notFound("System not found: %s", name)
		}
		if other := wd.systemByName(body.SystemName); other != nil && other != sys {
			return conflict("System already exists: %s", body.SystemName)
		}
		sys.Name = body.SystemName
		return nil
	})
	answer(w, err)
}

// delete removes an empty system. One that still has nodes is refused
// rather than cascading, as scale-in must remove them explicitly.
func (a systemsArea) delete(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("systemName")
	err := a.s.update(func(wd *world) error {
		sys := wd.systemByName(name)
		if sys == nil {
			return notFound("System not found: %s", name)
		}
		if n := len(wd.nodesOf(sys.ID)); n > 0 {
			return conflict("System %s still has %d node(s); delete them first", name, n)
		}
		delete(wd.systems, sys.ID)
		return nil
	})
	answer(w, err)
}

// seed adds the demo systems: "shop" (nodes come from nodesArea) and the
// empty "batch".
func (a systemsArea) seed(wd *world, seed string) {
	if seed != SeedDemo {
		return
	}
	wd.addSystem("shop", a.s.now())
	wd.addSystem("batch", a.s.now())
}

func (wd *world) addSystem(name string, now time.Time) {
	sys := &system{ID: wd.nextID("SYS"), Name: name, CreatedAt: now.UTC()}
	wd.systems[sys.ID] = sys
}
