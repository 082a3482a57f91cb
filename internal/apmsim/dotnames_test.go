package apmsim

import (
	"strings"
	"testing"
)

// Found by FuzzSimWriteBodies: "." and ".." were accepted as names, but as path segments
// they are cleaned away, so the objects could never be read or deleted afterwards.
func TestDotNamesAreRefused(t *testing.T) {
	h := newTestSim(t, func(o *Options) { o.Seed = SeedDemo }).Handler()
	for _, name := range []string{".", ".."} {
		for _, c := range []struct{ path, body, field string }{
			{"/rest/nodes", `{"nodeName":"` + name + `","systemName":"shop","hostIp":"10.0.0.9","agentPort":7730}`, "nodeName"},
			{"/rest/was/servers", `{"type":"install","serverId":"` + name + `","nodeName":"app-01","systemName":"shop","httpPort":9090}`, "serverId"},
			{"/rest/resource/datasources", `{"resourceName":"` + name + `","databaseResourceName":"reports-db"}`, "resourceName"},
			{"/rest/admin/user", `{"usrId":"` + name + `","usrNm":"x","usrPw":"Passw0rd!x"}`, "usrId"},
			{"/rest/admin/auth", `{"authId":"` + name + `","authNm":"x","actionTypes":["READ"]}`, "authId"},
		} {
			got := call(t, h, "POST", admin(c.path), c.body)
			if got.status != 400 || !strings.Contains(got.body, "Invalid "+c.field+": "+name) {
				t.Errorf("POST %s with %s %q: %d %s, want 400 Invalid %s", c.path, c.field, name, got.status, got.body, c.field)
			}
		}
	}
}
