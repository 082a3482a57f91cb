package apm_test

// Fuzz target for the client's response handling: a test server answers every request
// with the fuzzed status and body, and one client call (picked by the input) reads it.
// Properties:
//   - no panic;
//   - a value or an error, not both and not neither: a pointer result is nil exactly when
//     there is an error, a list is non-nil exactly when there is none;
//   - an error is an *apm.Error or an *apm.TransportError with non-empty text; a non-2xx
//     status is an *apm.Error with that status; a 2xx answer whose body says
//     actionResult "N" is an *apm.Error with code ACTION_FAILED; any other 2xx answer is a
//     success or (reads only) an INVALID_RESPONSE *apm.Error;
//   - the API key appears in no error text (the whole Unwrap chain, and the *apm.Error
//     fields), even when the body echoes it; it is sent on every request except the public
//     paths.
//
// Run it with
//
//	go test -run '^$' -fuzz '^FuzzClientResponses$' -fuzztime 30s ./internal/apm/
//
// scripts/fuzz.sh runs it briefly. Without -fuzz, go test runs the seed corpus below.
//
// The file is in package apm_test: it uses only the exported API, as a caller would.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
)

// fuzzKey is distinctive, so that any appearance in error text is the key and nothing else.
const fuzzKey = "fuzz-key-SECRET"

// fuzzCall is one client call; isNil tells whether the returned pointer or slice is nil
// (always true for calls that return only an error).
type fuzzCall struct {
	name   string
	write  bool // returns only an error
	public bool // under /rest/public: no key is sent
	call   func(ctx context.Context, c *apm.Client) (isNil bool, err error)
}

func ptr[T any](v *T, err error) (bool, error)   { return v == nil, err }
func list[T any](v []T, err error) (bool, error) { return v == nil, err }
func none(err error) (bool, error)               { return true, err }

var (
	fuzzWAS = apm.ServerRef{Kind: apm.KindWAS, ServerID: "was-01", NodeName: "web-01", SystemName: "shop"}
	fuzzWeb = apm.ServerRef{Kind: apm.KindWeb, ServerID: "web-01", NodeName: "web-01", SystemName: "shop"}
)

// fuzzCalls are the calls the fuzzed call number picks from (modulo the length). Append
// only: the numbers are in the corpus.
var fuzzCalls = []fuzzCall{
	{name: "ListSystems", call: func(ctx context.Context, c *apm.Client) (bool, error) { return list(c.ListSystems(ctx)) }},
	{name: "GetSystem", call: func(ctx context.Context, c *apm.Client) (bool, error) { return ptr(c.GetSystem(ctx, "shop")) }},
	{name: "ListNodes", call: func(ctx context.Context, c *apm.Client) (bool, error) { return list(c.ListNodes(ctx)) }},
	{name: "GetNode", call: func(ctx context.Context, c *apm.Client) (bool, error) {
		return ptr(c.GetNode(ctx, "shop", "web-01"))
	}},
	{name: "ListServers", call: func(ctx context.Context, c *apm.Client) (bool, error) {
		return list(c.ListServers(ctx, apm.KindWAS))
	}},
	{name: "GetServer", call: func(ctx context.Context, c *apm.Client) (bool, error) { return ptr(c.GetServer(ctx, fuzzWeb)) }},
	{name: "ListRegisterableServers", call: func(ctx context.Context, c *apm.Client) (bool, error) {
		return list(c.ListRegisterableServers(ctx, apm.KindSession, "shop", "web-01"))
	}},
	{name: "ListDatabases", call: func(ctx context.Context, c *apm.Client) (bool, error) { return list(c.ListDatabases(ctx)) }},
	{name: "GetDatasource", call: func(ctx context.Context, c *apm.Client) (bool, error) {
		return ptr(c.GetDatasource(ctx, "orders-ds"))
	}},
	{name: "ListUsers", call: func(ctx context.Context, c *apm.Client) (bool, error) { return list(c.ListUsers(ctx)) }},
	{name: "GetRole", call: func(ctx context.Context, c *apm.Client) (bool, error) { return ptr(c.GetRole(ctx, "admins")) }},
	{name: "ActionTraceLogs", call: func(ctx context.Context, c *apm.Client) (bool, error) {
		return list(c.ActionTraceLogs(ctx, apm.TraceLogFilter{}))
	}},
	{name: "ListNotifications", call: func(ctx context.Context, c *apm.Client) (bool, error) {
		return list(c.ListNotifications(ctx, apm.NotificationFilter{Limit: 5}))
	}},
	{name: "ListAnalysisEvents", call: func(ctx context.Context, c *apm.Client) (bool, error) {
		return list(c.ListAnalysisEvents(ctx, apm.EventFilter{EventType: "OOM"}))
	}},
	{name: "GetAnalysisEvent", call: func(ctx context.Context, c *apm.Client) (bool, error) {
		return ptr(c.GetAnalysisEvent(ctx, 7))
	}},
	{name: "NodeMetricsAll", call: func(ctx context.Context, c *apm.Client) (bool, error) {
		return ptr(c.NodeMetricsAll(ctx, "shop", "web-01"))
	}},
	{name: "WASServerMetrics", call: func(ctx context.Context, c *apm.Client) (bool, error) {
		return ptr(c.WASServerMetrics(ctx, "shop", "web-01", "was-01"))
	}},
	{name: "ListLicenses", call: func(ctx context.Context, c *apm.Client) (bool, error) { return list(c.ListLicenses(ctx)) }},
	{name: "ManagerInfo", public: true, call: func(ctx context.Context, c *apm.Client) (bool, error) {
		return ptr(c.ManagerInfo(ctx))
	}},
	{name: "ApplicationStatuses", call: func(ctx context.Context, c *apm.Client) (bool, error) {
		return list(c.ApplicationStatuses(ctx, fuzzWAS))
	}},
	{name: "ListWASContainerServers", call: func(ctx context.Context, c *apm.Client) (bool, error) {
		return list(c.ListWASContainerServers(ctx))
	}},
	{name: "CreateSystem", write: true, call: func(ctx context.Context, c *apm.Client) (bool, error) {
		return none(c.CreateSystem(ctx, "s1"))
	}},
	{name: "StartServer", write: true, call: func(ctx context.Context, c *apm.Client) (bool, error) {
		return none(c.StartServer(ctx, fuzzWAS))
	}},
	{name: "DeleteNode", write: true, call: func(ctx context.Context, c *apm.Client) (bool, error) {
		return none(c.DeleteNode(ctx, "shop", "ND-0001"))
	}},
	{name: "ListUserRoles", call: func(ctx context.Context, c *apm.Client) (bool, error) {
		return list(c.ListUserRoles(ctx, "operator"))
	}},
}

// fuzzBodies are bodies every call gets in the seed corpus: valid answers of several
// endpoints, lenient spellings, errors, refusals and echoes of the key.
var fuzzBodies = []string{
	``, `null`, `{}`, `[]`, `"x"`, `7`, `{"actionResult":"Y"}`, `{"actionResult":"N","message":"Server was-01 is running"}`,
	`{"actionResult":"n","error":"refused"}`, `{"actionResult":" N ","errorMessage":"no"}`, `{"ACTIONRESULT":"N"}`,
	`{"actionResult":"N","message":7,"code":true}`, `{"actionResult":"Y","error":"ignored"}`,
	`{"actionResult":"N","message":"x","details":{"message":["a"]}}`, `{"actionResult":"N","error":"x","errors":[{"error":"x"}]}`,
	`{"error":"System not found: shop","code":"NOT_FOUND"}`, `{"error":"bad key fuzz-key-SECRET","code":"UNAUTHORIZED"}`,
	`{"error":"see /rest/systems?key=fuzz-key-SECRET&x=1"}`, `{"message":"fuzz-key-\u0053ECRET"}`, `<html>fuzz-key-SECRET</html>`,
	`{"actionResult":"N","message":"key=fuzz-key-SECRET"}`,
	`{"systems":[{"systemId":"SYS-0001","systemName":"shop","nodeCount":"2","webCount":1.0,"appCount":2,"sessionCount":1,"cacheCount":null}]}`,
	`{"Systems":[{"systemName":7}]}`, `[{"systemName":"shop","nodeCount":"x"}]`, `{"systems":{"systemName":"shop"}}`,
	`{"systemId":"SYS-0001","systemName":"shop","nodes":[{"nodeName":"web-01","hostIp":"10.0.0.11","status":"running"}]}`,
	`{"nodes":[{"nodeId":"ND-0001","nodeName":"web-01","systemName":"shop","hostIp":"10.0.0.11","agentPort":7730,"status":"running"}]}`,
	`{"nodeId":"ND-0001","nodeName":"web-01","agentPort":"7730","servers":[{"serverId":"was-01","serverType":"was","status":"running"}]}`,
	`{"servers":[{"serverId":"was-01","nodeName":"web-01","systemName":"shop","httpPort":8080,"serverType":"Standard","status":"running"}]}`,
	`{"serverId":"web-01","httpPort":80,"httpsPort":"443","workers":[{"serverId":"was-01","ajpPort":8009,"lbFactor":"1"}],"uris":["/shop/*"],"sslEnabled":"Y","sessionCluster":null,"datasources":[{"resourceName":"ds"},"ds2"]}`,
	`{"servers":[{"serverId":"session-reg-1","serverHome":"/opt","status":"available"}]}`,
	`{"noRegisterdServers":[{"serverId":"was-reg-1","serverType":"Enterprise","httpPort":18080}]}`,
	`{"databases":[{"resourceName":"orders-db","databaseType":"PostgreSQL","host":"10.0.0.21","port":5432,"databaseName":"orders"}]}`,
	`{"resourceName":"orders-ds","databaseResourceName":"orders-db","minPoolSize":2,"maxPoolSize":"20","initialPoolSize":5,"maxWait":3e4}`,
	`{"users":[{"usrId":"operator","usrNm":"Shop Operator","roles":["operators",{"authId":"admins"}],"createdAt":"2024-05-06"}]}`,
	`{"authId":"admins","authNm":"Administrators","actionTypes":"READ, write","description":"Full access"}`,
	`{"logs":[{"logId":1,"userId":"admin","action":"POST /rest/systems","targetName":"systems","result":"SUCCESS","createdAt":"2024-05-06 07:08:09"}]}`,
	`{"notifications":[{"id":"1","type":"INFO","message":"m","targetName":"web-01","createdAt":"20240506070809"}]}`,
	`{"events":[{"eventId":7,"eventType":"STUCK_THREAD","systemName":"shop","createdAt":"2024-05-06T07:08:09Z"}]}`,
	`{"eventId":"7","eventType":"Out Of Memory","stackTrace":"java.lang.OutOfMemoryError","createdAt":"bad"}`,
	`{"node":{"nodeName":"web-01","cpu":"12.5","memoryUsed":1024,"memoryTotal":4096,"diskUsage":50},"wasServers":[{"serverId":"was-01","heapUsed":1}],"webServers":[{"serverId":"web-01","connections":3,"requestsPerSec":"NaN"}]}`,
	`{"serverId":"was-01","heapUsed":1e3,"heapMax":2048,"threadActive":"3","threadMax":200,"gcCount":1,"gcTime":1.5}`,
	`{"licenses":[{"nodeName":"web-01","licenseType":"Enterprise","expireDate":"2025-01-01","maxCpu":"8"}]}`,
	`{"version":9.50,"patchVersion":"1.0.0.0","status":"running","haMode":"yes"}`, `{"haMode":"maybe"}`,
	`{"applications":[{"contextPath":"/shop","status":"running","sessions":"12"}]}`,
	`{"containerList":[{"serverId":"c1","serverName":"c","containerIp":"10.0.0.1","httpPort":8080}]}`,
	`{"auths":[{"authId":"admins","authNm":"Administrators"}]}`,
}

// FuzzClientResponses answers one client call with the fuzzed status and body.
func FuzzClientResponses(f *testing.F) {
	// Every body for two calls (200 and 404), every call with a refusal and an error status:
	// few enough seeds for the baseline coverage to take a second, not the whole fuzz time.
	statuses := []int{201, 204, 301, 304, 400, 409, 418, 429, 500, 503, 599, 999}
	for i, b := range fuzzBodies {
		f.Add(uint8(i%len(fuzzCalls)), 200, []byte(b))
		f.Add(uint8((i+len(fuzzCalls)/2)%len(fuzzCalls)), 404, []byte(b))
	}
	for i := range fuzzCalls {
		f.Add(uint8(i), 200, []byte(`{"actionResult":"N","message":"refused"}`))
		f.Add(uint8(i), statuses[i%len(statuses)], []byte(`{"error":"e fuzz-key-SECRET","code":"C"}`))
	}

	var (
		mu        sync.Mutex
		status    int
		body      []byte
		sentKey   []string // the key parameter of each request of the current input
		sentOther bool     // a request carried a key other than fuzzKey
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		if k, ok := r.URL.Query()["key"]; ok {
			sentKey = append(sentKey, k...)
			sentOther = sentOther || len(k) != 1 || k[0] != fuzzKey
		} else {
			sentKey = append(sentKey, "")
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = w.Write(body)
	}))
	f.Cleanup(srv.Close)
	client, err := apm.New(apm.Config{
		Endpoint: srv.URL, APIKey: fuzzKey, RequestTimeout: 10 * time.Second,
		MaxRetries: 1, RetryWaitMin: time.Microsecond, RetryWaitMax: time.Microsecond,
	})
	if err != nil {
		f.Fatal(err)
	}

	f.Fuzz(func(t *testing.T, callNo uint8, st int, b []byte) {
		if st < 200 || st > 999 { // informational answers are not final; beyond 999 is no status
			st = 200 + int(uint(st)%800)
		}
		mu.Lock()
		status, body, sentKey, sentOther = st, b, nil, false
		mu.Unlock()
		fc := fuzzCalls[int(callNo)%len(fuzzCalls)]

		isNil, err := fc.call(context.Background(), client)

		mu.Lock()
		keys, other := sentKey, sentOther
		mu.Unlock()
		what := fmt.Sprintf("%s answered %d", fc.name, st)
		if err := checkClientResult(fc, st, b, isNil, err); err != nil {
			t.Fatalf("%s %d with body %q: %v", fc.name, st, b, err)
		}
		if len(keys) == 0 {
			t.Fatalf("%s: no request reached the server", what)
		}
		for _, k := range keys {
			if fc.public && k != "" || !fc.public && k != fuzzKey || other {
				t.Fatalf("%s: requests carried the key parameters %q", what, keys)
			}
		}
	})
}

// deliveredBody is what the client receives of body with status: nothing for the
// statuses that carry no body.
func deliveredBody(status int, body []byte) []byte {
	if status == http.StatusNoContent || status == http.StatusNotModified {
		return nil
	}
	return body
}

// saysActionN reports whether a body is a JSON object whose actionResult (the field
// encoding/json picks, matching the name case-insensitively) is the string "N" in any case
// and spacing: the manager's refusal.
func saysActionN(body []byte) bool {
	var ar struct {
		ActionResult json.RawMessage `json:"actionResult"`
	}
	if json.Unmarshal(body, &ar) != nil || ar.ActionResult == nil {
		return false
	}
	var s string
	return json.Unmarshal(ar.ActionResult, &s) == nil && strings.EqualFold(strings.TrimSpace(s), "N")
}

// checkClientResult checks the outcome of one call answered with status and body.
func checkClientResult(fc fuzzCall, status int, body []byte, isNil bool, err error) error {
	is2xx := status >= 200 && status <= 299
	refused := is2xx && saysActionN(deliveredBody(status, body))
	if err == nil {
		switch {
		case !is2xx:
			return errors.New("no error for a non-2xx status")
		case refused:
			return errors.New(`no error for actionResult "N"`)
		case !fc.write && isNil:
			return errors.New("neither a value nor an error")
		}
		return nil
	}

	// An error: no value with it, text without the key, and the right type.
	if !isNil {
		return errors.New("both a value and an error: " + err.Error())
	}
	for e := err; e != nil; e = errors.Unwrap(e) {
		if strings.Contains(e.Error(), fuzzKey) {
			return errors.New("the API key is in the error text: " + e.Error())
		}
	}
	if err.Error() == "" {
		return errors.New("empty error text")
	}
	var ae *apm.Error
	var te *apm.TransportError
	switch {
	case errors.As(err, &ae):
		for _, field := range []string{ae.Message, ae.Code, ae.Method, ae.Path} {
			if strings.Contains(field, fuzzKey) {
				return errors.New("the API key is in a field of the *apm.Error: " + field)
			}
		}
		if ae.StatusCode != status {
			return errors.New("*apm.Error with another status: " + err.Error())
		}
		switch {
		case refused && ae.Code != apm.CodeActionFailed:
			return errors.New(`actionResult "N" gave an error without code ACTION_FAILED: ` + err.Error())
		case is2xx && !refused && (fc.write || ae.Code != apm.CodeInvalidResponse):
			return errors.New("an error for a 2xx answer that is no refusal: " + err.Error())
		}
	case errors.As(err, &te):
		return errors.New("a transport error although the server answered: " + err.Error())
	default:
		return errors.New("an error that is neither *apm.Error nor *apm.TransportError: " + err.Error())
	}
	return nil
}
