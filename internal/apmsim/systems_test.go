package apmsim

import (
	"strings"
	"testing"
)

func TestSystemsLifecycle(t *testing.T) {
	h := newTestSim(t).Handler()
	expect(t, call(t, h, "GET", admin("/rest/systems"), ""), 200, `{"systems":[]}`)

	createSystem(t, h, "zeta")
	createSystem(t, h, "alpha")
	// Sorted by name, IDs in creation order.
	expect(t, call(t, h, "GET", admin("/rest/systems"), ""), 200, `{"systems":[`+
		`{"systemId":"SYS-0002","systemName":"alpha","nodeCount":0,"webCount":0,"appCount":0,"sessionCount":0,"cacheCount":0},`+
		`{"systemId":"SYS-0001","systemName":"zeta","nodeCount":0,"webCount":0,"appCount":0,"sessionCount":0,"cacheCount":0}]}`)
	expect(t, call(t, h, "GET", admin("/rest/systems/zeta"), ""), 200,
		`{"systemId":"SYS-0001","systemName":"zeta","nodes":[]}`)

	mustOK(t, h, "DELETE", admin("/rest/systems/zeta"), "")
	expect(t, call(t, h, "GET", admin("/rest/systems/zeta"), ""), 404, errJSON("NOT_FOUND", "System not found: zeta"))
	// IDs are never reused.
	createSystem(t, h, "zeta")
	expect(t, call(t, h, "GET", admin("/rest/systems/zeta"), ""), 200,
		`{"systemId":"SYS-0003","systemName":"zeta","nodes":[]}`)
}

func TestSystemErrors(t *testing.T) {
	h := newTestSim(t).Handler()
	createSystem(t, h, "shop")
	createSystem(t, h, "batch")
	rule := " (allowed: 1-20 characters: letters, digits, '-' and '_')"
	tests := []struct {
		name, method, path, body string
		status                   int
		want                     string
	}{
		{"create missing name", "POST", "/rest/systems", `{}`, 400, errJSON("BAD_REQUEST", "systemName is required")},
		{"create empty name", "POST", "/rest/systems", `{"systemName":""}`, 400, errJSON("BAD_REQUEST", "systemName is required")},
		{"create null name", "POST", "/rest/systems", `{"systemName":null}`, 400, errJSON("BAD_REQUEST", "systemName is required")},
		{"create 21 characters", "POST", "/rest/systems", `{"systemName":"abcdefghijklmnopqrstu"}`, 400,
			errJSON("BAD_REQUEST", "Invalid systemName: abcdefghijklmnopqrstu"+rule)},
		{"create space", "POST", "/rest/systems", `{"systemName":"my shop"}`, 400, errJSON("BAD_REQUEST", "Invalid systemName: my shop"+rule)},
		{"create dot", "POST", "/rest/systems", `{"systemName":"a.b"}`, 400, errJSON("BAD_REQUEST", "Invalid systemName: a.b"+rule)},
		{"create slash", "POST", "/rest/systems", `{"systemName":"a/b"}`, 400, errJSON("BAD_REQUEST", "Invalid systemName: a/b"+rule)},
		{"create non-ASCII letter", "POST", "/rest/systems", `{"systemName":"café"}`, 400, errJSON("BAD_REQUEST", "Invalid systemName: café"+rule)},
		{"create number", "POST", "/rest/systems", `{"systemName":5}`, 400,
			errJSON("BAD_REQUEST", "invalid JSON body: systemName must be a string, not number")},
		{"create duplicate", "POST", "/rest/systems", `{"systemName":"shop"}`, 409, errJSON("CONFLICT", "System already exists: shop")},
		{"get unknown", "GET", "/rest/systems/nope", "", 404, errJSON("NOT_FOUND", "System not found: nope")},
		{"names are case-sensitive", "GET", "/rest/systems/SHOP", "", 404, errJSON("NOT_FOUND", "System not found: SHOP")},
		{"rename unknown", "PUT", "/rest/systems/nope", `{"systemName":"x"}`, 404, errJSON("NOT_FOUND", "System not found: nope")},
		{"rename missing name", "PUT", "/rest/systems/shop", `{}`, 400, errJSON("BAD_REQUEST", "systemName is required")},
		{"rename invalid", "PUT", "/rest/systems/shop", `{"systemName":"a b"}`, 400, errJSON("BAD_REQUEST", "Invalid systemName: a b"+rule)},
		{"rename to taken", "PUT", "/rest/systems/shop", `{"systemName":"batch"}`, 409, errJSON("CONFLICT", "System already exists: batch")},
		{"delete unknown", "DELETE", "/rest/systems/nope", "", 404, errJSON("NOT_FOUND", "System not found: nope")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			expect(t, call(t, h, tc.method, admin(tc.path), tc.body), tc.status, tc.want)
		})
	}
}

func TestSystemNameRuleAccepts(t *testing.T) {
	h := newTestSim(t).Handler()
	for _, name := range []string{"a", "A-b_9", strings.Repeat("x", 20), "0", "-_-"} {
		createSystem(t, h, name)
		expect(t, call(t, h, "GET", admin("/rest/systems/"+name), ""), 200, "")
	}
}

func TestSystemRenameMovesNodesAndKeepsID(t *testing.T) {
	h := newTestSim(t).Handler()
	createSystem(t, h, "old")
	createNode(t, h, "old", "n1", "10.1.1.1", 7730)
	createNode(t, h, "old", "n2", "10.1.1.2", 7731)

	mustOK(t, h, "PUT", admin("/rest/systems/old"), `{"systemName":"new"}`)
	expect(t, call(t, h, "GET", admin("/rest/systems/old"), ""), 404, errJSON("NOT_FOUND", "System not found: old"))
	expect(t, call(t, h, "GET", admin("/rest/systems/new"), ""), 200,
		`{"systemId":"SYS-0001","systemName":"new","nodes":[`+
			`{"nodeName":"n1","hostIp":"10.1.1.1","status":"running"},{"nodeName":"n2","hostIp":"10.1.1.2","status":"running"}]}`)
	expect(t, call(t, h, "GET", admin("/rest/nodes"), ""), 200, `{"nodes":[`+
		`{"nodeName":"n1","systemName":"new","hostIp":"10.1.1.1","agentPort":7730,"status":"running"},`+
		`{"nodeName":"n2","systemName":"new","hostIp":"10.1.1.2","agentPort":7731,"status":"running"}]}`)
	expect(t, call(t, h, "GET", admin("/rest/nodes/n1/systems/new"), ""), 200,
		`{"nodeId":"ND-0001","nodeName":"n1","systemName":"new","hostIp":"10.1.1.1","agentPort":7730,"status":"running","servers":[]}`)
	expect(t, call(t, h, "GET", admin("/rest/nodes/n1/systems/old"), ""), 404, errJSON("NOT_FOUND", "System not found: old"))

	// Renaming to its own name is a no-op success.
	mustOK(t, h, "PUT", admin("/rest/systems/new"), `{"systemName":"new"}`)
	// The old name is free again.
	createSystem(t, h, "old")
}

func TestSystemWithNodesCannotBeDeleted(t *testing.T) {
	h := newTestSim(t).Handler()
	createSystem(t, h, "shop")
	createNode(t, h, "shop", "web-01", "10.0.0.1", 7730)
	createNode(t, h, "shop", "app-01", "10.0.0.2", 7730)
	expect(t, call(t, h, "DELETE", admin("/rest/systems/shop"), ""), 409,
		errJSON("CONFLICT", "System shop still has 2 node(s); delete them first"))

	mustOK(t, h, "DELETE", admin("/rest/nodes/ND-0001/systems/shop"), "")
	expect(t, call(t, h, "DELETE", admin("/rest/systems/shop"), ""), 409,
		errJSON("CONFLICT", "System shop still has 1 node(s); delete them first"))
	mustOK(t, h, "DELETE", admin("/rest/nodes/ND-0002/systems/shop"), "")
	mustOK(t, h, "DELETE", admin("/rest/systems/shop"), "")
	expect(t, call(t, h, "GET", admin("/rest/systems"), ""), 200, `{"systems":[]}`)
}
