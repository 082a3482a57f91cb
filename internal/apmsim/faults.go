package apmsim

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Fault injection: rules that make the sim fail, slow down or drop connections on
// matching requests, so that clients can test their retries and timeouts. Off unless
// configured (Options.Faults, the --fault flag, or PUT /_apmsim/faults at run time).
//
// Rules are tried in order on every authenticated request (and on the public paths, which
// need no key) except the sim's own /_apmsim paths: a request with no or a wrong key gets
// its 401 without meeting any rule, so it cannot use up a rule's times. Each matching rule triggers with its rate; the latencies of triggered
// rules add up, and the first triggered rule with a status or a reset ends the evaluation
// and decides the answer. A request no rule answers goes on normally after the delay.
// An answer injected in place of the request keeps it from its route, so it is neither
// counted as a request of the route nor seen by the action trace log. A rule with
// after=true instead lets the request go on (authenticated, routed, counted and logged as
// usual) and then loses its real answer: the client gets the injected error or a reset,
// as when the manager did the work but its answer never came back. That is the case a
// client's retries must survive without doing the work twice.

// FaultRule is one fault injection rule. Its text form, read by ParseFaultRule and written
// by String, is
//
//	METHOD PATHGLOB [status=N] [rate=R] [latency=D] [reset=true] [after=true] [retryAfter=D] [times=N] [seed=N]
//
// for example "GET /rest/systems* status=503 rate=0.5", "* /meters/* latency=200ms" or
// "POST /rest/systems reset=true after=true" (the system is created, the answer is lost).
type FaultRule struct {
	Method string // an HTTP method, or "*" for any
	// Path is a glob on the request path: '*' matches any run of characters, '/' included
	// (so "/rest/*" covers everything below /rest), '?' matches one byte.
	Path       string
	Status     int           // answer with this status (400-599) and an "Injected fault" error body; 0: no answer
	Rate       float64       // probability (0 < rate <= 1) that a matching request triggers the rule; 0 means 1
	Latency    time.Duration // delay before the answer, or before the request goes on (at most 5 minutes)
	Reset      bool          // drop the connection without an answer (exclusive with Status)
	After      bool          // serve the request for real first, then lose its answer to Status or Reset (needs one)
	RetryAfter time.Duration // Retry-After of the answer, in whole seconds rounded up; 429 has 1 s by default
	Times      int           // the rule triggers at most this often; 0: no limit
	// Seed seeds the rule's own random generator, so that the same requests in the same
	// order meet the same faults; 0 means a seed derived from the rule's text.
	Seed uint64
}

// maxFaultLatency bounds a rule's latency: a longer stall is a hang, not a slow manager.
const maxFaultLatency = 5 * time.Minute

// injectedFaultMessage is the error text of every injected answer.
const injectedFaultMessage = "Injected fault"

// ParseFaultRule reads a rule in the text form described at FaultRule.
func ParseFaultRule(text string) (FaultRule, error) {
	r, err := parseFaultText(text)
	if err == nil {
		r.normalize()
		err = r.check()
	}
	if err != nil {
		return FaultRule{}, fmt.Errorf("fault rule %q: %w", text, err)
	}
	return r, nil
}

// parseFaultText reads the text form without applying defaults or checking the result.
func parseFaultText(text string) (FaultRule, error) {
	fields := strings.Fields(text)
	if len(fields) < 2 {
		return FaultRule{}, errors.New("want METHOD PATHGLOB [key=value ...]")
	}
	r := FaultRule{Method: fields[0], Path: fields[1]}
	for _, kv := range fields[2:] {
		if err := r.setOption(kv); err != nil {
			return FaultRule{}, err
		}
	}
	return r, nil
}

func (r *FaultRule) setOption(kv string) error {
	key, value, ok := strings.Cut(kv, "=")
	if !ok || value == "" {
		return fmt.Errorf("%q is not key=value", kv)
	}
	var err error
	switch key {
	case "status":
		r.Status, err = strconv.Atoi(value)
	case "rate":
		// Checked here, as 0 would otherwise read as "not set", which means 1.
		if r.Rate, err = strconv.ParseFloat(value, 64); err == nil && !validRate(r.Rate) {
			return errRate
		}
	case "latency":
		r.Latency, err = time.ParseDuration(value)
	case "reset":
		r.Reset, err = strconv.ParseBool(value)
	case "after":
		r.After, err = strconv.ParseBool(value)
	case "retryAfter":
		r.RetryAfter, err = time.ParseDuration(value)
	case "times":
		r.Times, err = strconv.Atoi(value)
	case "seed":
		r.Seed, err = strconv.ParseUint(value, 10, 64)
	default:
		return fmt.Errorf("unknown option %q (want status, rate, latency, reset, after, retryAfter, times or seed)", key)
	}
	if err != nil {
		return fmt.Errorf("bad value for %s: %q", key, value)
	}
	return nil
}

var errRate = errors.New("rate must be above 0 and at most 1")

func validRate(rate float64) bool { return rate > 0 && rate <= 1 } // false for NaN too

// normalize applies the defaults: the method in upper case, rate 1.
func (r *FaultRule) normalize() {
	r.Method = strings.ToUpper(r.Method)
	if r.Rate == 0 {
		r.Rate = 1
	}
}

// check validates a normalized rule.
func (r FaultRule) check() error {
	switch {
	case r.Method == "" || r.Method != "*" && strings.IndexFunc(r.Method, func(c rune) bool { return c < 'A' || c > 'Z' }) >= 0:
		return fmt.Errorf("method %q must be an HTTP method or *", r.Method)
	case r.Path == "" || (r.Path[0] != '/' && r.Path[0] != '*'):
		return fmt.Errorf("path %q must start with / or *", r.Path)
	case r.Status != 0 && (r.Status < 400 || r.Status > 599):
		return fmt.Errorf("status %d must be between 400 and 599", r.Status)
	case !validRate(r.Rate):
		return errRate
	case r.Latency < 0 || r.Latency > maxFaultLatency:
		return fmt.Errorf("latency must be between 0 and %s", maxFaultLatency)
	case r.Reset && r.Status != 0:
		return errors.New("status and reset exclude each other")
	case r.After && r.Status == 0 && !r.Reset:
		return errors.New("after needs a status or reset to answer with")
	case r.Status == 0 && !r.Reset && r.Latency == 0:
		return errors.New("the rule does nothing: set status, reset or latency")
	case r.RetryAfter < 0 || (r.RetryAfter > 0 && r.Status == 0):
		return errors.New("retryAfter needs a status and must not be negative")
	case r.Times < 0:
		return errors.New("times must not be negative")
	}
	return nil
}

// String is the rule's text form with the options that differ from their defaults.
func (r FaultRule) String() string {
	var b strings.Builder
	b.WriteString(r.Method + " " + r.Path)
	opt := func(cond bool, key, value string) {
		if cond {
			b.WriteString(" " + key + "=" + value)
		}
	}
	opt(r.Status != 0, "status", strconv.Itoa(r.Status))
	opt(r.Rate != 0 && r.Rate != 1, "rate", strconv.FormatFloat(r.Rate, 'g', -1, 64))
	opt(r.Latency != 0, "latency", r.Latency.String())
	opt(r.Reset, "reset", "true")
	opt(r.After, "after", "true")
	opt(r.RetryAfter != 0, "retryAfter", r.RetryAfter.String())
	opt(r.Times != 0, "times", strconv.Itoa(r.Times))
	opt(r.Seed != 0, "seed", strconv.FormatUint(r.Seed, 10))
	return b.String()
}

// SetFaults replaces the fault rules (none: faults off), as PUT /_apmsim/faults does.
func (s *Sim) SetFaults(rules ...FaultRule) error {
	for _, ar := range s.areaList {
		if f, ok := ar.(faultsArea); ok {
			return f.st.replace(rules)
		}
	}
	return errors.New("apmsim: no faults area")
}

// faultsArea injects the faults (requestInterceptor) and serves /_apmsim/faults. Its
// rules are run-time settings, not part of the world: they are not saved in the state
// file and take their own lock, so a slow rule never holds up the world.
type faultsArea struct {
	s  *Sim
	st *faultSet
}

func newFaultsArea(s *Sim) faultsArea { return faultsArea{s: s, st: &faultSet{}} }

type faultSet struct {
	mu    sync.Mutex
	rules []*activeFault
}

// activeFault is a rule in use with its generator and counters.
type activeFault struct {
	FaultRule
	rng     *rand.Rand
	matched int64 // requests the rule matched
	fired   int64 // of those, requests on which it triggered
}

// replace validates every rule, then swaps them all in with fresh generators and counters.
func (fs *faultSet) replace(rules []FaultRule) error {
	active := make([]*activeFault, 0, len(rules))
	for i, r := range rules {
		r.normalize()
		if err := r.check(); err != nil {
			return fmt.Errorf("fault rule %d (%s): %w", i+1, r, err)
		}
		seed := r.Seed
		if seed == 0 {
			seed = seriesHash("fault", r.String())
		}
		active = append(active, &activeFault{FaultRule: r, rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))})
	}
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fs.rules = active
	return nil
}

// faultPlan is what the rules decided for one request.
type faultPlan struct {
	latency time.Duration
	answer  *FaultRule // the rule whose status or reset answers; nil: the request goes on
}

// plan evaluates the rules for one request under the lock, so that the draws of
// concurrent requests do not interleave within a generator.
func (fs *faultSet) plan(method, path string) faultPlan {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	var p faultPlan
	for _, f := range fs.rules {
		if (f.Method != "*" && f.Method != method) || !globMatch(f.Path, path) {
			continue
		}
		f.matched++
		if (f.Times > 0 && f.fired >= int64(f.Times)) || f.rng.Float64() >= f.Rate {
			continue
		}
		f.fired++
		p.latency += f.Latency
		if f.Status != 0 || f.Reset {
			r := f.FaultRule
			p.answer = &r
			break
		}
	}
	return p
}

// intercept waits out the latency, then answers the request in its place, or passes it
// on and answers afterwards (after=true), or passes it on untouched.
func (a faultsArea) intercept(w http.ResponseWriter, r *http.Request, next http.Handler) {
	p := a.st.plan(r.Method, r.URL.Path)
	if !sleep(r.Context(), p.latency) {
		return // the client gave up: there is nobody left to answer
	}
	if p.answer == nil {
		next.ServeHTTP(w, r)
		return
	}
	if p.answer.After {
		// The world changes, but the real answer goes to a recorder nobody reads; w is left
		// untouched, so not even a header of the real answer reaches the client.
		next.ServeHTTP(&headerRecorder{header: http.Header{}}, r)
	}
	if p.answer.Reset {
		dropConnection(w)
		return
	}
	writeFault(w, *p.answer)
}

// sleep waits for d and reports whether it did, false when ctx ended first.
func sleep(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// dropConnection closes the connection without an answer, with a TCP reset where it can.
// Where the connection cannot be taken over (HTTP/2), aborting the handler resets the
// stream instead.
func dropConnection(w http.ResponseWriter) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	raw := conn
	if tc, ok := conn.(interface{ NetConn() net.Conn }); ok {
		raw = tc.NetConn() // TLS: reset the TCP connection underneath
	}
	if tcp, ok := raw.(*net.TCPConn); ok {
		_ = tcp.SetLinger(0) // close with RST rather than FIN
	}
	_ = raw.Close()
}

// faultCodes are the error codes of injected statuses; the sim's own codes where it has
// them, else the status text in upper snake case.
var faultCodes = map[int]string{
	http.StatusBadRequest:          codeBadRequest,
	http.StatusUnauthorized:        codeUnauthorized,
	http.StatusForbidden:           codeForbidden,
	http.StatusNotFound:            codeNotFound,
	http.StatusConflict:            codeConflict,
	http.StatusInternalServerError: codeInternal,
}

func faultCode(status int) string {
	if c, ok := faultCodes[status]; ok {
		return c
	}
	if text := http.StatusText(status); text != "" {
		return strings.ToUpper(strings.NewReplacer(" ", "_", "-", "_", "'", "").Replace(text))
	}
	return "ERROR"
}

func writeFault(w http.ResponseWriter, r FaultRule) {
	retryAfter := r.RetryAfter
	if retryAfter == 0 && r.Status == http.StatusTooManyRequests {
		retryAfter = time.Second
	}
	if retryAfter > 0 {
		w.Header().Set("Retry-After", strconv.FormatInt(int64((retryAfter+time.Second-1)/time.Second), 10))
	}
	writeError(w, r.Status, faultCode(r.Status), injectedFaultMessage)
}

// globMatch reports whether s matches pattern, where '*' matches any run of bytes ('/'
// included) and '?' any one byte. It backtracks only to the last '*', so it runs in
// O(len(pattern)*len(s)) at worst.
func globMatch(pattern, s string) bool {
	p, i := 0, 0
	star, mark := -1, 0
	for i < len(s) {
		switch {
		case p < len(pattern) && pattern[p] == '*':
			star, mark = p, i
			p++
		case p < len(pattern) && (pattern[p] == '?' || pattern[p] == s[i]):
			p++
			i++
		case star >= 0:
			mark++
			p, i = star+1, mark
		default:
			return false
		}
	}
	for p < len(pattern) && pattern[p] == '*' {
		p++
	}
	return p == len(pattern)
}

// The admin paths: GET shows the rules with their counters, PUT replaces them all (and
// resets generators and counters), DELETE removes them all.

func (a faultsArea) register(r *router) {
	r.handleAdmin("GET /_apmsim/faults", a.show)
	r.handleAdmin("PUT /_apmsim/faults", a.put)
	r.handleAdmin("DELETE /_apmsim/faults", a.clear)
}

// faultRuleJSON is a rule in the admin paths; durations are Go duration strings ("200ms").
type faultRuleJSON struct {
	Rule       string  `json:"rule"` // the text form; only in answers
	Method     string  `json:"method"`
	Path       string  `json:"path"`
	Status     int     `json:"status,omitempty"`
	Rate       float64 `json:"rate,omitempty"`
	Latency    string  `json:"latency,omitempty"`
	Reset      bool    `json:"reset,omitempty"`
	After      bool    `json:"after,omitempty"`
	RetryAfter string  `json:"retryAfter,omitempty"`
	Times      int     `json:"times,omitempty"`
	Seed       uint64  `json:"seed,omitempty"`
	Matched    int64   `json:"matched"` // only in answers
	Fired      int64   `json:"fired"`   // only in answers
}

func (j faultRuleJSON) rule() (FaultRule, error) {
	r := FaultRule{Method: j.Method, Path: j.Path, Status: j.Status, Rate: j.Rate, Reset: j.Reset, After: j.After, Times: j.Times, Seed: j.Seed}
	var err error
	if r.Latency, err = optionalDuration("latency", j.Latency); err != nil {
		return r, err
	}
	r.RetryAfter, err = optionalDuration("retryAfter", j.RetryAfter)
	return r, err
}

func optionalDuration(name, s string) (time.Duration, error) {
	if s == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("%s %q is not a duration such as 250ms or 2s", name, s)
	}
	return d, nil
}

func (fs *faultSet) snapshot() []faultRuleJSON {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	out := make([]faultRuleJSON, 0, len(fs.rules))
	for _, f := range fs.rules {
		out = append(out, faultRuleJSON{
			Rule: f.String(), Method: f.Method, Path: f.Path, Status: f.Status, Rate: f.Rate,
			Latency: durationText(f.Latency), Reset: f.Reset, After: f.After, RetryAfter: durationText(f.RetryAfter),
			Times: f.Times, Seed: f.Seed, Matched: f.matched, Fired: f.fired,
		})
	}
	return out
}

func durationText(d time.Duration) string {
	if d == 0 {
		return ""
	}
	return d.String()
}

func (a faultsArea) show(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"faults": a.st.snapshot()})
}

// put takes {"faults": [...]}, each rule an object or a string in the text form.
func (a faultsArea) put(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Faults []json.RawMessage `json:"faults"`
	}
	if err := decodeBody(r, &body); err != nil {
		writeErr(w, err)
		return
	}
	rules := make([]FaultRule, 0, len(body.Faults))
	for i, raw := range body.Faults {
		rule, err := decodeFaultRule(raw)
		if err != nil {
			writeErr(w, badRequest("fault rule %d: %v", i+1, err))
			return
		}
		rules = append(rules, rule)
	}
	if err := a.st.replace(rules); err != nil {
		writeErr(w, badRequest("%v", err))
		return
	}
	a.show(w, r)
}

func decodeFaultRule(raw json.RawMessage) (FaultRule, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '"' {
		var text string
		if err := json.Unmarshal(raw, &text); err != nil {
			return FaultRule{}, err
		}
		return parseFaultText(text)
	}
	var j faultRuleJSON
	if err := json.Unmarshal(raw, &j); err != nil {
		return FaultRule{}, errors.New("a rule must be an object or a string")
	}
	return j.rule()
}

func (a faultsArea) clear(w http.ResponseWriter, r *http.Request) {
	_ = a.st.replace(nil)
	a.show(w, r)
}
