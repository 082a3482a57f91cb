package engine

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
)

func TestConfiguredExplainsAMissingConnectionOrKey(t *testing.T) {
	data := &Configured[struct{}]{}
	data.Unconfigured("the provider arguments endpoint are not known until apply")
	if _, diags := data.Conn(); !diags.HasError() || !strings.Contains(fmt.Sprint(diags), "not known until apply") {
		t.Errorf("an unconfigured provider must explain itself, got %v", diags)
	}
	if diags := data.requireKey(); diags.HasError() {
		t.Errorf("with settings unknown at plan, the key check waits for apply: %v", diags)
	}
	keyless := &Configured[struct{}]{}
	keyless.Connect(struct{}{}, Settings{})
	if diags := keyless.requireKey(); !diags.HasError() || !strings.Contains(fmt.Sprint(diags), EnvAPIKey) {
		t.Errorf("a configured provider without key must say how to set one: %v", diags)
	}
}

func TestExplainGivesAdvicePerKind(t *testing.T) {
	cases := []struct {
		err  error
		want string
	}{
		{&apm.Error{StatusCode: 401, Code: "UNAUTHORIZED", Message: "Unauthorized"}, "APM_API_KEY"},
		{&apm.Error{StatusCode: 403, Code: "FORBIDDEN", Message: "Access denied", Method: "PUT", Path: "/rest/systems/shop"}, "The API key is read-only"},
		{&apm.Error{StatusCode: 403, Code: "FORBIDDEN", Message: "Access denied", Method: "GET", Path: "/rest/systems"}, "may not read this"},
		{&apm.Error{StatusCode: 400, Code: "BAD_REQUEST", Message: "bad"}, "Correct the configuration"},
		{&apm.Error{StatusCode: 200, Code: "ACTION_FAILED", Message: "port in use"}, "reported that the operation failed"},
		{&apm.Error{StatusCode: 503, Code: "", Message: "down"}, "could not handle the request"},
		{&apm.Error{StatusCode: 502, Code: "", Message: "bad gateway", Method: "POST", Path: "/rest/systems"}, "may or may not have taken effect"},
		{&apm.Error{StatusCode: 429, Code: "TOO_MANY_REQUESTS", Message: "slow down"}, "-parallelism"},
		{&apm.Error{StatusCode: 404, Code: "NOT_FOUND", Message: "<html>"}, "base URL"},
		{&apm.Error{StatusCode: 400, Code: apm.CodePlainHTTPToHTTPS, Message: "Client sent an HTTP request to an HTTPS server."}, "to https://"},
		{&apm.TransportError{Method: "GET", Path: "/rest/systems", Err: errors.New("dial tcp 127.0.0.1:1: connection refused")}, "could not be reached"},
		{fmt.Errorf("GET /rest/systems: %w", context.DeadlineExceeded), "ran out of time"},
	}
	for _, c := range cases {
		if got := Explain(c.err); !strings.Contains(got, c.want) || !strings.Contains(got, c.err.Error()) {
			t.Errorf("explain(%v) = %q, want the error and %q", c.err, got, c.want)
		}
	}
	// The provider's own findings get no advice about the network.
	own := errors.New(`no system is named "nope"`)
	if got := Explain(own); got != own.Error() {
		t.Errorf("explain(%v) = %q, want the error alone", own, got)
	}
}

func TestClaimsRefuseASecondHolder(t *testing.T) {
	c := newClaims()
	if !c.claim("apm_system shop") || c.claim("apm_system shop") {
		t.Fatal("the first claim must win and the second be refused")
	}
	if !c.claim("apm_system shop2") {
		t.Error("another identity is independent")
	}
	c.release("apm_system shop")
	if !c.claim("apm_system shop") {
		t.Error("a released identity can be claimed again")
	}
}

func TestFinishingIgnoresCancellationButKeepsItsBound(t *testing.T) {
	parent, cancel := context.WithCancel(context.Background())
	ctx, stop := finishing(parent, time.Hour)
	defer stop()
	cancel()
	if ctx.Err() != nil {
		t.Fatal("a write already started must not be cancelled with the request")
	}
	if _, ok := ctx.Deadline(); !ok {
		t.Error("a finishing context must have its own bound")
	}
}

// answerOf is the client's error for a GET of system "shop" that the manager answers with
// status and body.
func answerOf(t *testing.T, status int, body string) error {
	t.Helper()
	manager := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = w.Write([]byte(body))
	}))
	defer manager.Close()
	client, err := apm.New(apm.Config{Endpoint: manager.URL, APIKey: "key", MaxRetries: 0})
	if err != nil {
		t.Fatal(err)
	}
	_, err = client.GetSystem(context.Background(), "shop")
	if err == nil {
		t.Fatal("the GET succeeded")
	}
	return err
}

// Each kind of answer gets its own advice and none of the others': a NOT_FOUND of an object
// referred to names it, with a reference of its own type where it has one, and never
// suspects the endpoint; each kind of 409 says what to do about it and never "import".
func TestExplainKeepsEachAdviceToItsKind(t *testing.T) {
	const (
		endpoint = "path prefix"
		port     = "Choose a free port"
		inUse    = "Remove them first"
		exists   = "already exists in the manager"
	)
	cases := []struct {
		name        string
		status      int
		body        string
		want, never []string
	}{
		{"missing role", 404, `{"code":"NOT_FOUND","error":"Role not found: ops"}`,
			[]string{`Role "ops", which this refers to, does not exist`, "apm_role.example.id"}, []string{endpoint, "apm_database", "import"}},
		{"missing WAS server", 404, `{"code":"NOT_FOUND","error":"WAS server not found: was-1"}`,
			[]string{`WAS server "was-1", which this refers to`, "apm_was_server.example.id"}, []string{endpoint, "import"}},
		{"missing server of no one type", 404, `{"code":"NOT_FOUND","error":"Server not found: was-1"}`,
			[]string{`Server "was-1", which this refers to`, "refer to its resource, so that"}, []string{endpoint, "such as", "import"}},
		{"not the manager's 404", 404, `<html>Not Found</html>`, []string{endpoint}, []string{"which this refers to", "import"}},
		{"port in use", 409, `{"code":"CONFLICT","error":"Port 8080 is already used by web-1 on node app-01"}`,
			[]string{"web-1", port}, []string{"import", inUse, exists, endpoint}},
		{"in use", 409, `{"code":"CONFLICT","error":"Database orders-db is used by datasource(s) orders-ds; delete them first"}`,
			[]string{"orders-ds", inUse}, []string{"import", port, exists, endpoint}},
		{"exists", 409, `{"code":"CONFLICT","error":"System already exists: shop"}`,
			[]string{exists}, []string{port, inUse, endpoint}},
	}
	for _, c := range cases {
		got := Explain(answerOf(t, c.status, c.body))
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: the advice lacks %q:\n%s", c.name, w, got)
			}
		}
		for _, n := range c.never {
			if strings.Contains(got, n) {
				t.Errorf("%s: the advice says %q, which does not belong to it:\n%s", c.name, n, got)
			}
		}
	}
}

// Every error of a request names the manager that answered (or did not), by the endpoint
// without the key: with aliased provider configurations, each in a process of its own,
// it is what tells the managers apart.
func TestExplainNamesTheManager(t *testing.T) {
	answered := answerOf(t, 409, `{"code":"CONFLICT","error":"System already exists: shop"}`)
	endpoint, ok := apm.ManagerOf(answered)
	if !ok || !strings.HasPrefix(endpoint, "http://127.0.0.1:") {
		t.Fatalf("ManagerOf = %q, %v; want the test server's URL", endpoint, ok)
	}
	if got := Explain(fmt.Errorf("create system: %w", answered)); !strings.HasSuffix(got, "(manager "+endpoint+")") || strings.Contains(got, "key") {
		t.Errorf("Explain = %q, want it to end with (manager %s) and hold no key", got, endpoint)
	}
	client, err := apm.New(apm.Config{Endpoint: "http://127.0.0.1:1", APIKey: "secret-key", MaxRetries: 0})
	if err != nil {
		t.Fatal(err)
	}
	_, unreachable := client.GetSystem(context.Background(), "shop")
	if got := Explain(unreachable); !strings.Contains(got, "(manager http://127.0.0.1:1)") || strings.Contains(got, "secret-key") {
		t.Errorf("Explain of an unreachable manager = %q, want it to name the manager and not the key", got)
	}
	if got := Explain(fmt.Errorf("thing: %w", ErrGone)); strings.Contains(got, "(manager") {
		t.Errorf("Explain of the provider's own finding names a manager: %q", got)
	}
}
