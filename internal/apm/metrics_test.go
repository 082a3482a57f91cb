package apm

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"reflect"
	"testing"
)

// callCase drives one read through a test server that answers response, and checks the
// request path and the decoded result.
type callCase struct {
	name     string
	call     func(ctx context.Context, c *Client) (any, error)
	path     string // escaped
	response string
	want     any
}

func runCallCases(t *testing.T, cases []callCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv, rec := serve(t, func(w http.ResponseWriter, _ *http.Request, _ int) { reply(w, 200, tc.response) })
			got, err := tc.call(context.Background(), newTestClient(t, srv.URL))
			if err != nil {
				t.Fatal(err)
			}
			if reqs := rec.all(); len(reqs) != 1 || reqs[0].Method != "GET" || reqs[0].Path != tc.path {
				t.Fatalf("requests %+v, want one GET %s", reqs, tc.path)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got  %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

func TestMeterCalls(t *testing.T) {
	runCallCases(t, meterCalls())
}

// meterCalls are the reads of metrics; TestCoverageClientCallsSendTheirEndpoint runs them
// too.
func meterCalls() []callCase {
	return []callCase{
		{"NodeMetricsList", func(ctx context.Context, c *Client) (any, error) { return c.NodeMetricsList(ctx) },
			"/meters/nodes",
			`{"nodes":[{"nodeName":"n1","cpu":"12.5","memoryUsed":"2048","memoryTotal":8192.0,"diskUsage":40,"extra":true},{"nodeName":"n2","systemName":"s"}]}`,
			[]NodeMetrics{{NodeName: "n1", CPU: 12.5, MemoryUsed: 2048, MemoryTotal: 8192, DiskUsage: 40}, {NodeName: "n2", SystemName: "s"}}},
		{"NodeMetricsList empty", func(ctx context.Context, c *Client) (any, error) { return c.NodeMetricsList(ctx) },
			"/meters/nodes", `{}`, []NodeMetrics{}},
		{"NodeMetrics", func(ctx context.Context, c *Client) (any, error) { return c.NodeMetrics(ctx, "prod", "node 1") },
			"/meters/nodes/node%201/systems/prod",
			`{"nodeName":"node 1","systemName":"prod","cpu":1,"memoryUsed":2,"memoryTotal":3,"diskUsage":4.5,"networkIn":"1000.5","networkOut":2000}`,
			&NodeMetrics{NodeName: "node 1", SystemName: "prod", CPU: 1, MemoryUsed: 2, MemoryTotal: 3, DiskUsage: 4.5, NetworkIn: 1000.5, NetworkOut: 2000}},
		{"NodeMetrics terse", func(ctx context.Context, c *Client) (any, error) { return c.NodeMetrics(ctx, "prod", "n1") },
			"/meters/nodes/n1/systems/prod", `{"cpu":null}`, &NodeMetrics{NodeName: "n1", SystemName: "prod"}},
		{"NodeMetricsAll", func(ctx context.Context, c *Client) (any, error) { return c.NodeMetricsAll(ctx, "prod", "n1") },
			"/meters/nodes/n1/systems/prod/all",
			`{"node":{"cpu":5},"wasServers":[{"serverId":"a","heapUsed":"10","heapMax":20,"threadActive":3}],"webServers":[{"serverId":"w","connections":7}]}`,
			&NodeMetricsAll{Node: NodeMetrics{NodeName: "n1", SystemName: "prod", CPU: 5},
				WASServers: []WASServerMetrics{{ServerID: "a", HeapUsed: 10, HeapMax: 20, ThreadActive: 3}},
				WebServers: []WebServerMetrics{{ServerID: "w", WebTraffic: WebTraffic{Connections: 7}}}}},
		{"NodeMetricsAll without servers", func(ctx context.Context, c *Client) (any, error) { return c.NodeMetricsAll(ctx, "prod", "n1") },
			"/meters/nodes/n1/systems/prod/all", `{"node":{"nodeName":"n1"},"wasServers":null}`,
			&NodeMetricsAll{Node: NodeMetrics{NodeName: "n1", SystemName: "prod"}, WASServers: []WASServerMetrics{}, WebServers: []WebServerMetrics{}}},
		{"WASServerMetrics", func(ctx context.Context, c *Client) (any, error) {
			return c.WASServerMetrics(ctx, "prod", "n1", "was/1")
		},
			"/meters/was/servers/was%2F1/nodes/n1/systems/prod",
			`{"serverId":"was/1","heapUsed":512,"heapMax":"1024","threadActive":10,"threadMax":200,"gcCount":3,"gcTime":"120"}`,
			&WASServerMetrics{ServerID: "was/1", HeapUsed: 512, HeapMax: 1024, ThreadActive: 10, ThreadMax: 200, GCCount: 3, GCTime: 120}},
		{"WebServerMetrics", func(ctx context.Context, c *Client) (any, error) {
			return c.WebServerMetrics(ctx, "prod", "n1", "web-1")
		},
			"/meters/web/servers/web-1/nodes/n1/systems/prod",
			`{"connections":"12","requestsPerSec":33.3,"bytesIn":100,"bytesOut":2e3}`,
			&WebServerMetrics{ServerID: "web-1", WebTraffic: WebTraffic{Connections: 12, RequestsPerSec: 33.3, BytesIn: 100, BytesOut: 2000}}},
		{"SessionServerMetrics", func(ctx context.Context, c *Client) (any, error) {
			return c.SessionServerMetrics(ctx, "prod", "n1", "ss-1")
		},
			"/meters/session/servers/ss-1/nodes/n1/systems/prod",
			`{"serverId":"ss-1","activeSessions":42,"memoryUsed":64,"memoryMax":512}`,
			&SessionServerMetrics{ServerID: "ss-1", ActiveSessions: 42, MemoryUsed: 64, MemoryMax: 512}},
		{"WASContainerMetrics", func(ctx context.Context, c *Client) (any, error) { return c.WASContainerMetrics(ctx, "pod a") },
			"/meters/was/container/pod%20a",
			`{"hostName":"pod a","cpu":"55.5","memoryUsed":700,"memoryMax":1024,"threadCount":40}`,
			&WASContainerMetrics{HostName: "pod a", CPU: 55.5, MemoryUsed: 700, MemoryMax: 1024, ThreadCount: 40}},
		{"WebContainerMetrics", func(ctx context.Context, c *Client) (any, error) { return c.WebContainerMetrics(ctx, "pod-w") },
			"/meters/web/container/pod-w",
			`{"connections":5,"requestsPerSec":"1.5","bytesIn":10,"bytesOut":20}`,
			&WebContainerMetrics{HostName: "pod-w", WebTraffic: WebTraffic{Connections: 5, RequestsPerSec: 1.5, BytesIn: 10, BytesOut: 20}}},
	}
}

// A number the client cannot read makes the whole answer invalid, rather than a silent 0.
func TestMeterBadNumbers(t *testing.T) {
	for _, body := range []string{`{"cpu":"high"}`, `{"cpu":"NaN"}`, `{"memoryUsed":1.5}`, `{"cpu":[1]}`} {
		srv, _ := serve(t, func(w http.ResponseWriter, _ *http.Request, _ int) { reply(w, 200, body) })
		_, err := newTestClient(t, srv.URL).NodeMetrics(context.Background(), "s", "n")
		var apiErr *Error
		if !errors.As(err, &apiErr) || apiErr.Code != CodeInvalidResponse {
			t.Errorf("%s: err = %v, want %s", body, err, CodeInvalidResponse)
		}
	}
}

// Names that would address another resource are refused before any request.
func TestMeterPathSegments(t *testing.T) {
	srv, rec := serve(t, func(w http.ResponseWriter, _ *http.Request, _ int) { reply(w, 200, `{}`) })
	c := newTestClient(t, srv.URL)
	ctx := context.Background()
	for name, call := range map[string]func() error{
		"empty node":  func() error { _, err := c.NodeMetrics(ctx, "s", ""); return err },
		"dot server":  func() error { _, err := c.WASServerMetrics(ctx, "s", "n", ".."); return err },
		"empty host":  func() error { _, err := c.WebContainerMetrics(ctx, ""); return err },
		"dot system":  func() error { _, err := c.NodeMetricsAll(ctx, ".", "n"); return err },
		"empty serv.": func() error { _, err := c.SessionServerMetrics(ctx, "s", "n", ""); return err },
	} {
		if err := call(); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if n := rec.count(); n != 0 {
		t.Errorf("%d requests sent", n)
	}
}

func TestFlexFloat(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want float64
		ok   bool
	}{
		{`1.25`, 1.25, true}, {`"1.25"`, 1.25, true}, {`" 7 "`, 7, true}, {`-3e2`, -300, true},
		{`null`, 0, true}, {`""`, 0, true}, {`"x"`, 0, false}, {`true`, 0, false}, {`"Inf"`, 0, false},
	} {
		var f flexFloat
		err := f.UnmarshalJSON([]byte(tc.in))
		if (err == nil) != tc.ok || float64(f) != tc.want {
			t.Errorf("flexFloat(%s) = %v, %v", tc.in, float64(f), err)
		}
	}
}

// queryWithoutKey is the request's query with the key removed, encoded in sorted order.
func queryWithoutKey(t *testing.T, raw string) string {
	t.Helper()
	q, err := url.ParseQuery(raw)
	if err != nil {
		t.Fatal(err)
	}
	q.Del("key")
	return q.Encode()
}
