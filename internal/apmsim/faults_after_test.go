package apmsim

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// hasSystem reads the system list, which no rule of these tests matches.
func hasSystem(t *testing.T, h http.Handler, name string) bool {
	t.Helper()
	got := call(t, h, "GET", admin("/rest/systems"), "")
	expect(t, got, http.StatusOK, "")
	return strings.Contains(got.body, `"systemName":"`+name+`"`)
}

// after=true: the request is served for real, then the client gets the injected answer.
func TestFaultAfterStatus(t *testing.T) {
	s := faultSim(t, "POST /rest/systems status=502 after=true latency=20ms", "GET /rest/systems/* status=500 after=true",
		"DELETE /rest/systems status=503 after=true")
	h := s.Handler()

	start := time.Now()
	expect(t, call(t, h, "POST", admin("/rest/systems"), `{"systemName":"lost"}`), http.StatusBadGateway, errJSON("BAD_GATEWAY", injectedFaultMessage))
	if d := time.Since(start); d < 20*time.Millisecond {
		t.Errorf("took %s, want the latency of 20ms too", d)
	}
	if !hasSystem(t, h, "lost") {
		t.Fatal("the system was not created")
	}
	// A bad key is refused before any rule is tried: its 401 is not lost, and nothing changes.
	expect(t, call(t, h, "POST", withKey("/rest/systems", "wrong"), `{"systemName":"intruder"}`), http.StatusUnauthorized, "")
	if hasSystem(t, h, "intruder") {
		t.Fatal("a request with a bad key created a system")
	}

	// Reads too: the real answer (200 or 404) is replaced.
	expect(t, call(t, h, "GET", admin("/rest/systems/shop"), ""), http.StatusInternalServerError, errJSON(codeInternal, injectedFaultMessage))
	expect(t, call(t, h, "GET", admin("/rest/systems/ghost"), ""), http.StatusInternalServerError, errJSON(codeInternal, injectedFaultMessage))
	// Not even a header of the real answer (405 with Allow) gets through.
	got := call(t, h, "DELETE", admin("/rest/systems"), "")
	expect(t, got, http.StatusServiceUnavailable, errJSON("SERVICE_UNAVAILABLE", injectedFaultMessage))
	if allow := got.header.Get("Allow"); allow != "" {
		t.Errorf("Allow %q of the real answer leaked", allow)
	}

	// The served requests count as requests of their routes, and the write is logged with
	// its real outcome.
	expect(t, call(t, h, "GET", admin("/_apmsim/requests"), ""), http.StatusOK,
		`{"requests":{"GET /rest/systems":2,"GET /rest/systems/{systemName}":2,"POST /rest/systems":1}}`)
	logs := call(t, h, "GET", admin("/rest/admin/actionTraceLogList"), "").body
	if !strings.Contains(logs, `"action":"POST /rest/systems","targetName":"/systems","result":"SUCCESS"`) {
		t.Errorf("trace log %s", logs)
	}
}

// reset=true after=true: the request is served for real, then the connection is dropped.
func TestFaultAfterReset(t *testing.T) {
	srv := httptest.NewServer(faultSim(t, "POST /rest/systems reset=true after=true").Handler())
	defer srv.Close()
	resp, err := http.Post(srv.URL+admin("/rest/systems"), "application/json", strings.NewReader(`{"systemName":"kept"}`))
	if err == nil {
		resp.Body.Close()
		t.Fatalf("got a response %d, want a dropped connection", resp.StatusCode)
	}
	resp, err = http.Get(srv.URL + admin("/rest/systems/kept"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("system after the lost answer: %d, want 200", resp.StatusCode)
	}
}

func TestFaultAfterAdminJSON(t *testing.T) {
	h := newTestSim(t).Handler()
	expect(t, call(t, h, "PUT", admin("/_apmsim/faults"),
		`{"faults":[{"method":"POST","path":"/rest/systems","status":502,"after":true},"PUT /rest/* reset=true after=true"]}`),
		http.StatusOK, `{"faults":[`+
			`{"rule":"POST /rest/systems status=502 after=true","method":"POST","path":"/rest/systems","status":502,"rate":1,"after":true,"matched":0,"fired":0},`+
			`{"rule":"PUT /rest/* reset=true after=true","method":"PUT","path":"/rest/*","rate":1,"reset":true,"after":true,"matched":0,"fired":0}]}`)
	expect(t, call(t, h, "PUT", admin("/_apmsim/faults"), `{"faults":[{"method":"GET","path":"/x","latency":"1s","after":true}]}`),
		http.StatusBadRequest, errJSON(codeBadRequest, "fault rule 1 (GET /x latency=1s after=true): after needs a status or reset to answer with"))
}
