package apm

import (
	"context"
	"testing"
)

func TestCallsSendMethodPathAndBody(t *testing.T) {
	runRequestCases(t, systemCalls(t))
}

// systemCalls are the calls of systems, nodes and the public paths and the request each
// sends; TestCoverageClientCallsSendTheirEndpoint runs them too.
func systemCalls(t *testing.T) []requestCase {
	t.Helper()
	ctx := context.Background()
	cases := []struct {
		name     string
		call     func(c *Client) error
		method   string
		path     string
		body     string // JSON; "" for no body
		keyless  bool
		response string
	}{
		{"ListSystems", func(c *Client) error { _, err := c.ListSystems(ctx); return err },
			"GET", "/rest/systems", "", false, `{"systems":[]}`},
		{"GetSystem", func(c *Client) error { _, err := c.GetSystem(ctx, "prod"); return err },
			"GET", "/rest/systems/prod", "", false, `{"systemName":"prod"}`},
		{"GetSystem escapes", func(c *Client) error { _, err := c.GetSystem(ctx, "a b/c?d#e%"); return err },
			"GET", "/rest/systems/a%20b%2Fc%3Fd%23e%25", "", false, `{"systemName":"a b/c?d#e%"}`},
		{"CreateSystem", func(c *Client) error { return c.CreateSystem(ctx, "prod") },
			"POST", "/rest/systems", `{"systemName":"prod"}`, false, `{"actionResult":"Y"}`},
		{"RenameSystem", func(c *Client) error { return c.RenameSystem(ctx, "prod", "prod-2") },
			"PUT", "/rest/systems/prod", `{"systemName":"prod-2"}`, false, `{"actionResult":"Y"}`},
		{"DeleteSystem", func(c *Client) error { return c.DeleteSystem(ctx, "prod") },
			"DELETE", "/rest/systems/prod", "", false, ``},
		{"ListNodes", func(c *Client) error { _, err := c.ListNodes(ctx); return err },
			"GET", "/rest/nodes", "", false, `{"nodes":[]}`},
		{"GetNode", func(c *Client) error { _, err := c.GetNode(ctx, "prod", "node 1"); return err },
			"GET", "/rest/nodes/node%201/systems/prod", "", false, `{"nodeName":"node 1"}`},
		{"CreateNode", func(c *Client) error {
			return c.CreateNode(ctx, CreateNodeRequest{NodeName: "n1", SystemName: "prod", HostIP: "10.0.0.1", AgentPort: 7730})
		}, "POST", "/rest/nodes", `{"nodeName":"n1","systemName":"prod","hostIp":"10.0.0.1","agentPort":7730}`, false, `{"actionResult":"Y"}`},
		{"UpdateNode", func(c *Client) error {
			return c.UpdateNode(ctx, "prod", "node-7", UpdateNodeRequest{HostIP: "10.0.0.2", AgentPort: 7731})
		}, "PUT", "/rest/nodes/node-7/systems/prod", `{"hostIp":"10.0.0.2","agentPort":7731}`, false, `{"actionResult":"Y"}`},
		{"UpdateNode partial", func(c *Client) error {
			return c.UpdateNode(ctx, "prod", "node-7", UpdateNodeRequest{AgentPort: 7731})
		}, "PUT", "/rest/nodes/node-7/systems/prod", `{"agentPort":7731}`, false, `{"actionResult":"Y"}`},
		{"DeleteNode", func(c *Client) error { return c.DeleteNode(ctx, "prod", "node-7") },
			"DELETE", "/rest/nodes/node-7/systems/prod", "", false, `{"actionResult":"Y"}`},
		{"ListPublicNodes", func(c *Client) error { _, err := c.ListPublicNodes(ctx); return err },
			"GET", "/rest/public/nodes", "", true, `{"nodeList":[]}`},
		{"ManagerInfo", func(c *Client) error { _, err := c.ManagerInfo(ctx); return err },
			"GET", "/rest/public/managerInfo", "", true, `{"version":"1"}`},
	}
	calls := make([]requestCase, 0, len(cases))
	for _, tc := range cases {
		if tc.keyless != isPublic(tc.path) {
			t.Fatalf("%s: keyless=%v does not match the path %s", tc.name, tc.keyless, tc.path)
		}
		calls = append(calls, requestCase{name: tc.name, call: tc.call, method: tc.method, path: tc.path, body: tc.body, response: tc.response})
	}
	return calls
}
