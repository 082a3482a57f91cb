package main

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/apmplatform/terraform-provider-apm/internal/apmsim"
)

func TestFaultFlag(t *testing.T) {
	c, err := parseFlags([]string{"--fault", "GET /rest/systems* status=503 rate=0.5", "--fault", "* /meters/* latency=20ms"})
	if err != nil {
		t.Fatal(err)
	}
	want := []apmsim.FaultRule{
		{Method: "GET", Path: "/rest/systems*", Status: 503, Rate: 0.5},
		{Method: "*", Path: "/meters/*", Rate: 1, Latency: 20 * time.Millisecond},
	}
	if len(c.faults) != len(want) || c.faults[0] != want[0] || c.faults[1] != want[1] {
		t.Fatalf("faults %+v", c.faults)
	}
	err = run(context.Background(), []string{"--admin-key", adminKey, "--fault", "GET /x status=200"}, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), `invalid value "GET /x status=200" for flag -fault: fault rule "GET /x status=200": status 200 must be between 400 and 599`) {
		t.Fatalf("bad rule: %v", err)
	}
}

func TestRunWithFault(t *testing.T) {
	lines, stop := started(t, "--addr", "127.0.0.1:0", "--insecure-http", "--admin-key", adminKey, "--fault", "GET /rest/systems status=503 times=1")
	m := servingLine.FindStringSubmatch(nextLine(t, lines))
	if m == nil {
		t.Fatal("no serving line")
	}
	c := &http.Client{}
	getJSON(t, c, m[1]+"/rest/systems?key="+adminKey, 503, nil)
	getJSON(t, c, m[1]+"/rest/systems?key="+adminKey, 200, nil)
	c.CloseIdleConnections()
	if err := stop(); err != nil {
		t.Fatal(err)
	}
}
