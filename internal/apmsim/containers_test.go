package apmsim

import (
	"net/http"
	"testing"
)

func TestContainerLists(t *testing.T) {
	demo := newTestSim(t, func(o *Options) { o.Seed = SeedDemo }).Handler()
	expect(t, call(t, demo, "GET", viewer("/rest/was/container/servers"), ""), http.StatusOK, `{"containerList":[`+
		`{"serverId":"cwas-01","serverName":"shop-was-0","containerIp":"172.20.0.11","httpPort":8080},`+
		`{"serverId":"cwas-02","serverName":"shop-was-1","containerIp":"172.20.0.12","httpPort":8080},`+
		`{"serverId":"cwas-03","serverName":"shop-was-2","containerIp":"172.20.0.13","httpPort":8080}]}`)
	expect(t, call(t, demo, "GET", viewer("/rest/web/container/servers"), ""), http.StatusOK, `{"containerList":[`+
		`{"serverId":"cweb-01","serverName":"shop-web-0","containerIp":"172.20.1.11","httpPort":80},`+
		`{"serverId":"cweb-02","serverName":"shop-web-1","containerIp":"172.20.1.12","httpPort":80}]}`)

	empty := newTestSim(t).Handler()
	for _, p := range []string{"/rest/was/container/servers", "/rest/web/container/servers"} {
		expect(t, call(t, empty, "GET", viewer(p), ""), http.StatusOK, `{"containerList":[]}`)
	}
	expect(t, call(t, empty, "GET", "/rest/web/container/servers", ""), http.StatusUnauthorized, errJSON(codeUnauthorized, "Unauthorized"))
}

// A container's host name is its serverName, and each kind's metrics know only the
// containers of its own list.
func TestContainerMetrics(t *testing.T) {
	h := newTestSim(t, func(o *Options) { o.Seed = SeedDemo }).Handler()
	for _, c := range demoContainers[containerKindWAS] {
		got := getAs[wasContainerMetersJSON](t, h, "/meters/was/container/"+c.ServerName)
		if got.HostName != c.ServerName || got.CPU < 1 || got.MemoryUsed > got.MemoryMax || got.ThreadCount < 20 {
			t.Errorf("%s: %+v", c.ServerName, got)
		}
		expect(t, call(t, h, "GET", viewer("/meters/web/container/"+c.ServerName), ""), http.StatusNotFound,
			errJSON(codeNotFound, "Container not found: "+c.ServerName))
	}
	for _, c := range demoContainers[containerKindWeb] {
		got := getAs[webContainerMetersJSON](t, h, "/meters/web/container/"+c.ServerName)
		if got.HostName != c.ServerName || got.RequestsPerSec < 2 || got.Connections == 0 {
			t.Errorf("%s: %+v", c.ServerName, got)
		}
		expect(t, call(t, h, "GET", viewer("/meters/was/container/"+c.ServerName), ""), http.StatusNotFound,
			errJSON(codeNotFound, "Container not found: "+c.ServerName))
	}
	// serverId is not a host name.
	expect(t, call(t, h, "GET", viewer("/meters/was/container/cwas-01"), ""), http.StatusNotFound,
		errJSON(codeNotFound, "Container not found: cwas-01"))
}
