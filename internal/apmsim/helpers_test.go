package apmsim

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

const (
	testAdminKey  = "admin-secret"
	testViewerKey = "viewer-secret"
)

// testClock is a fixed time so that state files are deterministic.
var testClock = func() time.Time { return time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC) }

func newTestSim(t testing.TB, mods ...func(*Options)) *Sim {
	t.Helper()
	opts := Options{AdminKey: testAdminKey, ViewerKey: testViewerKey, Clock: testClock}
	for _, m := range mods {
		m(&opts)
	}
	s, err := New(opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return s
}

type response struct {
	status int
	body   string
	header http.Header
}

// call sends one request through the handler; a non-empty body is sent as
// application/json.
func call(t testing.TB, h http.Handler, method, target, body string) response {
	t.Helper()
	ct := ""
	if body != "" {
		ct = "application/json"
	}
	return callCT(t, h, method, target, body, ct)
}

func callCT(t testing.TB, h http.Handler, method, target, body, contentType string) response {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req := httptest.NewRequest(method, target, rd)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return response{status: rec.Code, body: rec.Body.String(), header: rec.Header()}
}

// withKey appends the key query parameter to target.
func withKey(target, key string) string {
	sep := "?"
	if strings.Contains(target, "?") {
		sep = "&"
	}
	return target + sep + "key=" + key
}

func admin(target string) string  { return withKey(target, testAdminKey) }
func viewer(target string) string { return withKey(target, testViewerKey) }

// expect checks the status and that the body is exactly the JSON want
// (compared after compacting, so field order and values must match).
func expect(t testing.TB, got response, status int, want string) {
	t.Helper()
	if got.status != status {
		t.Fatalf("status = %d, want %d; body %s", got.status, status, got.body)
	}
	if want == "" {
		return
	}
	var gb, wb bytes.Buffer
	if err := json.Compact(&gb, []byte(got.body)); err != nil {
		t.Fatalf("response is not JSON: %v: %q", err, got.body)
	}
	if err := json.Compact(&wb, []byte(want)); err != nil {
		t.Fatalf("bad expectation %q: %v", want, err)
	}
	if gb.String() != wb.String() {
		t.Fatalf("body\n got %s\nwant %s", gb.String(), wb.String())
	}
	if ct := got.header.Get("Content-Type"); ct != "application/json" {
		t.Fatalf("Content-Type = %q", ct)
	}
}

// errJSON is the spec's error body, "error" first as the sim sends it.
func errJSON(code, msg string) string {
	out, _ := json.Marshal(errorBody{Error: msg, Code: code})
	return string(out)
}

const actionY = `{"actionResult":"Y"}`

// mustOK performs a write that has to succeed.
func mustOK(t testing.TB, h http.Handler, method, target, body string) {
	t.Helper()
	expect(t, call(t, h, method, target, body), http.StatusOK, actionY)
}

func createSystem(t testing.TB, h http.Handler, name string) {
	t.Helper()
	mustOK(t, h, "POST", admin("/rest/systems"), `{"systemName":"`+name+`"}`)
}

func createNode(t testing.TB, h http.Handler, system, name, ip string, port int) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"nodeName": name, "systemName": system, "hostIp": ip, "agentPort": port})
	mustOK(t, h, "POST", admin("/rest/nodes"), string(body))
}
