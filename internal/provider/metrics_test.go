package provider

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/apmsim"
	"github.com/apmplatform/terraform-provider-apm/internal/apmsim/apmsimtest"
)

// The sim's metrics are a function of the minute of its clock: a fixed clock makes the
// provider's read and the check's read see the same values.
func newMetricsEnv(t *testing.T) *accEnv {
	t.Helper()
	at := time.Date(2025, 3, 14, 9, 26, 53, 0, time.UTC)
	return newAccEnvWith(t, apmsimtest.WithSeed(apmsim.SeedDemo), apmsimtest.WithClock(func() time.Time { return at }))
}

// sameMetrics compares the attributes got with want (strings, float64, nil, lists of
// objects): every attribute and no other, numbers by value.
func sameMetrics(what string, got, want map[string]any) error {
	if !slices.Equal(slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want))) {
		return fmt.Errorf("%s has the attributes %v, want %v", what, slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want)))
	}
	for k, w := range want {
		g := got[k]
		switch w := w.(type) {
		case float64:
			n, ok := g.(json.Number)
			f, err := n.Float64()
			if !ok || err != nil || f != w {
				return fmt.Errorf("%s: %s is %v, the manager says %v", what, k, g, w)
			}
		case []map[string]any:
			items, ok := g.([]any)
			if !ok || len(items) != len(w) {
				return fmt.Errorf("%s: %s is %v, the manager has %d items", what, k, g, len(w))
			}
			for i := range w {
				obj, ok := items[i].(map[string]any)
				if !ok {
					return fmt.Errorf("%s: %s[%d] is %v, not an object", what, k, i, items[i])
				}
				if err := sameMetrics(fmt.Sprintf("%s: %s[%d]", what, k, i), obj, w[i]); err != nil {
					return err
				}
			}
		default:
			if g != w {
				return fmt.Errorf("%s: %s is %v, the manager says %v", what, k, g, w)
			}
		}
	}
	return nil
}

// metricsCheck compares the data source addr with want, which reads the manager.
func metricsCheck(addr string, want func() (map[string]any, error)) statecheck.StateCheck {
	return managerCheck(func(s statecheck.CheckStateRequest) error {
		got, err := dataAttrs(s, addr)
		if err != nil {
			return err
		}
		w, err := want()
		if err != nil {
			return fmt.Errorf("%s: reading the manager: %w", addr, err)
		}
		return sameMetrics(addr, got, w)
	})
}

func num[N int64 | float64](n N) float64 { return float64(n) }

func nodeMetricsValues(n *apm.NodeMetrics) map[string]any {
	return map[string]any{
		"cpu": n.CPU, "memory_used": num(n.MemoryUsed), "memory_total": num(n.MemoryTotal), "disk_usage": n.DiskUsage,
	}
}

func webTrafficValues(w apm.WebTraffic, out map[string]any) map[string]any {
	out["connections"] = num(w.Connections)
	out["requests_per_sec"] = w.RequestsPerSec
	out["bytes_in"] = num(w.BytesIn)
	out["bytes_out"] = num(w.BytesOut)
	return out
}

// nodeMetricsTF is testdata/metrics/node.tf: data.apm_node_metrics.x of the node, with
// include_servers (a bool, or hclNull to leave it out).
func nodeMetricsTF(t testing.TB, system, node string, include any) string {
	t.Helper()
	return tf(t, "metrics/node.tf", "system_name", system, "node_name", node, "include_servers", include)
}

// serverMetricsTF is file, one of testdata/metrics/*_server.tf: the metrics of the server
// id on the node.
func serverMetricsTF(t testing.TB, file, system, node, id string) string {
	t.Helper()
	return tf(t, file, "system_name", system, "node_name", node, "server_id", id)
}

// The node list and one node, without and then with its servers; the values are the
// manager's.
func TestAccMetrics_nodes(t *testing.T) {
	env := newMetricsEnv(t)
	nodeConfig := func(include any) string {
		return env.config(tf(t, "metrics/nodes.tf") + nodeMetricsTF(t, "shop", "web-01", include))
	}
	wantList := func() (map[string]any, error) {
		nodes, err := env.admin.NodeMetricsList(env.ctx())
		if err != nil {
			return nil, err
		}
		slices.SortStableFunc(nodes, func(a, b apm.NodeMetrics) int { return strings.Compare(a.NodeName, b.NodeName) })
		items := make([]map[string]any, 0, len(nodes))
		for i := range nodes {
			v := nodeMetricsValues(&nodes[i])
			v["node_name"] = nodes[i].NodeName
			items = append(items, v)
		}
		if len(items) != 2 {
			return nil, fmt.Errorf("the demo seed has %d nodes, want 2", len(items))
		}
		return map[string]any{"nodes": items}, nil
	}
	wantNode := func(include any) func() (map[string]any, error) {
		return func() (map[string]any, error) {
			n, err := env.admin.NodeMetrics(env.ctx(), "shop", "web-01")
			if err != nil {
				return nil, err
			}
			v := nodeMetricsValues(n)
			v["system_name"], v["node_name"], v["include_servers"] = "shop", "web-01", include
			v["network_in"], v["network_out"] = n.NetworkIn, n.NetworkOut
			if n.CPU <= 0 || n.NetworkIn <= 0 {
				return nil, fmt.Errorf("the demo node web-01 has cpu %v and network_in %v, want load", n.CPU, n.NetworkIn)
			}
			v["was_servers"], v["web_servers"] = nil, nil
			if include != true {
				return v, nil
			}
			all, err := env.admin.NodeMetricsAll(env.ctx(), "shop", "web-01")
			if err != nil {
				return nil, err
			}
			was := []map[string]any{}
			for _, s := range all.WASServers {
				was = append(was, map[string]any{
					"server_id": s.ServerID, "heap_used": num(s.HeapUsed), "heap_max": num(s.HeapMax), "thread_active": num(s.ThreadActive),
				})
			}
			web := []map[string]any{}
			for _, s := range all.WebServers {
				web = append(web, map[string]any{"server_id": s.ServerID, "connections": num(s.Connections)})
			}
			if len(was) != 2 || len(web) != 2 {
				return nil, fmt.Errorf("the demo node web-01 has %d WAS and %d web servers, want 2 and 2", len(was), len(web))
			}
			v["was_servers"], v["web_servers"] = was, web
			return v, nil
		}
	}
	env.test([]resource.TestStep{
		{
			Config: nodeConfig(hclNull),
			ConfigStateChecks: []statecheck.StateCheck{
				metricsCheck("data.apm_nodes_metrics.all", wantList),
				metricsCheck("data.apm_node_metrics.x", wantNode(nil)),
			},
		},
		{
			Config:            nodeConfig(false),
			ConfigStateChecks: []statecheck.StateCheck{metricsCheck("data.apm_node_metrics.x", wantNode(false))},
		},
		{
			Config:            nodeConfig(true),
			ConfigStateChecks: []statecheck.StateCheck{metricsCheck("data.apm_node_metrics.x", wantNode(true))},
		},
	})
	if n := env.writes(); n != 0 {
		t.Errorf("reading metrics made %d write requests", n)
	}
}

// The metrics of each server kind and of each container kind are the manager's.
func TestAccMetrics_serversAndContainers(t *testing.T) {
	env := newMetricsEnv(t)
	keys := func(id string) map[string]any {
		return map[string]any{"system_name": "shop", "node_name": "web-01", "server_id": id}
	}
	env.test([]resource.TestStep{{
		Config: env.config(serverMetricsTF(t, "metrics/was_server.tf", "shop", "web-01", "was-01") +
			serverMetricsTF(t, "metrics/web_server.tf", "shop", "web-01", "web-01") +
			serverMetricsTF(t, "metrics/session_server.tf", "shop", "web-01", "session-01") +
			tf(t, "metrics/was_container.tf", "host_name", "shop-was-0") +
			tf(t, "metrics/web_container.tf", "host_name", "shop-web-1")),
		ConfigStateChecks: []statecheck.StateCheck{
			metricsCheck("data.apm_was_server_metrics.x", func() (map[string]any, error) {
				m, err := env.admin.WASServerMetrics(env.ctx(), "shop", "web-01", "was-01")
				if err != nil {
					return nil, err
				}
				if m.HeapUsed <= 0 {
					return nil, fmt.Errorf("the running demo server was-01 uses %d MB of heap, want load", m.HeapUsed)
				}
				v := keys("was-01")
				v["heap_used"], v["heap_max"], v["thread_active"], v["thread_max"] = num(m.HeapUsed), num(m.HeapMax), num(m.ThreadActive), num(m.ThreadMax)
				v["gc_count"], v["gc_time"] = num(m.GCCount), num(m.GCTime)
				return v, nil
			}),
			metricsCheck("data.apm_web_server_metrics.x", func() (map[string]any, error) {
				m, err := env.admin.WebServerMetrics(env.ctx(), "shop", "web-01", "web-01")
				if err != nil {
					return nil, err
				}
				return webTrafficValues(m.WebTraffic, keys("web-01")), nil
			}),
			metricsCheck("data.apm_session_server_metrics.x", func() (map[string]any, error) {
				m, err := env.admin.SessionServerMetrics(env.ctx(), "shop", "web-01", "session-01")
				if err != nil {
					return nil, err
				}
				v := keys("session-01")
				v["active_sessions"], v["memory_used"], v["memory_max"] = num(m.ActiveSessions), num(m.MemoryUsed), num(m.MemoryMax)
				return v, nil
			}),
			metricsCheck("data.apm_was_container_metrics.x", func() (map[string]any, error) {
				m, err := env.admin.WASContainerMetrics(env.ctx(), "shop-was-0")
				if err != nil {
					return nil, err
				}
				return map[string]any{
					"host_name": "shop-was-0", "cpu": m.CPU, "memory_used": num(m.MemoryUsed), "memory_max": num(m.MemoryMax),
					"thread_count": num(m.ThreadCount),
				}, nil
			}),
			metricsCheck("data.apm_web_container_metrics.x", func() (map[string]any, error) {
				m, err := env.admin.WebContainerMetrics(env.ctx(), "shop-web-1")
				if err != nil {
					return nil, err
				}
				return webTrafficValues(m.WebTraffic, map[string]any{"host_name": "shop-web-1"}), nil
			}),
		},
	}})
}

// Unknown systems, nodes, servers (also of another kind) and hosts give null metrics with a
// warning (errors before issue 21, which a destroy could not get past).
func TestAccMetrics_errors(t *testing.T) {
	env := newMetricsEnv(t)
	node := func(system, name string, include bool) string {
		return env.config(nodeMetricsTF(t, system, name, include))
	}
	server := func(file, system, node, id string) string {
		return env.config(serverMetricsTF(t, file, system, node, id))
	}
	container := func(file, host string) string {
		return env.config(tf(t, file, "host_name", host))
	}
	steps := []resource.TestStep{
		{Config: node("nosuch", "web-01", false), ConfigStateChecks: notFound("data.apm_node_metrics.x", "", "cpu")},
		{Config: node("shop", "nope", false), ConfigStateChecks: notFound("data.apm_node_metrics.x", "", "cpu")},
		{Config: node("shop", "nope", true), ConfigStateChecks: notFound("data.apm_node_metrics.x", "", "cpu")},
		{Config: server("metrics/was_server.tf", "shop", "nope", "was-01"), ConfigStateChecks: notFound("data.apm_was_server_metrics.x", "", "heap_used")},
		{Config: server("metrics/was_server.tf", "shop", "web-01", "was-09"), ConfigStateChecks: notFound("data.apm_was_server_metrics.x", "", "heap_used")},
		{Config: server("metrics/web_server.tf", "shop", "web-01", "was-01"), ConfigStateChecks: notFound("data.apm_web_server_metrics.x", "", "connections")},
		{Config: server("metrics/session_server.tf", "shop", "app-01", "session-01"), ConfigStateChecks: notFound("data.apm_session_server_metrics.x", "", "active_sessions")},
		{Config: container("metrics/was_container.tf", "shop-web-0"), ConfigStateChecks: notFound("data.apm_was_container_metrics.x", "", "cpu")},
		{Config: container("metrics/web_container.tf", "nohost"), ConfigStateChecks: notFound("data.apm_web_container_metrics.x", "", "connections")},
		// The framework's final destroy needs a valid last configuration.
		{Config: container("metrics/web_container.tf", "shop-web-0")},
	}
	env.test(steps)
}
