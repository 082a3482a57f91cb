package apmsim

import (
	"bytes"
	"crypto/subtle"
	"encoding/json"
	"fmt"
	"net/http"
	"path"
	"strings"
	"sync/atomic"
)

// role is what an API key may do.
type role int

const (
	roleNone   role = iota // no or unknown key
	roleViewer             // reads only
	roleAdmin              // everything
)

// publicPrefix is the one path family that needs no key (spec 4.1, 5.4).
const publicPrefix = "/rest/public"

// router wraps an http.ServeMux (Go 1.22 method patterns) and adds what
// every route shares: authentication, the viewer's read-only rule, JSON
// 404/405 bodies, panic recovery and per-route request counts.
//
// The order of checks is 401 (bad key), then the injected faults, then 404/405
// (no such route), then 403 (viewer writes), then the handler: a caller without
// a key learns nothing about which paths exist nor meets a fault, and an
// authenticated viewer gets a precise 404/405 before being told it may not write.
type router struct {
	sim *Sim
	mux *http.ServeMux
	// counts is filled while areas register and read-only afterwards, so
	// the hot path needs no lock: only the atomic counter is touched.
	counts map[string]*atomic.Int64
	// intercepted is serve wrapped in the areas that intercept requests.
	intercepted http.Handler
}

// newRouter needs s.areaList, as it chains the areas that intercept requests.
func newRouter(s *Sim) *router {
	rt := &router{sim: s, mux: http.NewServeMux(), counts: map[string]*atomic.Int64{}}
	rt.intercepted = rt.chainInterceptors(http.HandlerFunc(rt.serve))
	return rt
}

// chainInterceptors wraps h in every area that intercepts requests (fault injection), the
// first area outermost, so that an interceptor that passes a request on hands it to the
// next one and the last hands it to h.
func (rt *router) chainInterceptors(h http.Handler) http.Handler {
	for i := len(rt.sim.areaList) - 1; i >= 0; i-- {
		if ic, ok := rt.sim.areaList[i].(requestInterceptor); ok {
			next := h
			h = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { ic.intercept(w, r, next) })
		}
	}
	return h
}

// handle registers an API route. pattern is a ServeMux pattern with a
// method, e.g. "GET /rest/systems/{systemName}"; it is also the key of
// the route's request count.
func (rt *router) handle(pattern string, h http.HandlerFunc) {
	c := new(atomic.Int64)
	rt.counts[pattern] = c
	rt.mux.Handle(pattern, recoverJSON(func(w http.ResponseWriter, r *http.Request) {
		c.Add(1)
		h(w, r)
	}))
}

// handleAdmin registers a route of the sim itself (outside the spec): it is
// for the admin key only, whatever the method, and is not counted, so that
// reading the counts does not change them.
func (rt *router) handleAdmin(pattern string, h http.HandlerFunc) {
	rt.mux.Handle(pattern, recoverJSON(func(w http.ResponseWriter, r *http.Request) {
		if rt.sim.roleOf(r.URL.Query().Get("key")) != roleAdmin {
			writeError(w, http.StatusForbidden, codeForbidden, "Access denied")
			return
		}
		h(w, r)
	}))
}

// ServeHTTP authenticates first: a caller without a valid key gets its 401 and nothing
// else, so in shared CI it can neither see an injected fault, nor wait out its latency,
// nor use up a rule's times=N meant for the tests. Then it offers the request to the
// interceptors; the sim's own /_apmsim paths are never intercepted, so faults can always
// be switched off again.
func (rt *router) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if rt.roleFor(r) == roleNone {
		writeError(w, http.StatusUnauthorized, codeUnauthorized, "Unauthorized")
		return
	}
	if isSimPath(r.URL.Path) {
		rt.serve(w, r)
		return
	}
	rt.intercepted.ServeHTTP(w, r)
}

// serve authenticates, routes and answers a request, and hands writes to the observers.
func (rt *router) serve(w http.ResponseWriter, r *http.Request) {
	if !isAuditedWrite(r) {
		rt.dispatch(w, r)
		return
	}
	sw := &statusWriter{ResponseWriter: w}
	role := rt.dispatch(sw, r)
	rt.observeWrite(writeRecord{Actor: role.String(), Method: r.Method, Path: r.URL.Path, Status: sw.status, Refused: sw.refused})
}

// isSimPath reports whether p is one of the sim's own /_apmsim paths.
func isSimPath(p string) bool {
	return strings.HasPrefix(path.Clean(p), "/_apmsim")
}

// isAuditedWrite tells which requests the action trace log sees: writes to the
// management API, not reads, not the public paths and not the sim's own paths.
func isAuditedWrite(r *http.Request) bool {
	if r.Method == http.MethodGet || r.Method == http.MethodHead || isPublic(r.URL.Path) {
		return false
	}
	return !isSimPath(r.URL.Path)
}

// observeWrite hands a finished write to every area that observes writes.
func (rt *router) observeWrite(rec writeRecord) {
	for _, ar := range rt.sim.areaList {
		if o, ok := ar.(writeObserver); ok {
			o.observeWrite(rec)
		}
	}
}

// roleFor is the role of the request's key; roleAdmin stands for "no check needed" on
// the public paths, which ignore the key.
func (rt *router) roleFor(r *http.Request) role {
	if isPublic(r.URL.Path) {
		return roleAdmin
	}
	return rt.sim.roleOf(r.URL.Query().Get("key"))
}

// dispatch routes one request that ServeHTTP has authenticated and returns the caller's
// role.
func (rt *router) dispatch(w http.ResponseWriter, r *http.Request) role {
	role := rt.roleFor(r)
	// ServeMux would redirect a path like "/rest//systems" to its clean
	// form; a real manager need not, so such a path is a client bug the
	// tests should see: 404.
	if p := r.URL.Path; p != path.Clean(p) {
		writeError(w, http.StatusNotFound, codeNotFound, "Not found: "+p)
		return role
	}
	// ServeMux does not expose its 404/405 decision, so look the route up
	// first and answer misses ourselves with JSON; hits are dispatched by
	// the mux again so that it sets the path values.
	if h, pattern := rt.mux.Handler(r); pattern == "" {
		rt.unmatched(w, r, h)
		return role
	}
	if role == roleViewer && r.Method != http.MethodGet && r.Method != http.MethodHead {
		writeError(w, http.StatusForbidden, codeForbidden, "Access denied")
		return role
	}
	rt.mux.ServeHTTP(w, r)
	return role
}

// String names a role in the action trace log.
func (r role) String() string {
	switch r {
	case roleAdmin:
		return "admin"
	case roleViewer:
		return "viewer"
	default:
		return "anonymous"
	}
}

// statusWriter remembers the status a handler answered with, and whether the answer was
// a refusal: 200 with {"actionResult":"N"}. Answers are written in one piece (writeJSON),
// so the first Write holds the whole body.
type statusWriter struct {
	http.ResponseWriter
	status  int
	wrote   bool
	refused bool
}

func (s *statusWriter) WriteHeader(status int) {
	if s.status == 0 {
		s.status = status
	}
	s.ResponseWriter.WriteHeader(status)
}

func (s *statusWriter) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	if !s.wrote {
		s.wrote = true
		s.refused = s.status == http.StatusOK && isRefusal(b)
	}
	return s.ResponseWriter.Write(b)
}

// isRefusal reports whether body is an ActionResult with actionResult N.
func isRefusal(body []byte) bool {
	if !bytes.Contains(body, []byte(`"actionResult"`)) {
		return false
	}
	var ar struct {
		Result string `json:"actionResult"`
	}
	return json.Unmarshal(body, &ar) == nil && ar.Result == "N"
}

// unmatched answers a request no route matched: 405 when the path exists
// with other methods, else 404. The mux's own answer (run into a recorder)
// tells which, and carries the Allow header.
func (rt *router) unmatched(w http.ResponseWriter, r *http.Request, muxHandler http.Handler) {
	rec := &headerRecorder{header: http.Header{}}
	muxHandler.ServeHTTP(rec, r)
	if rec.status == http.StatusMethodNotAllowed {
		w.Header().Set("Allow", rec.header.Get("Allow"))
		writeError(w, http.StatusMethodNotAllowed, codeMethodNotAllowed,
			fmt.Sprintf("Method not allowed: %s %s", r.Method, r.URL.Path))
		return
	}
	writeError(w, http.StatusNotFound, codeNotFound, "Not found: "+r.URL.Path)
}

// isPublic reports whether p is under /rest/public. The path is cleaned
// first so that "/rest/public/../systems" is not mistaken for public.
func isPublic(p string) bool {
	p = path.Clean(p)
	return p == publicPrefix || strings.HasPrefix(p, publicPrefix+"/")
}

// roleOf maps an API key to its role. Comparisons are constant-time so
// that response timing does not leak key prefixes.
func (s *Sim) roleOf(key string) role {
	if key == "" {
		return roleNone
	}
	if subtle.ConstantTimeCompare([]byte(key), []byte(s.adminKey)) == 1 {
		return roleAdmin
	}
	if s.viewerKey != "" && subtle.ConstantTimeCompare([]byte(key), []byte(s.viewerKey)) == 1 {
		return roleViewer
	}
	return roleNone
}

// recoverJSON turns a handler panic into a JSON 500 instead of a dropped
// connection, so that a sim bug shows up as a readable test failure.
func recoverJSON(h http.HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				writeError(w, http.StatusInternalServerError, codeInternal, fmt.Sprintf("internal error: %v", v))
			}
		}()
		h(w, r)
	})
}

// requestCounts returns the non-zero counts by route pattern.
func (rt *router) requestCounts() map[string]int {
	out := map[string]int{}
	for p, c := range rt.counts {
		if n := c.Load(); n > 0 {
			out[p] = int(n)
		}
	}
	return out
}

func (rt *router) resetRequestCounts() {
	for _, c := range rt.counts {
		c.Store(0)
	}
}

// headerRecorder takes an answer nobody will see, keeping only its status
// and headers and dropping the body: the mux's own 404/405 answer, and the
// real answer of a request a fault rule with after=true answers instead.
type headerRecorder struct {
	header http.Header
	status int
}

func (h *headerRecorder) Header() http.Header { return h.header }

func (h *headerRecorder) WriteHeader(status int) {
	if h.status == 0 {
		h.status = status
	}
}

func (h *headerRecorder) Write(b []byte) (int, error) {
	h.WriteHeader(http.StatusOK)
	return len(b), nil
}
