package apmsim

import "net/http"

// simAdminArea serves /_apmsim, the sim's own paths outside the spec, for
// the admin key only. Tests in other processes (the demo, shell scripts)
// use them to see which API calls a client made.
type simAdminArea struct{ s *Sim }

func (a simAdminArea) register(r *router) {
	r.handleAdmin("GET /_apmsim/requests", a.counts)
	r.handleAdmin("DELETE /_apmsim/requests", a.reset)
}

func (a simAdminArea) counts(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"requests": a.s.RequestCounts()})
}

func (a simAdminArea) reset(w http.ResponseWriter, r *http.Request) {
	a.s.ResetRequestCounts()
	writeJSON(w, http.StatusOK, map[string]any{"requests": map[string]int{}})
}
