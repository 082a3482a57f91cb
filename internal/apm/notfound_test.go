package apm

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// notFoundCall is a call about one named object: its 404 can mean that the object is gone.
type notFoundCall struct {
	name    string
	call    func(ctx context.Context, c *Client) error
	subject string // the object the call asks about
	other   string // another name in the call, typically a parent
}

func notFoundCalls() []notFoundCall {
	was := ServerRef{Kind: KindWAS, ServerID: "was-01", NodeName: "web-01", SystemName: "shop"}
	web := ServerRef{Kind: KindWeb, ServerID: "web-1", NodeName: "web-01", SystemName: "shop"}
	ignore := func(_ any, err error) error { return err }
	return []notFoundCall{
		{"GetSystem", func(ctx context.Context, c *Client) error { return ignore(c.GetSystem(ctx, "a b/c")) }, "a b/c", "shop"},
		{"RenameSystem", func(ctx context.Context, c *Client) error { return c.RenameSystem(ctx, "shop", "shop2") }, "shop", "shop2"},
		{"DeleteSystem", func(ctx context.Context, c *Client) error { return c.DeleteSystem(ctx, "shop") }, "shop", "systems"},
		{"GetNode", func(ctx context.Context, c *Client) error { return ignore(c.GetNode(ctx, "shop", "web-01")) }, "web-01", "shop"},
		{"UpdateNode", func(ctx context.Context, c *Client) error {
			return c.UpdateNode(ctx, "shop", "node-7", UpdateNodeRequest{AgentPort: 7731})
		}, "node-7", "shop"},
		{"DeleteNode", func(ctx context.Context, c *Client) error { return c.DeleteNode(ctx, "shop", "node-7") }, "node-7", "shop"},
		{"GetServer", func(ctx context.Context, c *Client) error { return ignore(c.GetServer(ctx, was)) }, "was-01", "shop"},
		{"ModifyServer", func(ctx context.Context, c *Client) error {
			return c.ModifyServer(ctx, was, ServerSettings{HTTPPort: 8080})
		}, "was-01", "web-01"},
		{"UninstallServer", func(ctx context.Context, c *Client) error { return c.UninstallServer(ctx, was) }, "was-01", "shop"},
		{"DeregisterServer", func(ctx context.Context, c *Client) error { return c.DeregisterServer(ctx, was) }, "was-01", "shop"},
		{"StartServer", func(ctx context.Context, c *Client) error { return c.StartServer(ctx, was) }, "was-01", "action"},
		{"StopServer", func(ctx context.Context, c *Client) error { return c.StopServer(ctx, was, false) }, "was-01", "shop"},
		{"ListRegisterableServers", func(ctx context.Context, c *Client) error {
			return ignore(c.ListRegisterableServers(ctx, KindWAS, "shop", "web-01"))
		}, "web-01", "shop"},
		{"SetSessionCluster", func(ctx context.Context, c *Client) error {
			return c.SetSessionCluster(ctx, was, SessionCluster{PrimaryHost: "h", PrimaryPort: 1})
		}, "was-01", "session"},
		{"RemoveSessionCluster", func(ctx context.Context, c *Client) error { return c.RemoveSessionCluster(ctx, was) }, "was-01", "shop"},
		{"AttachDatasource", func(ctx context.Context, c *Client) error { return c.AttachDatasource(ctx, was, "ds") }, "was-01", "shop"},
		{"DetachDatasource", func(ctx context.Context, c *Client) error { return c.DetachDatasource(ctx, was, "ds") }, "ds", "was-01"},
		{"DeployApplication", func(ctx context.Context, c *Client) error {
			return c.DeployApplication(ctx, was, Deployment{ContextPath: "/shop", SourcePath: "/tmp/shop.war"})
		}, "was-01", "/shop"},
		{"UndeployApplication", func(ctx context.Context, c *Client) error { return c.UndeployApplication(ctx, was, "/shop") }, "/shop", "was-01"},
		{"ApplicationStatuses", func(ctx context.Context, c *Client) error { return ignore(c.ApplicationStatuses(ctx, was)) }, "was-01", "status"},
		{"ImportResource", func(ctx context.Context, c *Client) error { return c.ImportResource(ctx, was, ResourceJMS, "q") }, "was-01", "q"},
		{"SetWorkers", func(ctx context.Context, c *Client) error { return c.SetWorkers(ctx, web, nil) }, "web-1", "worker"},
		{"ConfigureSSL", func(ctx context.Context, c *Client) error {
			return c.ConfigureSSL(ctx, web, SSLConfig{HTTPSPort: 443, CertificatePEM: "c", PrivateKeyPEM: "k"})
		}, "web-1", "shop"},
		{"AddURIs", func(ctx context.Context, c *Client) error { return c.AddURIs(ctx, web, []string{"/a/*"}) }, "web-1", "uri"},
		{"DeleteURIs", func(ctx context.Context, c *Client) error { return c.DeleteURIs(ctx, web, []string{"/a/*"}) }, "web-1", "shop"},
		{"GetUser", func(ctx context.Context, c *Client) error { return ignore(c.GetUser(ctx, "op")) }, "op", "user"},
		{"ModifyUser", func(ctx context.Context, c *Client) error { return c.ModifyUser(ctx, "op", UserUpdate{UserName: "O"}) }, "op", "O"},
		{"DeleteUser", func(ctx context.Context, c *Client) error { return c.DeleteUser(ctx, "op") }, "op", "user"},
		{"GrantRole", func(ctx context.Context, c *Client) error { return c.GrantRole(ctx, "op", "admins") }, "op", "admins"},
		{"RevokeRole", func(ctx context.Context, c *Client) error { return c.RevokeRole(ctx, "op", "admins") }, "op", "admins"},
		{"ListUserRoles", func(ctx context.Context, c *Client) error { return ignore(c.ListUserRoles(ctx, "op")) }, "op", "auth"},
		{"GetRole", func(ctx context.Context, c *Client) error { return ignore(c.GetRole(ctx, "admins")) }, "admins", "auth"},
		{"ModifyRole", func(ctx context.Context, c *Client) error {
			return c.ModifyRole(ctx, "admins", RoleUpdate{AuthName: "A"})
		}, "admins", "A"},
		{"DeleteRole", func(ctx context.Context, c *Client) error { return c.DeleteRole(ctx, "admins") }, "admins", "auth"},
		{"GetDatabase", func(ctx context.Context, c *Client) error { return ignore(c.GetDatabase(ctx, "db")) }, "db", "databases"},
		{"DeleteDatabase", func(ctx context.Context, c *Client) error { return c.DeleteDatabase(ctx, "db") }, "db", "databases"},
		{"GetDatasource", func(ctx context.Context, c *Client) error { return ignore(c.GetDatasource(ctx, "ds")) }, "ds", "db"},
		{"ModifyDatasource", func(ctx context.Context, c *Client) error { return c.ModifyDatasource(ctx, "ds", DatasourceUpdate{}) }, "ds", "db"},
		{"DeleteDatasource", func(ctx context.Context, c *Client) error { return c.DeleteDatasource(ctx, "ds") }, "ds", "db"},
		{"GetAnalysisEvent", func(ctx context.Context, c *Client) error { return ignore(c.GetAnalysisEvent(ctx, 7)) }, "7", "event"},
		{"NodeMetrics", func(ctx context.Context, c *Client) error { return ignore(c.NodeMetrics(ctx, "shop", "web-01")) }, "web-01", "shop"},
		{"NodeMetricsAll", func(ctx context.Context, c *Client) error { return ignore(c.NodeMetricsAll(ctx, "shop", "web-01")) }, "web-01", "all"},
		{"WASServerMetrics", func(ctx context.Context, c *Client) error {
			return ignore(c.WASServerMetrics(ctx, "shop", "web-01", "was-01"))
		}, "was-01", "shop"},
		{"WebServerMetrics", func(ctx context.Context, c *Client) error {
			return ignore(c.WebServerMetrics(ctx, "shop", "web-01", "web-1"))
		}, "web-1", "web-01"},
		{"SessionServerMetrics", func(ctx context.Context, c *Client) error {
			return ignore(c.SessionServerMetrics(ctx, "shop", "web-01", "ss-1"))
		}, "ss-1", "shop"},
		{"WASContainerMetrics", func(ctx context.Context, c *Client) error { return ignore(c.WASContainerMetrics(ctx, "h1")) }, "h1", "container"},
		{"WebContainerMetrics", func(ctx context.Context, c *Client) error { return ignore(c.WebContainerMetrics(ctx, "h1")) }, "h1", "container"},
	}
}

// Every call about a named object gets IsNotFound when the manager names that object, and
// not when it names another one (a parent, or the path's last segment).
func TestNotFoundNamesTheObjectOfEachCall(t *testing.T) {
	ctx := context.Background()
	for _, tc := range notFoundCalls() {
		t.Run(tc.name, func(t *testing.T) {
			for name, want := range map[string]bool{tc.subject: true, tc.other: false} {
				srv, _ := serve(t, func(w http.ResponseWriter, _ *http.Request, _ int) {
					reply(w, 404, fmt.Sprintf(`{"error":"Thing not found: %s","code":"NOT_FOUND"}`, name))
				})
				err := tc.call(ctx, newTestClient(t, srv.URL))
				if IsNotFound(err) != want || !HasStatus(err, 404) {
					t.Errorf("message naming %q: IsNotFound = %t, want %t (err %v)", name, IsNotFound(err), want, err)
				}
			}
		})
	}
}

func TestNotFoundNeedsTheManagersAnswer(t *testing.T) {
	cases := []struct {
		name    string
		body    string
		gone    bool
		missing string // the other object the manager says is missing
	}{
		{"manager's body", `{"error":"Node not found: web-01","code":"NOT_FOUND"}`, true, ""},
		{"code in another case, spaces around the name", `{"error":"Node not found:   web-01 ","code":" not_found"}`, true, ""},
		{"message under another field name", `{"message":"Node not found: web-01","code":"NOT_FOUND"}`, true, ""},
		{"the last 'not found:' counts", `{"error":"Agent not found: x; Node not found: web-01","code":"NOT_FOUND"}`, true, ""},
		{"the parent system", `{"error":"System not found: shop","code":"NOT_FOUND"}`, false, `System "shop"`},
		{"a longer name", `{"error":"Node not found: web-011","code":"NOT_FOUND"}`, false, `Node "web-011"`},
		{"the name without the marker", `{"error":"web-01","code":"NOT_FOUND"}`, false, ""},
		{"the name before the last marker", `{"error":"Node not found: web-01; System not found: shop","code":"NOT_FOUND"}`, false, ""},
		{"no code", `{"error":"Node not found: web-01"}`, false, ""},
		{"another code", `{"error":"Node not found: web-01","code":"GONE"}`, false, ""},
		{"a framework's JSON", `{"timestamp":"2024-05-06T07:08:09Z","status":404,"error":"Not Found","path":"/apm/rest/nodes/web-01/systems/shop"}`, false, ""},
		{"an HTML page", "<html><body><h1>404 Not Found</h1>Node not found: web-01</body></html>", false, ""},
		{"plain text", "Node not found: web-01", false, ""},
		{"empty", "", false, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv, _ := serve(t, func(w http.ResponseWriter, _ *http.Request, _ int) { reply(w, 404, tc.body) })
			endpoint := srv.URL + "/apm" // a path prefix, the usual source of foreign 404s
			_, err := newTestClient(t, endpoint).GetNode(context.Background(), "shop", "web-01")
			if IsNotFound(err) != tc.gone || !HasStatus(err, 404) {
				t.Fatalf("IsNotFound = %t, HasStatus(404) = %t; want %t, true (err %v)", IsNotFound(err), HasStatus(err, 404), tc.gone, err)
			}
			// The hint about the endpoint is for a 404 that does not come from the manager:
			// neither the object's own nor another one's "not found".
			hint := "this answer from " + endpoint + ` does not say that "web-01" does not exist: check that the endpoint, including its path prefix, is the manager's`
			missing, isRef := MissingReference(err)
			if got, want := strings.Contains(err.Error(), hint), !tc.gone && tc.missing == ""; got != want {
				t.Errorf("text = %q; want the hint: %t", err, want)
			}
			if missing != tc.missing || isRef != (tc.missing != "") {
				t.Errorf("MissingReference = %q, %t; want %q", missing, isRef, tc.missing)
			}
			assertNoKey(t, "404 text", err.Error())
		})
	}
}

// A 404 after retries keeps its verdict: the final answer decides.
func TestNotFoundAfterRetries(t *testing.T) {
	srv, rec := serve(t, func(w http.ResponseWriter, _ *http.Request, n int) {
		if n == 1 {
			reply(w, 502, `{}`)
			return
		}
		reply(w, 404, `{"error":"System not found: shop","code":"NOT_FOUND"}`)
	})
	err := newTestClient(t, srv.URL).DeleteSystem(context.Background(), "shop")
	var e *Error
	if !IsNotFound(err) || !errors.As(err, &e) || e.Attempts != 2 || rec.count() != 2 {
		t.Errorf("err = %v, requests = %d; want IsNotFound after 2 attempts", err, rec.count())
	}
}
