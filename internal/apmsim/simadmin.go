package apmsim

import (
	"net/http"
	"slices"
)

// simAdminArea serves /_apmsim, the sim's own paths outside the spec, for
// the admin key only. Tests in other processes (the demo, shell scripts)
// use them to see which API calls a client made.
type simAdminArea struct{ s *Sim }

func (a simAdminArea) register(r *router) {
	r.handleAdmin("GET /_apmsim/requests", a.counts)
	r.handleAdmin("DELETE /_apmsim/requests", a.reset)
	r.handleAdmin("PUT /_apmsim/start-failures/{kind}", a.startFailures)
}

// startFailuresBody says which servers of a kind fail their starts from now on (fail
// true) or start again (fail false), as "<serverId>@<nodeName>/<systemName>".
type startFailuresBody struct {
	Servers []string `json:"servers"`
	Fail    bool     `json:"fail"`
}

// startFailures is Sim.FailStarts for tests in other processes.
func (a simAdminArea) startFailures(w http.ResponseWriter, r *http.Request) {
	var body startFailuresBody
	if err := decodeBody(r, &body); err != nil {
		writeErr(w, err)
		return
	}
	kind := r.PathValue("kind")
	if !slices.ContainsFunc(serverKindSpecs, func(k *serverKindSpec) bool { return k.name == kind }) {
		writeErr(w, badRequest("Invalid kind: %s (allowed: was, web, session)", kind))
		return
	}
	if err := a.s.FailStarts(kind, body.Fail, body.Servers...); err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, body)
}

func (a simAdminArea) counts(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"requests": a.s.RequestCounts()})
}

func (a simAdminArea) reset(w http.ResponseWriter, r *http.Request) {
	a.s.ResetRequestCounts()
	writeJSON(w, http.StatusOK, map[string]any{"requests": map[string]int{}})
}
