package apmsim

import (
	"net/http"
	"testing"
)

// One license per node, sorted like the nodes; the plan cycles with the node number, and
// the expiry date counts from the node's registration day (testClock: 2024-05-06).
func TestLicenses(t *testing.T) {
	h := newTestSim(t, func(o *Options) { o.Seed = SeedDemo }).Handler()
	expect(t, call(t, h, "GET", viewer("/rest/licenses"), ""), http.StatusOK, `{"licenses":[`+
		`{"nodeName":"app-01","licenseType":"Enterprise","expireDate":"2025-05-06","maxCpu":32},`+
		`{"nodeName":"web-01","licenseType":"Standard","expireDate":"2024-05-26","maxCpu":8}]}`)

	// A third node gets the expired trial; a node's license goes with it.
	createNode(t, h, "batch", "b-01", "10.0.0.21", 7730)
	mustOK(t, h, "DELETE", admin("/rest/nodes/ND-0002/systems/shop"), "")
	expect(t, call(t, h, "GET", viewer("/rest/licenses"), ""), http.StatusOK, `{"licenses":[`+
		`{"nodeName":"b-01","licenseType":"Trial","expireDate":"2024-04-29","maxCpu":4},`+
		`{"nodeName":"web-01","licenseType":"Standard","expireDate":"2024-05-26","maxCpu":8}]}`)

	expect(t, call(t, newTestSim(t).Handler(), "GET", viewer("/rest/licenses"), ""), http.StatusOK, `{"licenses":[]}`)
}
