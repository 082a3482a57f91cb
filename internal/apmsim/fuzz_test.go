package apmsim_test

// Fuzz targets for the sim's request decoding: arbitrary bodies, content types, names
// (in the path and in identifier fields) and query strings go through the real handler of
// a fresh demo world, one request per input. Properties:
//   - the handler never panics and never answers 500: bad input must give a 4xx;
//   - the status is one of 200, 400, 404, 409, 413 and 415 (never 405 for these routes);
//     415 exactly when the Content-Type is not JSON; what is accepted (200) or gets as far
//     as a conflict (409) is one JSON object;
//   - the answer is JSON: an ActionResult ({"actionResult":"Y"}, or "N" with a message) or
//     the list the route answers, or exactly {"error": non-empty, "code": the status's code};
//   - afterwards: after "Y" the world is consistent (checkWorld in property_test.go: every
//     list and every listed object's detail answers 200 JSON and the views agree); after
//     anything else it is unchanged (lists and the route's object, see worldFingerprint);
//     and a write left exactly one entry in the action trace log.
//
// Run one target at a time, e.g.
//
//	go test -run '^$' -fuzz '^FuzzSimWriteBodies$' -fuzztime 30s ./internal/apmsim/
//
// scripts/fuzz.sh runs each briefly. Without -fuzz, go test runs the seed corpus below.

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"math/big"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apmplatform/terraform-provider-apm/internal/apmsim"
)

const fuzzAdminKey = "fuzz-admin-key"

// fuzzClock is fixed, so that one input always meets the same world and gives the same
// answer (a failing input must reproduce).
func fuzzClock() time.Time { return time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC) }

// newFuzzSim returns a fresh demo world (servers settle at once) and the trace log length.
func newFuzzSim(t *testing.T) (simAPI, int) {
	t.Helper()
	sim, err := apmsim.New(apmsim.Options{AdminKey: fuzzAdminKey, Seed: apmsim.SeedDemo, TransitionDelay: -1, Clock: fuzzClock})
	if err != nil {
		t.Fatal(err)
	}
	api := simAPI{h: sim.Handler(), key: fuzzAdminKey}
	n, err := traceLogLen(api)
	if err != nil {
		t.Fatal(err)
	}
	return api, n
}

// fingerprintLists are the lists whose bodies, with one route-specific detail, make up a
// world's fingerprint.
var fingerprintLists = []string{
	"/rest/systems", "/rest/nodes", "/rest/was/servers", "/rest/web/servers", "/rest/session/servers",
	"/rest/resource/databases", "/rest/resource/datasources", "/rest/admin/users", "/rest/admin/auth",
	"/rest/notification",
}

// worldFingerprint is the text of the lists and of detail (if not ""): two worlds with the
// same fingerprint look the same to every reader of those paths. The action trace log is
// left out (every write adds to it).
func worldFingerprint(a simAPI, detail string) (string, error) {
	var b strings.Builder
	paths := fingerprintLists
	if detail != "" {
		paths = append(slices.Clone(paths), detail)
	}
	for _, p := range paths {
		r := a.send(http.MethodGet, p, "", nil, "")
		if r.status != http.StatusOK {
			return "", fmt.Errorf("GET %s: %s", p, r)
		}
		fmt.Fprintf(&b, "GET %s\n%s\n", p, r.body)
	}
	return b.String(), nil
}

// pristine caches the fingerprints of a fresh demo world by detail path; the world is the
// same every time (fixed seed and clock), and it is checked with checkWorld once.
var pristine = struct {
	sync.Mutex
	checked bool
	byPath  map[string]string
}{byPath: map[string]string{}}

func pristineFingerprint(t *testing.T, detail string) string {
	t.Helper()
	pristine.Lock()
	defer pristine.Unlock()
	if fp, ok := pristine.byPath[detail]; ok {
		return fp
	}
	api, _ := newFuzzSim(t)
	if !pristine.checked {
		if err := checkWorld(api); err != nil {
			t.Fatalf("the demo world is inconsistent before any write: %v", err)
		}
		pristine.checked = true
	}
	fp, err := worldFingerprint(api, detail)
	if err != nil {
		t.Fatal(err)
	}
	pristine.byPath[detail] = fp
	return fp
}

// checkAfterWrite checks the world after a write answered r (already checked by
// checkWriteAnswer): after {"actionResult":"Y"} it must be consistent (checkWorld); after
// anything else (an error, or a refusal with actionResult N) it must be unchanged. Either
// way the action trace log has one more entry.
func checkAfterWrite(t *testing.T, api simAPI, r simResp, what, detail string, logLen int) {
	t.Helper()
	var ar struct {
		ActionResult string `json:"actionResult"`
	}
	if r.status == http.StatusOK && json.Unmarshal(r.body, &ar) == nil && ar.ActionResult == "Y" {
		if err := checkWorld(api); err != nil {
			t.Fatalf("after %s -> %d %s: world inconsistent: %v", what, r.status, r.body, err)
		}
	} else {
		fp, err := worldFingerprint(api, detail)
		if err != nil {
			t.Fatalf("after %s -> %d %s: %v", what, r.status, r.body, err)
		}
		if want := pristineFingerprint(t, detail); fp != want {
			t.Fatalf("%s answered %d %s, yet changed the world: %s", what, r.status, r.body, firstDifference(want, fp))
		}
	}
	if n, err := traceLogLen(api); err != nil || n != logLen+1 {
		t.Fatalf("after %s: action trace log has %d entries (%v), want %d", what, n, err, logLen+1)
	}
}

// firstDifference shows the first line where got differs from want.
func firstDifference(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range min(len(wl), len(gl)) {
		if wl[i] != gl[i] {
			ctx := ""
			if i > 0 {
				ctx = wl[i-1] + ": "
			}
			return fmt.Sprintf("%swas %s, now %s", ctx, wl[i], gl[i])
		}
	}
	return fmt.Sprintf("%d lines before, %d now", len(wl), len(gl))
}

// fuzzRoute is an endpoint of the demo world. pattern may hold one "{}", filled with the
// fuzzed name (escaped as one path segment) or, when that is empty, with name.
type fuzzRoute struct {
	method, pattern, name, query string
}

// fuzzNamePlaceholder in a body stands for the fuzzed name (JSON-escaped), so that the
// identifier fields of creates get short string mutations, not only byte mutations of the
// whole body.
const fuzzNamePlaceholder = "@name@"

// fillName puts name into body in place of fuzzNamePlaceholder.
func fillName(body []byte, name string) []byte {
	if !bytes.Contains(body, []byte(fuzzNamePlaceholder)) {
		return body
	}
	quoted, err := json.Marshal(name)
	if err != nil {
		panic(err) // strings always marshal
	}
	return bytes.ReplaceAll(body, []byte(fuzzNamePlaceholder), quoted[1:len(quoted)-1])
}

func (r fuzzRoute) path(name string) string {
	if name == "" {
		name = r.name
	}
	return strings.Replace(r.pattern, "{}", url.PathEscape(name), 1)
}

func (r fuzzRoute) String() string { return r.method + " " + r.pattern }

const (
	fuzzWAS = "/rest/was/servers/{}/nodes/web-01/systems/shop"
	fuzzWeb = "/rest/web/servers/{}/nodes/web-01/systems/shop"
)

// fuzzWriteRoutes are the write endpoints FuzzSimWriteBodies sends bodies to; the fuzzed
// route number picks one (modulo the length). Append only: the numbers are in the corpus.
var fuzzWriteRoutes = []fuzzRoute{
	{method: "POST", pattern: "/rest/systems"},                                                         // 0
	{method: "PUT", pattern: "/rest/systems/{}", name: "batch"},                                        // 1
	{method: "POST", pattern: "/rest/nodes"},                                                           // 2
	{method: "PUT", pattern: "/rest/nodes/{}/systems/shop", name: "ND-0002"},                           // 3
	{method: "POST", pattern: "/rest/was/servers"},                                                     // 4
	{method: "POST", pattern: "/rest/web/servers"},                                                     // 5
	{method: "POST", pattern: "/rest/session/servers"},                                                 // 6
	{method: "PUT", pattern: fuzzWAS, name: "was-01"},                                                  // 7
	{method: "POST", pattern: fuzzWAS + "/action", name: "was-02"},                                     // 8
	{method: "PUT", pattern: fuzzWeb + "/worker", name: "web-01"},                                      // 9
	{method: "POST", pattern: fuzzWeb + "/ssl", name: "web-02"},                                        // 10
	{method: "PUT", pattern: fuzzWeb + "/uri", name: "web-01", query: "type=create"},                   // 11
	{method: "POST", pattern: fuzzWAS + "/session", name: "was-02"},                                    // 12
	{method: "POST", pattern: fuzzWAS + "/datasource", name: "was-02"},                                 // 13
	{method: "POST", pattern: fuzzWAS + "/application", name: "was-02"},                                // 14
	{method: "POST", pattern: fuzzWAS + "/resource", name: "was-02"},                                   // 15
	{method: "POST", pattern: "/rest/resource/databases"},                                              // 16
	{method: "POST", pattern: "/rest/resource/datasources"},                                            // 17
	{method: "PUT", pattern: "/rest/resource/datasource/{}", name: "orders-ds"},                        // 18
	{method: "POST", pattern: "/rest/admin/user"},                                                      // 19
	{method: "PUT", pattern: "/rest/admin/user/{}", name: "operator"},                                  // 20
	{method: "POST", pattern: "/rest/admin/user/{}/auth/grant", name: "operator"},                      // 21
	{method: "POST", pattern: "/rest/admin/auth"},                                                      // 22
	{method: "PUT", pattern: "/rest/admin/auth/{}", name: "auditors"},                                  // 23
	{method: "PUT", pattern: "/rest/session/servers/{}/nodes/web-01/systems/shop", name: "session-01"}, // 24
	{method: "POST", pattern: "/rest/admin/user/{}/auth/revoke", name: "ops.admin"},                    // 25
}

// fuzzRouteDetails names, per write route, the detail that shows what the route changes
// beyond the lists (see worldFingerprint).
var fuzzRouteDetails = map[int]string{
	1:  "/rest/systems/batch",
	3:  "/rest/nodes/app-01/systems/shop",
	7:  "/rest/was/servers/was-01/nodes/web-01/systems/shop",
	8:  "/rest/was/servers/was-02/nodes/web-01/systems/shop",
	9:  "/rest/web/servers/web-01/nodes/web-01/systems/shop",
	10: "/rest/web/servers/web-02/nodes/web-01/systems/shop",
	11: "/rest/web/servers/web-01/nodes/web-01/systems/shop",
	12: "/rest/was/servers/was-02/nodes/web-01/systems/shop",
	13: "/rest/was/servers/was-02/nodes/web-01/systems/shop",
	14: "/rest/was/servers/was-02/nodes/web-01/systems/shop/applications/status",
	15: "/rest/was/servers/was-02/nodes/web-01/systems/shop",
	18: "/rest/resource/datasources/orders-ds",
	20: "/rest/admin/user/operator",
	21: "/rest/admin/user/operator",
	23: "/rest/admin/auth/auditors",
	24: "/rest/session/servers/session-01/nodes/web-01/systems/shop",
	25: "/rest/admin/user/ops.admin",
}

// fuzzWriteSeeds are valid and near-valid bodies per route (by number).
var fuzzWriteSeeds = map[int][]string{
	0: {`{"systemName":"s1"}`, `{"systemName":"shop"}`, `{"systemName":""}`, `{"systemName":null}`, `{"systemName":7}`,
		`{"systemName":"a-b_c"}`, `{"systemName":"123456789012345678901"}`, `{"systemName":"s1"} {}`, `[{"systemName":"s1"}]`,
		`{"systemName":"s\u00e9"}`, ` {"systemName":"s1","x":[1,{"y":null}]} `, `{"systemName":"s1"`, `{}`, ``, `null`},
	1: {`{"systemName":"b2"}`, `{"systemName":"batch"}`, `{"systemName":"shop"}`, `{"systemName":"bad name"}`},
	2: {`{"nodeName":"n1","systemName":"batch","hostIp":"10.0.0.9","agentPort":7730}`,
		`{"nodeName":"n1","systemName":"shop","hostIp":"::1","agentPort":"7730"}`,
		`{"nodeName":"web-01","systemName":"shop","hostIp":"10.0.0.9","agentPort":7730}`,
		`{"nodeName":"n1","systemName":"shop","hostIp":"10.0.0.9","agentPort":7730.0}`,
		`{"nodeName":"n1","systemName":"shop","hostIp":"10.0.0.9","agentPort":7730.5}`,
		`{"nodeName":"n1","systemName":"shop","hostIp":"10.0.0.9","agentPort":1e99}`,
		`{"nodeName":"n1","systemName":"shop","hostIp":"10.0.0.9","agentPort":"-1"}`,
		`{"nodeName":"n1","systemName":"shop","hostIp":"host.example","agentPort":7730}`,
		`{"nodeName":"n.1","systemName":"nope","hostIp":"10.0.0.9","agentPort":true}`,
		`{"nodeName":"a..b","systemName":"shop","hostIp":"10.0.0.9","agentPort":7730}`,
		`{"nodeName":"n1","systemName":"shop","hostIp":"10.0.0.9"}`},
	3: {`{"hostIp":"10.9.9.9"}`, `{"agentPort":"8000"}`, `{"hostIp":"","agentPort":null}`, `{"agentPort":65536}`, `{}`},
	4: {`{"type":"install","serverId":"was-03","nodeName":"app-01","systemName":"shop","httpPort":8080,"ajpPort":8009,"serverType":"E","installRootPath":"/opt/w"}`,
		`{"type":"register","serverId":"was-reg-1","nodeName":"app-01","systemName":"shop","httpPort":"18080"}`,
		`{"type":"register","serverId":"was-reg-1","nodeName":"web-01","systemName":"shop","httpPort":18080,"installRootPath":"/x"}`,
		`{"type":"install","serverId":"was-01","nodeName":"web-01","systemName":"shop","httpPort":8080}`,
		`{"type":"install","serverId":"was-03","nodeName":"web-01","systemName":"shop","httpPort":8080}`,
		`{"type":"install","serverId":"register","nodeName":"web-01","systemName":"shop","httpPort":9}`,
		`{"type":"install","serverId":"w","nodeName":"web-01","systemName":"shop","httpPort":1,"ajpPort":1}`,
		`{"type":"install","serverId":"w.1","nodeName":"app-01","systemName":"shop","httpPort":1}`,
		`{"type":"install","serverId":"w","nodeName":"web-01","systemName":"shop","httpPort":1,"serverType":"X"}`,
		`{"type":"upgrade","serverId":"w","nodeName":"web-01","systemName":"shop","httpPort":1}`},
	5: {`{"type":"install","serverId":"web-03","nodeName":"app-01","systemName":"shop","httpPort":80,"httpsPort":443}`,
		`{"type":"register","serverId":"web-reg-1","nodeName":"web-01","systemName":"shop","httpPort":10080}`,
		`{"type":"install","serverId":"web-03","nodeName":"web-01","systemName":"shop","httpPort":80}`},
	6: {`{"type":"install","serverId":"session-02","nodeName":"app-01","systemName":"shop","serverPort":5181}`,
		`{"type":"register","serverId":"session-reg-1","nodeName":"app-01","systemName":"shop","serverPort":15180}`,
		`{"type":"install","serverId":"session-02","nodeName":"web-01","systemName":"shop","serverPort":5180}`},
	7: {`{"httpPort":8081,"ajpPort":8010,"javaHome":"/usr/lib/jvm/java-21"}`, `{"httpPort":8180}`, `{"javaHome":"relative"}`,
		`{"ajpPort":"8080"}`, `{"httpPort":null,"ajpPort":""}`},
	8: {`{"action":"start"}`, `{"action":"stop","force":true}`, `{"action":"stop"}`, `{"action":"restart"}`, `{"action":"start","force":"yes"}`},
	9: {`{"workers":[{"serverId":"was-01","nodeName":"web-01","systemName":"shop"}]}`,
		`{"workers":[{"serverId":"was-02","nodeName":"web-01","systemName":"shop","host":"10.0.0.1","ajpPort":8109,"lbFactor":"100"}]}`,
		`{"workers":[{"serverId":"was-02","nodeName":"web-01","systemName":"shop"}]}`,
		`{"workers":[{"serverId":"was-01","nodeName":"web-01","systemName":"shop"},{"serverId":"was-01","nodeName":"web-01","systemName":"shop"}]}`,
		`{"workers":[{"serverId":"was-01","nodeName":"web-01","systemName":"shop","lbFactor":0}]}`,
		`{"workers":[]}`, `{"workers":null}`, `{"workers":{}}`, `{"workers":[null]}`, `{"workers":[1]}`},
	10: {`{"httpsPort":"8443","certificatePem":"x","privateKeyPem":"y"}`, `{"httpsPort":8081,"certificatePem":"x","privateKeyPem":"y"}`},
	11: {`{"uris":["/a/*","/b"]}`, `{"uris":[]}`, `{"uris":["nope"]}`, `{"uris":"/a"}`, `{"uris":[null]}`},
	12: {`{"primaryHost":"10.0.0.1","primaryPort":5180}`,
		`{"primaryHost":"10.0.0.1","primaryPort":5180,"secondaryHost":"10.0.0.2","secondaryPort":"5181"}`,
		`{"primaryHost":"10.0.0.1","primaryPort":5180,"secondaryHost":"10.0.0.2"}`,
		`{"primaryHost":"","primaryPort":0}`},
	13: {`{"resourceName":"orders-ds"}`, `{"resourceName":"nope"}`, `{"resourceName":""}`},
	14: {`{"contextPath":"/app","sourcePath":"/opt/app.war"}`, `{"contextPath":"/","sourcePath":"/a.war","applicationName":"root"}`,
		`{"contextPath":"app","sourcePath":"/a.war"}`, `{"contextPath":"/app","sourcePath":"a.war"}`},
	15: {`{"resourceType":"datasource","resourceName":"orders-ds"}`, `{"resourceType":"JMS","resourceName":"q"}`,
		`{"resourceType":"datasource","resourceName":"nope"}`, `{"resourceType":"ldap","resourceName":"q"}`},
	16: {`{"resourceName":"db1","databaseType":"mysql","host":"db.example","port":3306,"databaseName":"d","userName":"u","password":"p"}`,
		`{"resourceName":"db1","databaseType":"Oracle","host":"10.0.0.1","port":"1521","databaseName":"d","userName":"u","password":"p"}`,
		`{"resourceName":"orders-db","databaseType":"MySQL","host":"db","port":3306,"databaseName":"d","userName":"u","password":"p"}`,
		`{"resourceName":"db1","databaseType":"Mongo","host":"-db-","port":0,"databaseName":"d","userName":"u","password":"p"}`,
		`{"resourceName":"db1","databaseType":"MySQL","host":"db..example","port":3306,"databaseName":"d","userName":"u"}`},
	17: {`{"resourceName":"ds1","databaseResourceName":"reports-db"}`,
		`{"resourceName":"ds1","databaseResourceName":"reports-db","minPoolSize":"5","maxPoolSize":2}`,
		`{"resourceName":"ds1","databaseResourceName":"reports-db","minPoolSize":20,"initialPoolSize":30,"maxWait":-1}`,
		`{"resourceName":"ds1","databaseResourceName":"nope"}`, `{"resourceName":"orders-ds","databaseResourceName":"orders-db"}`,
		`{"resourceName":"ds.1","databaseResourceName":"orders-db"}`},
	18: {`{"minPoolSize":1,"maxPoolSize":30}`, `{"maxPoolSize":1}`, `{"initialPoolSize":"7","maxWait":"0"}`, `{"minPoolSize":-1}`,
		`{"maxPoolSize":1e10}`, `{}`},
	19: {`{"usrId":"u1","usrNm":"User One","usrPw":"Passw0rd!"}`, `{"usrId":"u1","usrNm":" ","usrPw":"Passw0rd!"}`,
		`{"usrId":"u1","usrNm":"U","usrPw":"short"}`, `{"usrId":"operator","usrNm":"U","usrPw":"Passw0rd!"}`,
		`{"usrId":"u1","usrNm":"U","usrPw":"Pass\u0000w0rd!"}`, `{"usrId":"u 1","usrNm":"U","usrPw":"Passw0rd!"}`},
	20: {`{"usrNm":"New Name"}`, `{"usrPw":"N3w-Passw0rd"}`, `{"usrNm":""}`, `{"usrPw":"nodigits!"}`},
	21: {`{"authId":"auditors"}`, `{"authId":"nope"}`, `{"authId":""}`},
	22: {`{"authId":"r1","authNm":"Role","actionTypes":["read","WRITE"," execute "]}`, `{"authId":"r1","authNm":"Role","actionTypes":[]}`,
		`{"authId":"r1","authNm":"Role","actionTypes":"READ"}`, `{"authId":"admins","authNm":"Role","actionTypes":["READ"]}`,
		`{"authId":"r1","authNm":"Role","actionTypes":["DELETE"]}`, `{"authId":"r1","authNm":"Role"}`},
	23: {`{"authNm":"Audit","actionTypes":["READ","EXECUTE"],"description":""}`, `{"actionTypes":null}`, `{"authNm":"  "}`},
	24: {`{"serverPort":5190}`, `{"serverPort":8080}`, `{"serverPort":0}`},
	25: {`{"authId":"admins"}`, `{"authId":"auditors"}`},
}

// fuzzNamedSeeds are bodies with fuzzNamePlaceholder and the name to fill in; for routes
// with a name in the path, the name goes there too.
var fuzzNamedSeeds = []struct {
	route      int
	name, body string
}{
	{0, "s1", `{"systemName":"@name@"}`},
	{1, "batch", `{"systemName":"@name@-2"}`},
	{2, "n1", `{"nodeName":"@name@","systemName":"shop","hostIp":"10.0.0.9","agentPort":7730}`},
	{2, "n1", `{"nodeName":"n1","systemName":"shop","hostIp":"@name@","agentPort":7730}`},
	{4, "w1", `{"type":"install","serverId":"@name@","nodeName":"app-01","systemName":"shop","httpPort":8080}`},
	{4, "/opt/w1", `{"type":"install","serverId":"w1","nodeName":"app-01","systemName":"shop","httpPort":8080,"installRootPath":"@name@"}`},
	{5, "w1", `{"type":"install","serverId":"@name@","nodeName":"app-01","systemName":"shop","httpPort":8080}`},
	{6, "w1", `{"type":"install","serverId":"@name@","nodeName":"app-01","systemName":"shop","serverPort":8080}`},
	{7, "was-01", `{"javaHome":"/opt/@name@"}`},
	{9, "web-01", `{"workers":[{"serverId":"was-01","nodeName":"web-01","systemName":"shop","host":"@name@"}]}`},
	{11, "web-01", `{"uris":["/@name@/*"]}`},
	{12, "was-02", `{"primaryHost":"@name@","primaryPort":5180}`},
	{14, "was-02", `{"contextPath":"/@name@","sourcePath":"/opt/app.war"}`},
	{16, "db1", `{"resourceName":"@name@","databaseType":"MySQL","host":"db.example","port":3306,"databaseName":"d","userName":"u","password":"p"}`},
	{16, "db.example", `{"resourceName":"db1","databaseType":"MySQL","host":"@name@","port":3306,"databaseName":"d","userName":"u","password":"p"}`},
	{17, "ds1", `{"resourceName":"@name@","databaseResourceName":"reports-db"}`},
	{19, "u1", `{"usrId":"@name@","usrNm":"User One","usrPw":"Passw0rd!"}`},
	{19, "Passw0rd!", `{"usrId":"u1","usrNm":"User One","usrPw":"@name@"}`},
	{20, "operator", `{"usrNm":"@name@"}`},
	{22, "r1", `{"authId":"@name@","authNm":"Role","actionTypes":["READ"]}`},
	{22, "READ", `{"authId":"r1","authNm":"Role","actionTypes":["@name@"]}`},
}

// sslSeedBody is a valid SSL body with a fresh self-signed certificate and its key.
func sslSeedBody(f *testing.F) string {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		f.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "fuzz"},
		NotBefore: fuzzClock().Add(-time.Hour), NotAfter: fuzzClock().Add(time.Hour), DNSNames: []string{"fuzz"},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		f.Fatal(err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		f.Fatal(err)
	}
	body, err := json.Marshal(map[string]any{
		"httpsPort":      8443,
		"certificatePem": string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})),
		"privateKeyPem":  string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER})),
	})
	if err != nil {
		f.Fatal(err)
	}
	return string(body)
}

// FuzzSimWriteBodies sends one write with a fuzzed body, content type and name (in the
// path where the route has one, and in the body in place of fuzzNamePlaceholder) to a
// fresh demo world.
func FuzzSimWriteBodies(f *testing.F) {
	for route, bodies := range fuzzWriteSeeds {
		for _, b := range bodies {
			f.Add(uint8(route), "", "", []byte(b))
		}
	}
	for _, sd := range fuzzNamedSeeds {
		f.Add(uint8(sd.route), sd.name, "", []byte(sd.body))
		if strings.Contains(sd.body, `Id":"@name@"`) || strings.Contains(sd.body, `Name":"@name@"`) {
			// Identifiers at the edges of the name rules.
			for _, edge := range []string{".n", "n.", "-", "_", strings.Repeat("n", 64)} {
				f.Add(uint8(sd.route), edge, "", []byte(sd.body))
			}
		}
	}
	f.Add(uint8(10), "", "", []byte(sslSeedBody(f)))
	// Content types and path names.
	for _, ct := range []string{"application/json; charset=utf-8", "application/vnd.apm+json", "text/plain", "application/json; ===", "multipart/form-data; boundary=x"} {
		f.Add(uint8(0), "", ct, []byte(`{"systemName":"s1"}`))
	}
	for _, name := range []string{"shop", "nope", "a/b", "..", ".", "%2F", " ", "register", "ND-0001"} {
		f.Add(uint8(1), name, "", []byte(`{"systemName":"b2"}`))
		f.Add(uint8(18), name, "", []byte(`{"maxPoolSize":3}`))
		f.Add(uint8(8), name, "", []byte(`{"action":"start"}`))
	}

	f.Fuzz(func(t *testing.T, routeNo uint8, name, contentType string, body []byte) {
		api, logLen := newFuzzSim(t)
		route := fuzzWriteRoutes[int(routeNo)%len(fuzzWriteRoutes)]
		if contentType == "" {
			contentType = "application/json"
		}
		p := route.path(name)
		body = fillName(body, name)
		r := api.send(route.method, p, route.query, body, contentType)
		what := fmt.Sprintf("%s %s (Content-Type %q) with body %q", route.method, p, contentType, body)
		if !slices.Contains([]int{200, 400, 404, 409, 413, 415}, r.status) {
			t.Fatalf("%s: status %d: %s", what, r.status, r.body)
		}
		// The content type alone decides 415 (unless the path is unknown: 404 first).
		mt, _, err := mime.ParseMediaType(contentType)
		jsonType := err == nil && (mt == "application/json" || strings.HasSuffix(mt, "+json"))
		if jsonType == (r.status == http.StatusUnsupportedMediaType) && (jsonType || r.status != http.StatusNotFound) {
			t.Fatalf("%s: %d %s for Content-Type %q", what, r.status, r.body, contentType)
		}
		// What is accepted, or gets as far as a conflict, is one JSON object (white space
		// around it is fine).
		if trimmed := bytes.TrimSpace(body); (r.status == http.StatusOK || r.status == http.StatusConflict) &&
			(!json.Valid(trimmed) || trimmed[0] != '{') {
			t.Fatalf("%s: %d %s for a body that is not one JSON object", what, r.status, r.body)
		}
		if err := checkWriteAnswer(r); err != nil {
			t.Fatalf("%s: %v: %d %s", what, err, r.status, r.body)
		}
		checkAfterWrite(t, api, r, what, fuzzRouteDetails[int(routeNo)%len(fuzzWriteRoutes)], logLen)
	})
}

// fuzzQueryRoutes are the endpoints FuzzSimQueries sends fuzzed query strings to (after
// the key, which therefore cannot be replaced). Append only.
var fuzzQueryRoutes = []fuzzRoute{
	{method: "GET", pattern: "/rest/notification"},                        // 0
	{method: "GET", pattern: "/rest/analysis/event"},                      // 1
	{method: "GET", pattern: "/rest/admin/actionTraceLogList"},            // 2
	{method: "DELETE", pattern: fuzzWAS, name: "was-02"},                  // 3: ?type=
	{method: "DELETE", pattern: fuzzWAS + "/datasource", name: "was-01"},  // 4: ?resourceName=
	{method: "DELETE", pattern: fuzzWAS + "/application", name: "was-01"}, // 5: ?contextPath=
	{method: "PUT", pattern: fuzzWeb + "/uri", name: "web-01"},            // 6: ?type= with a fixed body
	{method: "DELETE", pattern: fuzzWeb, name: "web-02"},                  // 7: ?type=
}

// fuzzQueryDetails names, per query route, the detail that shows what the route changes
// beyond the lists.
var fuzzQueryDetails = map[int]string{
	3: "/rest/was/servers/was-02/nodes/web-01/systems/shop",
	4: "/rest/was/servers/was-01/nodes/web-01/systems/shop",
	5: "/rest/was/servers/was-01/nodes/web-01/systems/shop/applications/status",
	6: "/rest/web/servers/web-01/nodes/web-01/systems/shop",
	7: "/rest/web/servers/web-02/nodes/web-01/systems/shop",
}

// fuzzQuerySeeds are query strings per route (by number).
var fuzzQuerySeeds = map[int][]string{
	0: {"", "interval=60", "interval=0", "interval=-5", "interval=99999999999999999999", "interval=1.5", "limit=1", "limit=0",
		"limit=2&limit=x", "dateTime=20240506000000", "dateTime=20240506", "dateTime=20241332000000", "interval=5&dateTime=20240506000000",
		"interval=&dateTime=&limit=", "limit=%zz", "limit=1;interval=2", "interval=+3", "dateTime=00000101000000"},
	1: {"", "systemName=shop", "systemName=nope", "eventType=OOM", "eventType=gc", "startDate=20240505", "endDate=20240505",
		"startDate=20240507&endDate=20240505", "startDate=2024-05-05", "startDate=20240230", "systemName=shop&eventType=error&startDate=20240501&endDate=20240531"},
	2: {"", "startDate=20240506", "endDate=20240101", "startDate=20240506&endDate=20240506", "startDate=x", "startDate=20240507&endDate=20240506"},
	3: {"type=uninstall", "type=deregister", "type=", "type=delete", "", "type=uninstall&type=x"},
	4: {"resourceName=orders-ds", "resourceName=nope", "resourceName=", ""},
	5: {"contextPath=/shop", "contextPath=%2Fshop", "contextPath=shop", ""},
	6: {"type=create", "type=delete", "type=update", ""},
	7: {"type=uninstall", "type=deregister", "type=x"},
}

// FuzzSimQueries sends one request with a fuzzed query string to a fresh demo world and
// checks the answer; for the lists also that the filters hold and the order is newest
// first.
func FuzzSimQueries(f *testing.F) {
	for route, queries := range fuzzQuerySeeds {
		for _, q := range queries {
			f.Add(uint8(route), q)
		}
	}
	f.Fuzz(func(t *testing.T, routeNo uint8, query string) {
		api, logLen := newFuzzSim(t)
		route := fuzzQueryRoutes[int(routeNo)%len(fuzzQueryRoutes)]
		var body []byte
		if route.method == "PUT" {
			body = []byte(`{"uris":["/fuzz/*"]}`)
		}
		p := route.path("")
		r := api.send(route.method, p, query, body, "application/json")
		what := fmt.Sprintf("%s %s?key=...&%s", route.method, p, query)
		if !slices.Contains([]int{200, 400, 404, 409}, r.status) {
			t.Fatalf("%s: status %d: %s", what, r.status, r.body)
		}
		if route.method != http.MethodGet {
			if err := checkWriteAnswer(r); err != nil {
				t.Fatalf("%s: %v: %d %s", what, err, r.status, r.body)
			}
			checkAfterWrite(t, api, r, what, fuzzQueryDetails[int(routeNo)%len(fuzzQueryRoutes)], logLen)
			return
		}
		if r.status != http.StatusOK {
			if r.status != http.StatusBadRequest {
				t.Fatalf("%s: status %d for a list: %s", what, r.status, r.body)
			}
			if err := checkErrorShape(r); err != nil {
				t.Fatalf("%s: %v: %s", what, err, r.body)
			}
			return
		}
		// The filters as the sim reads them: the first value of each parameter.
		q, _ := url.ParseQuery(query)
		if err := checkFilteredList(routeNo, q, r); err != nil {
			t.Fatalf("%s: %v: %s", what, err, r.body)
		}
	})
}

// checkFilteredList checks a 200 list answer of FuzzSimQueries against the query.
func checkFilteredList(routeNo uint8, q url.Values, r simResp) error {
	if ct := r.header.Get("Content-Type"); ct != "application/json" {
		return fmt.Errorf("content type %q", ct)
	}
	obj, err := jsonObject(r.body)
	if err != nil {
		return err
	}
	if len(obj) != 1 {
		return fmt.Errorf("%d fields, want the list only", len(obj))
	}
	switch int(routeNo) % len(fuzzQueryRoutes) {
	case 0:
		var items []struct {
			ID         int64  `json:"id"`
			Type       string `json:"type"`
			Message    string `json:"message"`
			TargetName string `json:"targetName"`
			CreatedAt  string `json:"createdAt"`
		}
		if err := json.Unmarshal(obj["notifications"], &items); err != nil || items == nil {
			return fmt.Errorf("notifications: %v", err)
		}
		if q.Get("interval") != "" && q.Get("dateTime") != "" {
			return fmt.Errorf("interval and dateTime combined, yet 200")
		}
		if n, err := strconv.Atoi(q.Get("limit")); err == nil && n >= 1 && len(items) > n {
			return fmt.Errorf("%d notifications with limit %d", len(items), n)
		}
		for i, it := range items {
			if it.ID <= 0 || it.Type == "" || it.Message == "" || len(it.CreatedAt) != len("20060102150405") {
				return fmt.Errorf("notification %+v", it)
			}
			if i > 0 && (it.CreatedAt > items[i-1].CreatedAt || it.CreatedAt == items[i-1].CreatedAt && it.ID > items[i-1].ID) {
				return fmt.Errorf("notifications not newest first at %d", i)
			}
		}
	case 1:
		var items []struct {
			EventID    int64  `json:"eventId"`
			EventType  string `json:"eventType"`
			SystemName string `json:"systemName"`
			CreatedAt  string `json:"createdAt"`
		}
		if err := json.Unmarshal(obj["events"], &items); err != nil || items == nil {
			return fmt.Errorf("events: %v", err)
		}
		for i, it := range items {
			if s := q.Get("systemName"); s != "" && it.SystemName != s {
				return fmt.Errorf("event %+v with systemName filter %q", it, s)
			}
			if et := q.Get("eventType"); et != "" && !strings.EqualFold(it.EventType, et) {
				return fmt.Errorf("event %+v with eventType filter %q", it, et)
			}
			if i > 0 && it.CreatedAt > items[i-1].CreatedAt {
				return fmt.Errorf("events not newest first at %d", i)
			}
		}
	case 2:
		var items []struct {
			LogID int64 `json:"logId"`
		}
		if err := json.Unmarshal(obj["logs"], &items); err != nil || items == nil {
			return fmt.Errorf("logs: %v", err)
		}
	}
	return nil
}
