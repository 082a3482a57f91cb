package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/apmsim"
)

// Observability reads (4.8, 4.9 and the container lists of 4.2/4.3) against the demo
// seed: servers was-01, web-01 and session-01 (seeded by the servers area), containers
// shop-was-0.. and shop-web-0.. (host name = serverName), four analysis events.

// obServerNode finds the demo node that runs the server of kind (the node detail's
// serverType) called id.
func obServerNode(ctx context.Context, c *apm.Client, kind, id string) (string, error) {
	for _, name := range []string{"web-01", "app-01"} {
		n, err := c.GetNode(ctx, "shop", name)
		if err != nil {
			return "", err
		}
		for _, s := range n.Servers {
			if s.ServerType == kind && s.ServerID == id {
				return name, nil
			}
		}
	}
	return "", fmt.Errorf("the demo seed has no %s server %s", kind, id)
}

// obServerCase measures a demo server through get, after finding its node.
func obServerCase(route, kind, id string, get func(ctx context.Context, c *apm.Client, node string) (string, error)) endpointCase {
	return endpointCase{route, func(ctx context.Context, c *apm.Client) error {
		node, err := obServerNode(ctx, c, kind, id)
		if err != nil {
			return err
		}
		got, err := get(ctx, c, node)
		if err == nil && got != id {
			err = fmt.Errorf("metrics of %s are for %q", id, got)
		}
		return err
	}}
}

var _ = addCases(
	endpointCase{"GET /meters/nodes", func(ctx context.Context, c *apm.Client) error {
		return expectLen(c.NodeMetricsList(ctx))
	}},
	endpointCase{"GET /meters/nodes/{nodeName}/systems/{systemName}", func(ctx context.Context, c *apm.Client) error {
		m, err := c.NodeMetrics(ctx, "shop", "web-01")
		if err == nil && (m.NodeName != "web-01" || m.MemoryTotal == 0) {
			err = fmt.Errorf("metrics %+v", m)
		}
		return err
	}},
	endpointCase{"GET /meters/nodes/{nodeName}/systems/{systemName}/all", func(ctx context.Context, c *apm.Client) error {
		m, err := c.NodeMetricsAll(ctx, "shop", "app-01")
		if err == nil && m.Node.NodeName != "app-01" {
			err = fmt.Errorf("metrics %+v", m)
		}
		return err
	}},
	obServerCase("GET /meters/was/servers/{serverId}/nodes/{nodeName}/systems/{systemName}", "was", "was-01",
		func(ctx context.Context, c *apm.Client, node string) (string, error) {
			m, err := c.WASServerMetrics(ctx, "shop", node, "was-01")
			if err != nil {
				return "", err
			}
			return m.ServerID, nil
		}),
	obServerCase("GET /meters/web/servers/{serverId}/nodes/{nodeName}/systems/{systemName}", "web", "web-01",
		func(ctx context.Context, c *apm.Client, node string) (string, error) {
			m, err := c.WebServerMetrics(ctx, "shop", node, "web-01")
			if err != nil {
				return "", err
			}
			return m.ServerID, nil
		}),
	obServerCase("GET /meters/session/servers/{serverId}/nodes/{nodeName}/systems/{systemName}", "session", "session-01",
		func(ctx context.Context, c *apm.Client, node string) (string, error) {
			m, err := c.SessionServerMetrics(ctx, "shop", node, "session-01")
			if err != nil {
				return "", err
			}
			return m.ServerID, nil
		}),
	endpointCase{"GET /meters/was/container/{hostName}", func(ctx context.Context, c *apm.Client) error {
		m, err := c.WASContainerMetrics(ctx, "shop-was-1")
		if err == nil && (m.HostName != "shop-was-1" || m.MemoryMax == 0) {
			err = fmt.Errorf("metrics %+v", m)
		}
		return err
	}},
	endpointCase{"GET /meters/web/container/{hostName}", func(ctx context.Context, c *apm.Client) error {
		m, err := c.WebContainerMetrics(ctx, "shop-web-0")
		if err == nil && (m.HostName != "shop-web-0" || m.RequestsPerSec == 0) {
			err = fmt.Errorf("metrics %+v", m)
		}
		return err
	}},
	endpointCase{"GET /rest/licenses", func(ctx context.Context, c *apm.Client) error {
		return expectLen(c.ListLicenses(ctx))
	}},
	endpointCase{"GET /rest/notification", func(ctx context.Context, c *apm.Client) error {
		return expectLen(c.ListNotifications(ctx, apm.NotificationFilter{Limit: 3}))
	}},
	endpointCase{"GET /rest/analysis/event", func(ctx context.Context, c *apm.Client) error {
		return expectLen(c.ListAnalysisEvents(ctx, apm.EventFilter{SystemName: "shop"}))
	}},
	endpointCase{"GET /rest/analysis/event/{eventId}", func(ctx context.Context, c *apm.Client) error {
		ev, err := c.GetAnalysisEvent(ctx, 1)
		if err == nil && (ev.EventID != 1 || ev.StackTrace == "" || ev.CreatedAt.IsZero()) {
			err = fmt.Errorf("event %+v", ev)
		}
		return err
	}},
	endpointCase{"GET /rest/was/container/servers", func(ctx context.Context, c *apm.Client) error {
		return expectLen(c.ListWASContainerServers(ctx))
	}},
	endpointCase{"GET /rest/web/container/servers", func(ctx context.Context, c *apm.Client) error {
		return expectLen(c.ListWebContainerServers(ctx))
	}},
)

// The bodies carry exactly the wrapper keys and fields of api/rest-interface.md part 2 and
// api/decisions.md.
func TestObservabilityBodiesHaveTheDocumentedShape(t *testing.T) {
	// jsonShape sorts the fields by name.
	const event = "createdAt:string eventId:number eventType:string message:string serverName:string"
	checkShapes(t, newFixture(t).sim, []shapeCase{
		{"/meters/nodes", "nodes", "cpu:number diskUsage:number memoryTotal:number memoryUsed:number nodeName:string"},
		{"/meters/nodes/web-01/systems/shop", "",
			"cpu:number diskUsage:number memoryTotal:number memoryUsed:number networkIn:number networkOut:number nodeName:string"},
		{"/meters/nodes/web-01/systems/shop/all", "", "node:object wasServers:array webServers:array"},
		{"/meters/was/servers/was-01/nodes/web-01/systems/shop", "",
			"gcCount:number gcTime:number heapMax:number heapUsed:number serverId:string threadActive:number threadMax:number"},
		{"/meters/web/servers/web-01/nodes/web-01/systems/shop", "",
			"bytesIn:number bytesOut:number connections:number requestsPerSec:number serverId:string"},
		{"/meters/session/servers/session-01/nodes/web-01/systems/shop", "",
			"activeSessions:number memoryMax:number memoryUsed:number serverId:string"},
		{"/meters/was/container/shop-was-0", "", "cpu:number hostName:string memoryMax:number memoryUsed:number threadCount:number"},
		{"/meters/web/container/shop-web-0", "", "bytesIn:number bytesOut:number connections:number hostName:string requestsPerSec:number"},
		{"/rest/licenses", "licenses", "expireDate:string licenseType:string maxCpu:number nodeName:string"},
		{"/rest/notification", "notifications", "createdAt:string id:number message:string targetName:string type:string"},
		{"/rest/analysis/event", "events", event + " systemName:string"},
		{"/rest/analysis/event/1", "", event + " stackTrace:string systemName:string"},
		{"/rest/was/container/servers", "containerList", "containerIp:string httpPort:number serverId:string serverName:string"},
		{"/rest/web/container/servers", "containerList", "containerIp:string httpPort:number serverId:string serverName:string"},
	})
}

// The entries of a node's /all view have the fields api/decisions.md gives them; its node
// object is the node's own metrics body.
func TestNodeMetricsAllEntries(t *testing.T) {
	status, body := rawGet(t, newFixture(t).sim, "/meters/nodes/web-01/systems/shop/all", viewerKey)
	var all struct {
		Node       map[string]any
		WASServers []map[string]any `json:"wasServers"`
		WebServers []map[string]any `json:"webServers"`
	}
	if status != http.StatusOK || json.Unmarshal(body, &all) != nil || len(all.WASServers) == 0 || len(all.WebServers) == 0 {
		t.Fatalf("status %d body %s", status, body)
	}
	for _, s := range all.WASServers {
		if got := jsonShape(s); got != "heapMax:number heapUsed:number serverId:string threadActive:number" {
			t.Errorf("WAS entry %s", got)
		}
	}
	for _, s := range all.WebServers {
		if got := jsonShape(s); got != "connections:number serverId:string" {
			t.Errorf("web entry %s", got)
		}
	}
	if got := jsonShape(all.Node); got != "cpu:number diskUsage:number memoryTotal:number memoryUsed:number networkIn:number networkOut:number nodeName:string" {
		t.Errorf("node %s", got)
	}
}

func TestObservabilityErrorsThroughTheClient(t *testing.T) {
	c := newFixture(t).viewer
	ctx := context.Background()
	notFound := func(msg string) wantErr { return wantErr{http.StatusNotFound, "NOT_FOUND", msg} }
	for name, tc := range map[string]struct {
		call func() error
		want wantErr
	}{
		"unknown system": {func() error { _, err := c.NodeMetrics(ctx, "nope", "web-01"); return err }, notFound("System not found: nope")},
		"unknown node":   {func() error { _, err := c.NodeMetricsAll(ctx, "shop", "nope"); return err }, notFound("Node not found: nope")},
		"unknown server": {func() error { _, err := c.WASServerMetrics(ctx, "shop", "web-01", "nope"); return err }, notFound("Server not found: nope")},
		"server of another kind": {func() error { _, err := c.SessionServerMetrics(ctx, "shop", "web-01", "was-01"); return err },
			notFound("Server not found: was-01")},
		"unknown host":         {func() error { _, err := c.WASContainerMetrics(ctx, "nope"); return err }, notFound("Container not found: nope")},
		"host of another kind": {func() error { _, err := c.WebContainerMetrics(ctx, "shop-was-0"); return err }, notFound("Container not found: shop-was-0")},
		"unknown event":        {func() error { _, err := c.GetAnalysisEvent(ctx, 999); return err }, notFound("Event not found: 999")},
	} {
		t.Run(name, func(t *testing.T) { checkErr(t, tc.call(), tc.want) })
	}
}

// What the client refuses to send, the emulator refuses too: raw requests get a 400 that
// names the parameter.
func TestObservabilityBadParameters(t *testing.T) {
	sim := newFixture(t).sim
	for _, tc := range []struct{ path, msg string }{
		{"/rest/notification?interval=abc", "interval must be a positive integer"},
		{"/rest/notification?interval=0", "interval must be a positive integer"},
		{"/rest/notification?limit=-1", "limit must be a positive integer"},
		{"/rest/notification?dateTime=2024-05-06", "dateTime must be yyyyMMddHHmmss"},
		{"/rest/notification?interval=5&dateTime=20240506000000", "interval and dateTime cannot be combined; use one of them"},
		{"/rest/analysis/event?eventType=STUCK_THREAD", "eventType must be one of stuckthread, oom, fullgc, error"},
		{"/rest/analysis/event?startDate=2024", "startDate must be yyyyMMdd"},
		{"/rest/analysis/event?startDate=20240507&endDate=20240506", "startDate must not be after endDate"},
		{"/rest/analysis/event/first", "eventId must be an integer"},
	} {
		status, body := rawGet(t, sim, tc.path, viewerKey)
		var got struct{ Error, Code string }
		if status != http.StatusBadRequest || json.Unmarshal(body, &got) != nil || got.Error != tc.msg || got.Code != "BAD_REQUEST" {
			t.Errorf("%s: %d %s, want 400 %q", tc.path, status, body, tc.msg)
		}
	}
}

// Filters through the client, against the demo seed at a fixed time: notifications of the
// node registrations (now-48h) and of the events (now-26h, -3h, -90min, -50min).
func TestObservabilityFiltersThroughTheClient(t *testing.T) {
	now := time.Date(2025, 2, 3, 10, 0, 0, 0, time.UTC)
	c := newFixtureWithClock(t, (&settableClock{t: now}).now).viewer
	ctx := context.Background()
	types := func(f apm.NotificationFilter) string {
		ns, err := c.ListNotifications(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		out := ""
		for _, n := range ns {
			out += n.Type + " " + n.CreatedAt.Time.Format("15:04") + ";"
		}
		return out
	}
	for _, tc := range []struct {
		filter apm.NotificationFilter
		want   string
	}{
		{apm.NotificationFilter{Interval: time.Hour}, "WARNING 09:10;"},
		{apm.NotificationFilter{Interval: 100 * time.Minute}, "WARNING 09:10;CRITICAL 08:30;"},
		{apm.NotificationFilter{DateTime: now.Add(-3 * time.Hour)}, "WARNING 09:10;CRITICAL 08:30;WARNING 07:00;"},
		{apm.NotificationFilter{Limit: 1}, "WARNING 09:10;"},
		{apm.NotificationFilter{DateTime: now.Add(-49 * time.Hour), Limit: 5}, "WARNING 09:10;CRITICAL 08:30;WARNING 07:00;CRITICAL 08:00;INFO 10:01;"},
	} {
		if got := types(tc.filter); got != tc.want {
			t.Errorf("%+v: %s, want %s", tc.filter, got, tc.want)
		}
	}

	events := func(f apm.EventFilter) string {
		evs, err := c.ListAnalysisEvents(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		out := ""
		for _, e := range evs {
			out += fmt.Sprintf("%d %s;", e.EventID, e.EventType)
		}
		return out
	}
	for _, tc := range []struct {
		filter apm.EventFilter
		want   string
	}{
		{apm.EventFilter{}, "4 stuckthread;3 error;2 fullgc;1 oom;"},
		{apm.EventFilter{EventType: "Full GC"}, "2 fullgc;"},
		{apm.EventFilter{EventType: "OutOfMemory", SystemName: "shop"}, "1 oom;"},
		{apm.EventFilter{SystemName: "batch"}, ""},
		{apm.EventFilter{Start: now}, "4 stuckthread;3 error;2 fullgc;"},
		{apm.EventFilter{End: now.AddDate(0, 0, -1)}, "1 oom;"},
		{apm.EventFilter{Start: now.AddDate(0, 0, -1), End: now.AddDate(0, 0, -1)}, "1 oom;"},
	} {
		if got := events(tc.filter); got != tc.want {
			t.Errorf("%+v: %s, want %s", tc.filter, got, tc.want)
		}
	}
}

// Fault injection as the client meets it: it retries injected 503s, 429s and dropped
// connections on reads, and reports the fault when the retries run out.
func TestFaultsThroughTheClient(t *testing.T) {
	var rules []apmsim.FaultRule
	for _, text := range []string{
		"GET /rest/licenses status=503 times=2",
		"GET /meters/nodes status=429 times=1",
		"GET /rest/was/container/servers reset=true times=1",
		"GET /rest/analysis/event status=503",
		"GET /rest/notification latency=20ms",
	} {
		r, err := apmsim.ParseFaultRule(text)
		if err != nil {
			t.Fatal(err)
		}
		rules = append(rules, r)
	}
	sim, err := apmsim.New(apmsim.Options{AdminKey: adminKey, Seed: apmsim.SeedDemo, Faults: rules})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(sim.Handler())
	t.Cleanup(srv.Close)
	c, err := apm.New(apm.Config{Endpoint: srv.URL, APIKey: adminKey, MaxRetries: 2, RetryWaitMin: time.Millisecond, RetryWaitMax: 5 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := expectLen(c.ListLicenses(ctx)); err != nil {
		t.Errorf("two 503s then success: %v", err)
	}
	if err := expectLen(c.NodeMetricsList(ctx)); err != nil {
		t.Errorf("a 429 then success: %v", err)
	}
	if err := expectLen(c.ListWASContainerServers(ctx)); err != nil {
		t.Errorf("a reset then success: %v", err)
	}
	_, err = c.ListAnalysisEvents(ctx, apm.EventFilter{})
	checkErr(t, err, wantErr{http.StatusServiceUnavailable, "SERVICE_UNAVAILABLE", "Injected fault"})
	start := time.Now()
	if err := expectLen(c.ListNotifications(ctx, apm.NotificationFilter{})); err != nil || time.Since(start) < 20*time.Millisecond {
		t.Errorf("slow notifications: %v after %s", err, time.Since(start))
	}
	// Only the answered requests reached their routes.
	counts := sim.RequestCounts()
	for route, want := range map[string]int{"GET /rest/licenses": 1, "GET /meters/nodes": 1, "GET /rest/was/container/servers": 1, "GET /rest/analysis/event": 0, "GET /rest/notification": 1} {
		if counts[route] != want {
			t.Errorf("%s counted %d, want %d", route, counts[route], want)
		}
	}
}
