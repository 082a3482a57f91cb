package apmsim

import (
	"net/http"
	"testing"
)

func terse(o *Options) { o.OmitOptionalFields = true }

// A terse manager has no nodeId in the node detail, so the name is the id: PUT and DELETE
// take it, per system, and the generated id, which no answer showed, is unknown.
func TestOmitOptionalFieldsNodeIDIsTheName(t *testing.T) {
	h := newTestSim(t, terse).Handler()
	createSystem(t, h, "shop")
	createSystem(t, h, "batch")
	createNode(t, h, "shop", "web-01", "10.0.0.1", 7730)
	createNode(t, h, "batch", "web-01", "10.0.0.9", 7730)

	expect(t, call(t, h, "GET", admin("/rest/nodes/web-01/systems/shop"), ""), http.StatusOK,
		`{"nodeName":"web-01","systemName":"shop","hostIp":"10.0.0.1","agentPort":7730,"status":"running","servers":[]}`)
	mustOK(t, h, "PUT", admin("/rest/nodes/web-01/systems/shop"), `{"hostIp":"10.0.0.2"}`)
	expect(t, call(t, h, "GET", admin("/rest/nodes/web-01/systems/shop"), ""), http.StatusOK,
		`{"nodeName":"web-01","systemName":"shop","hostIp":"10.0.0.2","agentPort":7730,"status":"running","servers":[]}`)
	expect(t, call(t, h, "PUT", admin("/rest/nodes/ND-0001/systems/shop"), `{"agentPort":1}`), http.StatusNotFound,
		errJSON(codeNotFound, "Node not found: ND-0001"))
	expect(t, call(t, h, "DELETE", admin("/rest/nodes/ND-0002/systems/batch"), ""), http.StatusNotFound,
		errJSON(codeNotFound, "Node not found: ND-0002"))

	// The name addresses the node of the path's system only.
	mustOK(t, h, "DELETE", admin("/rest/nodes/web-01/systems/batch"), "")
	expect(t, call(t, h, "GET", admin("/rest/nodes/web-01/systems/batch"), ""), http.StatusNotFound,
		errJSON(codeNotFound, "Node not found: web-01"))
	expect(t, call(t, h, "GET", admin("/rest/nodes/web-01/systems/shop"), ""), http.StatusOK,
		`{"nodeName":"web-01","systemName":"shop","hostIp":"10.0.0.2","agentPort":7730,"status":"running","servers":[]}`)
	expect(t, call(t, h, "DELETE", admin("/rest/nodes/nope/systems/shop"), ""), http.StatusNotFound,
		errJSON(codeNotFound, "Node not found: nope"))
}

// Without the option the detail carries the generated id, which differs from the name, and
// the name does not address the node.
func TestNodeIDIsNotTheNameByDefault(t *testing.T) {
	h := newTestSim(t).Handler()
	createSystem(t, h, "shop")
	createNode(t, h, "shop", "web-01", "10.0.0.1", 7730)
	expect(t, call(t, h, "GET", admin("/rest/nodes/web-01/systems/shop"), ""), http.StatusOK,
		`{"nodeId":"ND-0001","nodeName":"web-01","systemName":"shop","hostIp":"10.0.0.1","agentPort":7730,"status":"running","servers":[]}`)
	expect(t, call(t, h, "PUT", admin("/rest/nodes/web-01/systems/shop"), `{"agentPort":1}`), http.StatusNotFound,
		errJSON(codeNotFound, "Node not found: web-01"))
	expect(t, call(t, h, "DELETE", admin("/rest/nodes/web-01/systems/shop"), ""), http.StatusNotFound,
		errJSON(codeNotFound, "Node not found: web-01"))
}

// The assumption fields of the server details and the message of a refusal are left out,
// not sent as null or empty; the documented fields stay.
func TestOmitOptionalFieldsServers(t *testing.T) {
	h := newTestSim(t, terse, func(o *Options) { o.Seed = SeedDemo }).Handler()
	expect(t, call(t, h, "GET", admin(srvPath("was", "was-01", "web-01", "")), ""), http.StatusOK,
		`{"serverId":"was-01","nodeName":"web-01","systemName":"shop","httpPort":8080,"ajpPort":8009,"serverType":"S","status":"running",`+
			`"javaHome":"/usr/lib/jvm/java-17","installRootPath":"/opt/apm/was/was-01"}`)
	expect(t, call(t, h, "GET", admin(srvPath("was", "was-02", "web-01", "")), ""), http.StatusOK,
		`{"serverId":"was-02","nodeName":"web-01","systemName":"shop","httpPort":8180,"ajpPort":8109,"serverType":"E","status":"stopped",`+
			`"javaHome":"/usr/lib/jvm/java-17","installRootPath":"/opt/apm/was/was-02"}`)
	expect(t, call(t, h, "GET", admin(srvPath("web", "web-01", "web-01", "")), ""), http.StatusOK,
		`{"serverId":"web-01","nodeName":"web-01","systemName":"shop","httpPort":80,"httpsPort":0,"status":"running","installRootPath":"/opt/apm/web/web-01"}`)
	expect(t, call(t, h, "POST", admin(srvPath("was", "was-01", "web-01", "/action")), `{"action":"start"}`), http.StatusOK,
		`{"actionResult":"N"}`)
	// The settings still apply; only the answers are terse.
	mustOK(t, h, "POST", admin(srvPath("was", "was-02", "web-01", "/datasource")), `{"resourceName":"orders-ds"}`)
	expect(t, call(t, h, "POST", admin(srvPath("was", "was-02", "web-01", "/datasource")), `{"resourceName":"orders-ds"}`),
		http.StatusConflict, errJSON(codeConflict, "Datasource already attached: orders-ds"))
}
