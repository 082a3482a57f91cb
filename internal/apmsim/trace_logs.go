package apmsim

import (
	"net/http"
	"net/url"
	"strings"
	"time"
)

// traceLogArea keeps the action trace log (GET /rest/admin/actionTraceLogList, spec 4.7):
// one entry per authenticated write request, seen through the writeObserver hook.
type traceLogArea struct{ s *Sim }

var traceLogState = newExtKey[traceLogData]("traceLog")

// traceLogData holds the newest entries, oldest first. LastID survives the trimming, so
// logIds are never reused.
type traceLogData struct {
	LastID  int64           `json:"lastId"`
	Entries []traceLogEntry `json:"entries"`
}

type traceLogEntry struct {
	LogID      int64  `json:"logId"`
	UserID     string `json:"userId"`
	Action     string `json:"action"`
	TargetName string `json:"targetName"`
	Result     string `json:"result"`
	CreatedAt  string `json:"createdAt"` // yyyy-MM-dd HH:mm:ss, the manager's local time
}

const (
	// maxTraceLogEntries bounds the log so that a long-running sim does not grow without
	// limit; the oldest entries are dropped first.
	maxTraceLogEntries = 10000
	traceTimeLayout    = "2006-01-02 15:04:05"
	traceQueryLayout   = "20060102"
	traceResultOK      = "SUCCESS"
	traceResultFailed  = "FAILURE"
)

func (a traceLogArea) register(r *router) {
	r.handle("GET /rest/admin/actionTraceLogList", a.list)
}

// add appends e with the next logId and drops the oldest entries beyond limit. Re-slicing
// keeps this O(1) amortised; append moves the entries to a fresh array when the old one is
// used up, which releases the dropped ones.
func (d *traceLogData) add(e traceLogEntry, limit int) {
	d.LastID++
	e.LogID = d.LastID
	d.Entries = append(d.Entries, e)
	if over := len(d.Entries) - limit; over > 0 {
		d.Entries = d.Entries[over:]
	}
}

// observeWrite records one write. It is called without a lock, after the response was
// written. The entry's time is taken under the write lock, so that logIds and times
// increase together.
func (a traceLogArea) observeWrite(rec writeRecord) {
	e := traceLogEntry{
		UserID:     rec.Actor,
		Action:     rec.Method + " " + rec.Path,
		TargetName: a.target(rec.Method, rec.Path),
		Result:     traceResult(rec.Status, rec.Refused),
	}
	// A failed save is not the request's failure (it was answered already); the entry
	// stays in memory and the next successful save writes it.
	_ = a.s.update(func(wd *world) error {
		e.CreatedAt = a.s.now().Format(traceTimeLayout)
		traceLogState.of(wd).add(e, maxTraceLogEntries)
		return nil
	})
}

// traceResult maps an answer to the log's result: SUCCESS for 2xx, FAILURE otherwise and
// for a refusal, a 200 {"actionResult":"N"}, which the spec calls a failed operation. A
// handler that wrote nothing answered 200.
func traceResult(status int, refused bool) string {
	if !refused && (status == 0 || status >= 200 && status < 300) {
		return traceResultOK
	}
	return traceResultFailed
}

// target names the object a write was about: the first path parameter of the route the
// path matches (serverId, nodeId, resourceName, usrId, authId, systemName). Writes to a
// collection, or to no route at all, are named by the path without its /rest prefix.
func (a traceLogArea) target(method, path string) string {
	segs := strings.Split(path, "/")
	best, bestLiterals := "", -1
	for _, route := range a.s.Routes() { // sorted, so ties resolve the same way every time
		value, literals, ok := matchRoute(route, method, segs)
		if ok && literals > bestLiterals {
			best, bestLiterals = value, literals
		}
	}
	if best == "" {
		return strings.TrimPrefix(path, "/rest")
	}
	return best
}

// matchRoute matches path segments against a route pattern such as
// "PUT /rest/systems/{systemName}". It returns the value of the first parameter ("" for
// none) and the number of literal segments, which ranks more specific routes higher.
func matchRoute(route, method string, segs []string) (first string, literals int, ok bool) {
	m, pattern, _ := strings.Cut(route, " ")
	psegs := strings.Split(pattern, "/")
	if m != method || len(psegs) != len(segs) {
		return "", 0, false
	}
	for i, p := range psegs {
		switch {
		case strings.HasPrefix(p, "{"):
			if segs[i] == "" {
				return "", 0, false
			}
			if first == "" {
				first = segs[i]
			}
		case p == segs[i]:
			literals++
		default:
			return "", 0, false
		}
	}
	return first, literals, true
}

// list returns the entries, oldest first, of the days from startDate to endDate
// (yyyyMMdd, both optional and inclusive).
func (a traceLogArea) list(w http.ResponseWriter, r *http.Request) {
	from, to, err := traceDayRange(r.URL.Query())
	if err != nil {
		writeErr(w, err)
		return
	}
	var out []traceLogEntry
	a.s.read(func(wd *world) {
		entries := traceLogState.of(wd).Entries
		out = make([]traceLogEntry, 0, len(entries))
		for _, e := range entries {
			// createdAt starts with its day as yyyy-MM-dd, which sorts like the date.
			day := e.CreatedAt[:min(len(e.CreatedAt), len("2006-01-02"))]
			if (from == "" || day >= from) && (to == "" || day <= to) {
				out = append(out, e)
			}
		}
	})
	writeJSON(w, http.StatusOK, map[string]any{"logs": out})
}

// traceDayRange reads startDate and endDate and returns them as yyyy-MM-dd ("" when
// absent or empty).
func traceDayRange(q url.Values) (from, to string, err error) {
	if from, err = traceDay(q, "startDate"); err != nil {
		return "", "", err
	}
	if to, err = traceDay(q, "endDate"); err != nil {
		return "", "", err
	}
	if from != "" && to != "" && from > to {
		return "", "", badRequest("startDate must not be after endDate")
	}
	return from, to, nil
}

func traceDay(q url.Values, param string) (string, error) {
	v := q.Get(param)
	if v == "" {
		return "", nil
	}
	t, err := time.Parse(traceQueryLayout, v)
	if err != nil {
		return "", badRequest("%s must be yyyyMMdd", param)
	}
	return t.Format("2006-01-02"), nil
}

// seed adds a short history to the demo log: two successful admin changes and one that
// failed, all at the sim's start time.
func (a traceLogArea) seed(wd *world, seed string) {
	if seed != SeedDemo {
		return
	}
	st := traceLogState.of(wd)
	at := a.s.now().Format(traceTimeLayout)
	for _, e := range []traceLogEntry{
		{UserID: "admin", Action: "POST /rest/admin/user/operator/auth/grant", TargetName: "operator", Result: traceResultOK},
		{UserID: "admin", Action: "PUT /rest/resource/datasource/orders-ds", TargetName: "orders-ds", Result: traceResultOK},
		{UserID: "admin", Action: "DELETE /rest/admin/user/intern", TargetName: "intern", Result: traceResultFailed},
	} {
		e.CreatedAt = at
		st.add(e, maxTraceLogEntries)
	}
}
