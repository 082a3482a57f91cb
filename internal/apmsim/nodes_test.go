package apmsim

import (
	"strings"
	"testing"
)

func TestNodeLifecycle(t *testing.T) {
	h := newTestSim(t).Handler()
	createSystem(t, h, "shop")
	createSystem(t, h, "batch")
	expect(t, call(t, h, "GET", admin("/rest/nodes"), ""), 200, `{"nodes":[]}`)

	mustOK(t, h, "POST", admin("/rest/nodes"), `{"nodeName":"web-01","systemName":"shop","hostIp":"10.0.0.1","agentPort":7730}`)
	// agentPort as a numeric string is accepted.
	mustOK(t, h, "POST", admin("/rest/nodes"), `{"nodeName":"app-01","systemName":"shop","hostIp":"2001:db8::1","agentPort":"7731"}`)
	// The same node name in another system is a different node.
	mustOK(t, h, "POST", admin("/rest/nodes"), `{"nodeName":"web-01","systemName":"batch","hostIp":"10.0.0.9","agentPort":1}`)

	expect(t, call(t, h, "GET", admin("/rest/nodes"), ""), 200, `{"nodes":[`+
		`{"nodeName":"web-01","systemName":"batch","hostIp":"10.0.0.9","agentPort":1,"status":"running"},`+
		`{"nodeName":"app-01","systemName":"shop","hostIp":"2001:db8::1","agentPort":7731,"status":"running"},`+
		`{"nodeName":"web-01","systemName":"shop","hostIp":"10.0.0.1","agentPort":7730,"status":"running"}]}`)
	expect(t, call(t, h, "GET", admin("/rest/nodes/web-01/systems/shop"), ""), 200,
		`{"nodeId":"ND-0001","nodeName":"web-01","systemName":"shop","hostIp":"10.0.0.1","agentPort":7730,"status":"running","servers":[]}`)
	expect(t, call(t, h, "GET", admin("/rest/systems"), ""), 200, `{"systems":[`+
		`{"systemId":"SYS-0002","systemName":"batch","nodeCount":1,"webCount":0,"appCount":0,"sessionCount":0,"cacheCount":0},`+
		`{"systemId":"SYS-0001","systemName":"shop","nodeCount":2,"webCount":0,"appCount":0,"sessionCount":0,"cacheCount":0}]}`)

	// Modify by nodeId: each field is optional.
	mustOK(t, h, "PUT", admin("/rest/nodes/ND-0001/systems/shop"), `{"hostIp":"10.0.0.2"}`)
	mustOK(t, h, "PUT", admin("/rest/nodes/ND-0001/systems/shop"), `{"agentPort":65535}`)
	mustOK(t, h, "PUT", admin("/rest/nodes/ND-0001/systems/shop"), `{}`)
	expect(t, call(t, h, "GET", admin("/rest/nodes/web-01/systems/shop"), ""), 200,
		`{"nodeId":"ND-0001","nodeName":"web-01","systemName":"shop","hostIp":"10.0.0.2","agentPort":65535,"status":"running","servers":[]}`)
	mustOK(t, h, "PUT", admin("/rest/nodes/ND-0001/systems/shop"), `{"hostIp":"10.0.0.3","agentPort":"8000"}`)
	expect(t, call(t, h, "GET", admin("/rest/nodes/web-01/systems/shop"), ""), 200,
		`{"nodeId":"ND-0001","nodeName":"web-01","systemName":"shop","hostIp":"10.0.0.3","agentPort":8000,"status":"running","servers":[]}`)

	// Delete by nodeId; the system's count follows.
	mustOK(t, h, "DELETE", admin("/rest/nodes/ND-0001/systems/shop"), "")
	expect(t, call(t, h, "GET", admin("/rest/nodes/web-01/systems/shop"), ""), 404, errJSON("NOT_FOUND", "Node not found: web-01"))
	expect(t, call(t, h, "GET", admin("/rest/systems/shop"), ""), 200,
		`{"systemId":"SYS-0001","systemName":"shop","nodes":[`+
			`{"nodeName":"app-01","hostIp":"2001:db8::1","status":"running"}]}`)
	// The other system's web-01 is untouched.
	expect(t, call(t, h, "GET", admin("/rest/nodes/web-01/systems/batch"), ""), 200,
		`{"nodeId":"ND-0003","nodeName":"web-01","systemName":"batch","hostIp":"10.0.0.9","agentPort":1,"status":"running","servers":[]}`)
}

func TestNodeErrors(t *testing.T) {
	h := newTestSim(t).Handler()
	createSystem(t, h, "shop")
	createSystem(t, h, "batch")
	createNode(t, h, "shop", "web-01", "10.0.0.1", 7730)
	bad := func(msg string) string { return errJSON("BAD_REQUEST", msg) }
	rule := " (allowed: 1-63 characters: letters, digits, '.', '-' and '_')"
	long := strings.Repeat("n", 64)
	node := func(fields string) string {
		return `{"nodeName":"n1","systemName":"shop","hostIp":"10.0.0.5","agentPort":7730,` + fields + `}`
	}
	tests := []struct {
		name, method, path, body string
		status                   int
		want                     string
	}{
		{"missing nodeName", "POST", "/rest/nodes", `{"systemName":"shop","hostIp":"10.0.0.5","agentPort":1}`, 400, bad("nodeName is required")},
		{"missing systemName", "POST", "/rest/nodes", `{"nodeName":"n1","hostIp":"10.0.0.5","agentPort":1}`, 400, bad("systemName is required")},
		{"missing hostIp", "POST", "/rest/nodes", `{"nodeName":"n1","systemName":"shop","agentPort":1}`, 400, bad("hostIp is required")},
		{"missing agentPort", "POST", "/rest/nodes", `{"nodeName":"n1","systemName":"shop","hostIp":"10.0.0.5"}`, 400, bad("agentPort is required")},
		{"null agentPort", "POST", "/rest/nodes", node(`"agentPort":null`), 400, bad("agentPort is required")},
		{"empty body object", "POST", "/rest/nodes", `{}`, 400, bad("nodeName is required")},
		{"nodeName 64 characters", "POST", "/rest/nodes", node(`"nodeName":"` + long + `"`), 400, bad("Invalid nodeName: " + long + rule)},
		{"nodeName with space", "POST", "/rest/nodes", node(`"nodeName":"web 01"`), 400, bad("Invalid nodeName: web 01" + rule)},
		{"nodeName with slash", "POST", "/rest/nodes", node(`"nodeName":"a/b"`), 400, bad("Invalid nodeName: a/b" + rule)},
		{"hostIp a name", "POST", "/rest/nodes", node(`"hostIp":"web.example"`), 400, bad("Invalid hostIp: web.example")},
		{"hostIp out of range", "POST", "/rest/nodes", node(`"hostIp":"300.1.1.1"`), 400, bad("Invalid hostIp: 300.1.1.1")},
		{"hostIp short", "POST", "/rest/nodes", node(`"hostIp":"10.0.0"`), 400, bad("Invalid hostIp: 10.0.0")},
		{"hostIp with port", "POST", "/rest/nodes", node(`"hostIp":"10.0.0.1:80"`), 400, bad("Invalid hostIp: 10.0.0.1:80")},
		{"agentPort 0", "POST", "/rest/nodes", node(`"agentPort":0`), 400, bad("agentPort must be between 1 and 65535")},
		{"agentPort 65536", "POST", "/rest/nodes", node(`"agentPort":65536`), 400, bad("agentPort must be between 1 and 65535")},
		{"agentPort negative", "POST", "/rest/nodes", node(`"agentPort":-1`), 400, bad("agentPort must be between 1 and 65535")},
		{"agentPort huge", "POST", "/rest/nodes", node(`"agentPort":1e30`), 400, bad("agentPort must be between 1 and 65535")},
		{"agentPort fraction", "POST", "/rest/nodes", node(`"agentPort":1.5`), 400, bad("agentPort must be an integer")},
		{"agentPort word", "POST", "/rest/nodes", node(`"agentPort":"abc"`), 400, bad("agentPort must be an integer")},
		{"agentPort bool", "POST", "/rest/nodes", node(`"agentPort":true`), 400, bad("agentPort must be an integer")},
		{"agentPort string 0", "POST", "/rest/nodes", node(`"agentPort":"0"`), 400, bad("agentPort must be between 1 and 65535")},
		{"unknown system", "POST", "/rest/nodes", node(`"systemName":"nope"`), 404, errJSON("NOT_FOUND", "System not found: nope")},
		{"duplicate", "POST", "/rest/nodes", node(`"nodeName":"web-01"`), 409, errJSON("CONFLICT", "Node already exists: web-01")},
		{"get unknown node", "GET", "/rest/nodes/nope/systems/shop", "", 404, errJSON("NOT_FOUND", "Node not found: nope")},
		{"get unknown system", "GET", "/rest/nodes/web-01/systems/nope", "", 404, errJSON("NOT_FOUND", "System not found: nope")},
		{"get node of other system", "GET", "/rest/nodes/web-01/systems/batch", "", 404, errJSON("NOT_FOUND", "Node not found: web-01")},
		{"modify by name", "PUT", "/rest/nodes/web-01/systems/shop", `{"agentPort":1}`, 404, errJSON("NOT_FOUND", "Node not found: web-01")},
		{"modify other system", "PUT", "/rest/nodes/ND-0001/systems/batch", `{"agentPort":1}`, 404, errJSON("NOT_FOUND", "Node not found: ND-0001")},
		{"modify unknown system", "PUT", "/rest/nodes/ND-0001/systems/nope", `{"agentPort":1}`, 404, errJSON("NOT_FOUND", "System not found: nope")},
		{"modify bad ip", "PUT", "/rest/nodes/ND-0001/systems/shop", `{"hostIp":"x"}`, 400, bad("Invalid hostIp: x")},
		{"modify empty ip", "PUT", "/rest/nodes/ND-0001/systems/shop", `{"hostIp":""}`, 400, bad("hostIp must not be empty")},
		{"modify port 0", "PUT", "/rest/nodes/ND-0001/systems/shop", `{"agentPort":0}`, 400, bad("agentPort must be between 1 and 65535")},
		{"modify port 65536", "PUT", "/rest/nodes/ND-0001/systems/shop", `{"agentPort":65536}`, 400, bad("agentPort must be between 1 and 65535")},
		{"delete by name", "DELETE", "/rest/nodes/web-01/systems/shop", "", 404, errJSON("NOT_FOUND", "Node not found: web-01")},
		{"delete other system", "DELETE", "/rest/nodes/ND-0001/systems/batch", "", 404, errJSON("NOT_FOUND", "Node not found: ND-0001")},
		{"delete unknown system", "DELETE", "/rest/nodes/ND-0001/systems/nope", "", 404, errJSON("NOT_FOUND", "System not found: nope")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			expect(t, call(t, h, tc.method, admin(tc.path), tc.body), tc.status, tc.want)
		})
	}
	// None of the failures changed anything.
	expect(t, call(t, h, "GET", admin("/rest/nodes"), ""), 200,
		`{"nodes":[{"nodeName":"web-01","systemName":"shop","hostIp":"10.0.0.1","agentPort":7730,"status":"running"}]}`)
}

func TestNodeAcceptedValues(t *testing.T) {
	h := newTestSim(t).Handler()
	createSystem(t, h, "s")
	for _, tc := range []struct{ name, ip, port string }{
		{strings.Repeat("n", 63), "10.0.0.1", "1"},
		{"a.b-c_D9", "::1", "65535"},
		{"float-port", "192.168.0.1", "8080.0"},
		{"string-port", "fe80::1", `"443"`},
	} {
		mustOK(t, h, "POST", admin("/rest/nodes"),
			`{"nodeName":"`+tc.name+`","systemName":"s","hostIp":"`+tc.ip+`","agentPort":`+tc.port+`}`)
	}
	expect(t, call(t, h, "GET", admin("/rest/nodes/float-port/systems/s"), ""), 200,
		`{"nodeId":"ND-0003","nodeName":"float-port","systemName":"s","hostIp":"192.168.0.1","agentPort":8080,"status":"running","servers":[]}`)
	expect(t, call(t, h, "GET", admin("/rest/nodes/string-port/systems/s"), ""), 200,
		`{"nodeId":"ND-0004","nodeName":"string-port","systemName":"s","hostIp":"fe80::1","agentPort":443,"status":"running","servers":[]}`)
}
