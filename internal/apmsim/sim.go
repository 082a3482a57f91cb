package apmsim

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"time"
)

// Options configures a Sim.
type Options struct {
	AdminKey  string           // key with role admin (everything); required
	ViewerKey string           // key with role viewer (reads only); optional
	Seed      string           // "empty" (default) or "demo"
	StateFile string           // if set: loaded at start when it exists, saved after every successful change
	Clock     func() time.Time // default time.Now; for deterministic tests
	// TransitionDelay is how long a server stays "starting" or "stopping" before it is
	// "running" or "stopped"; 0 means DefaultTransitionDelay, negative means no delay.
	TransitionDelay time.Duration
	// Faults are fault injection rules, off when empty; see FaultRule and SetFaults.
	Faults []FaultRule
	// OmitOptionalFields makes a terse manager: answers leave out every field that
	// api/decisions.md calls optional or an assumption (node detail nodeId, WAS
	// sessionCluster and datasources, web workers, uris and sslEnabled, the message of
	// actionResult N), and a node's id is its name. Clients must cope with both kinds of
	// manager; see README.md.
	OmitOptionalFields bool
}

// DefaultTransitionDelay keeps servers briefly in their transitional states, long enough
// for a client to see them and short enough not to slow tests down.
const DefaultTransitionDelay = 200 * time.Millisecond

// Sim is the simulated manager. It is safe for concurrent use.
type Sim struct {
	adminKey  string
	viewerKey string
	stateFile string
	now       func() time.Time
	// transitionDelay is Options.TransitionDelay resolved: 0 means none.
	transitionDelay time.Duration
	omitOptional    bool // Options.OmitOptionalFields

	mu sync.RWMutex // guards w
	w  *world

	areaList []area
	router   *router
}

// New builds a Sim. When opts.StateFile names an existing file, the world
// is loaded from it and opts.Seed is ignored; otherwise the seed is applied.
// Either way a configured state file is written out at once (see saveAtStart).
func New(opts Options) (*Sim, error) {
	return newSim(opts)
}

// newSim is New with extra areas, made from the Sim like the built-in
// ones; tests use it to plug in fake areas that exercise the hooks.
func newSim(opts Options, extra ...func(*Sim) area) (*Sim, error) {
	if opts.AdminKey == "" {
		return nil, errors.New("apmsim: AdminKey is required")
	}
	if opts.ViewerKey == opts.AdminKey {
		return nil, errors.New("apmsim: ViewerKey must differ from AdminKey")
	}
	s := &Sim{
		adminKey:     opts.AdminKey,
		viewerKey:    opts.ViewerKey,
		stateFile:    opts.StateFile,
		now:          opts.Clock,
		omitOptional: opts.OmitOptionalFields,
	}
	if s.now == nil {
		s.now = time.Now
	}
	switch {
	case opts.TransitionDelay == 0:
		s.transitionDelay = DefaultTransitionDelay
	case opts.TransitionDelay > 0:
		s.transitionDelay = opts.TransitionDelay
	}
	s.areaList = s.areas()
	for _, mk := range extra {
		s.areaList = append(s.areaList, mk(s))
	}
	if err := s.SetFaults(opts.Faults...); err != nil {
		return nil, fmt.Errorf("apmsim: %w", err)
	}
	if err := s.initWorld(opts.Seed); err != nil {
		return nil, err
	}
	s.router = newRouter(s)
	for _, a := range s.areaList {
		a.register(s.router)
	}
	return s, nil
}

func (s *Sim) initWorld(seed string) error {
	if err := checkSeed(seed); err != nil {
		return err
	}
	if s.stateFile != "" {
		w, found, err := loadState(s.stateFile)
		if err != nil {
			return fmt.Errorf("apmsim: %w", err)
		}
		if found {
			s.w = w
			return s.saveAtStart()
		}
	}
	s.w = newWorld()
	s.applySeed(s.w, seed)
	return s.saveAtStart()
}

// saveAtStart writes the state file at once: a new world, so that an unwritable path
// fails here rather than on the first change, and a loaded one, so that what loading
// migrated (an older version's unsalted password fingerprints) replaces the old file.
func (s *Sim) saveAtStart() error {
	if err := s.save(); err != nil {
		return fmt.Errorf("apmsim: %w", err)
	}
	return nil
}

// Handler returns the HTTP handler serving the whole API.
func (s *Sim) Handler() http.Handler { return s.router }

// RequestCounts returns how many requests each route has handled since the
// start or the last reset, keyed by route pattern, e.g.
// "GET /rest/systems/{systemName}". Routes with no requests are absent.
// Only requests that passed authentication and reached the route count.
func (s *Sim) RequestCounts() map[string]int { return s.router.requestCounts() }

// ResetRequestCounts sets every request count to zero.
func (s *Sim) ResetRequestCounts() { s.router.resetRequestCounts() }

// read runs fn with the world under the read lock. fn must not modify w
// and should copy out what it needs: the response is written after the
// lock is released.
func (s *Sim) read(fn func(w *world)) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	fn(s.w)
}

// update runs fn with the world under the write lock and saves the state
// file when fn succeeds. fn must check everything before it changes
// anything: an error return leaves the world as fn found it only if fn
// has not modified it yet.
//
// If saving fails the change stays in memory and the error (a 500) is
// returned: the sim keeps serving, the file is merely behind.
func (s *Sim) update(fn func(w *world) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := fn(s.w); err != nil {
		return err
	}
	if err := s.save(); err != nil {
		return fmt.Errorf("saving state: %w", err)
	}
	return nil
}

// save writes the world to the state file, if any. The caller holds the
// write lock (or is New), so saves happen in the order of the changes.
func (s *Sim) save() error {
	if s.stateFile == "" {
		return nil
	}
	data, err := encodeWorld(s.w)
	if err != nil {
		return err
	}
	return writeFileAtomic(s.stateFile, data)
}

// Routes returns the route pattern of every API endpoint the sim serves, sorted, e.g.
// "GET /rest/systems/{systemName}"; the sim's own /_apmsim paths are not included.
func (s *Sim) Routes() []string {
	out := make([]string, 0, len(s.router.counts))
	for p := range s.router.counts {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}
