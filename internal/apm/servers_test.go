package apm

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"
)

var (
	wasRef     = ServerRef{Kind: KindWAS, ServerID: "was 1", NodeName: "node-1", SystemName: "prod"}
	webRef     = ServerRef{Kind: KindWeb, ServerID: "web-1", NodeName: "node-1", SystemName: "prod"}
	sessionRef = ServerRef{Kind: KindSession, ServerID: "ses-1", NodeName: "node-1", SystemName: "prod"}
)

func TestServerCallsSendMethodPathQueryAndBody(t *testing.T) {
	runRequestCases(t, serverCalls())
}

// serverCalls are the calls of WAS, web and session servers and the request each sends;
// TestCoverageClientCallsSendTheirEndpoint runs them too.
func serverCalls() []requestCase {
	ctx := context.Background()
	was := "/rest/was/servers/was%201/nodes/node-1/systems/prod"
	web := "/rest/web/servers/web-1/nodes/node-1/systems/prod"
	ses := "/rest/session/servers/ses-1/nodes/node-1/systems/prod"
	details := map[string]string{was: wasRef.ServerID, web: webRef.ServerID, ses: sessionRef.ServerID}
	cases := []struct {
		name   string
		call   func(c *Client) error
		method string
		path   string
		query  url.Values // besides the key
		body   string     // JSON; "" for none
	}{
		{"ListServers WAS", func(c *Client) error { _, err := c.ListServers(ctx, KindWAS); return err }, "GET", "/rest/was/servers", nil, ""},
		{"ListServers web", func(c *Client) error { _, err := c.ListServers(ctx, KindWeb); return err }, "GET", "/rest/web/servers", nil, ""},
		{"ListServers session", func(c *Client) error { _, err := c.ListServers(ctx, KindSession); return err }, "GET", "/rest/session/servers", nil, ""},
		{"GetServer", func(c *Client) error { _, err := c.GetServer(ctx, wasRef); return err }, "GET", was, nil, ""},
		{"InstallServer WAS", func(c *Client) error {
			return c.InstallServer(ctx, KindWAS, ServerSpec{ServerID: "w", NodeName: "n", SystemName: "s", HTTPPort: 8080, AJPPort: 8009, Edition: "enterprise", InstallRootPath: "/opt/w"})
		}, "POST", "/rest/was/servers", nil,
			`{"type":"install","serverId":"w","nodeName":"n","systemName":"s","httpPort":8080,"ajpPort":8009,"serverType":"E","installRootPath":"/opt/w"}`},
		{"InstallServer web", func(c *Client) error {
			return c.InstallServer(ctx, KindWeb, ServerSpec{ServerID: "w", NodeName: "n", SystemName: "s", HTTPPort: 80, HTTPSPort: 443})
		}, "POST", "/rest/web/servers", nil, `{"type":"install","serverId":"w","nodeName":"n","systemName":"s","httpPort":80,"httpsPort":443}`},
		{"RegisterServer session", func(c *Client) error {
			return c.RegisterServer(ctx, KindSession, ServerSpec{ServerID: "s1", NodeName: "n", SystemName: "s", ServerPort: 5180})
		}, "POST", "/rest/session/servers", nil, `{"type":"register","serverId":"s1","nodeName":"n","systemName":"s","serverPort":5180}`},
		{"RegisterServer WAS", func(c *Client) error {
			return c.RegisterServer(ctx, KindWAS, ServerSpec{ServerID: "w", NodeName: "n", SystemName: "s", HTTPPort: 8080, Edition: EditionStandard})
		}, "POST", "/rest/was/servers", nil, `{"type":"register","serverId":"w","nodeName":"n","systemName":"s","httpPort":8080,"serverType":"S"}`},
		{"ModifyServer WAS", func(c *Client) error {
			return c.ModifyServer(ctx, wasRef, ServerSettings{AJPPort: 8010, JavaHome: "/opt/jdk"})
		}, "PUT", was, nil, `{"ajpPort":8010,"javaHome":"/opt/jdk"}`},
		{"ModifyServer session", func(c *Client) error { return c.ModifyServer(ctx, sessionRef, ServerSettings{ServerPort: 5181}) },
			"PUT", ses, nil, `{"serverPort":5181}`},
		{"UninstallServer", func(c *Client) error { return c.UninstallServer(ctx, webRef) }, "DELETE", web, url.Values{"type": {"uninstall"}}, ""},
		{"DeregisterServer", func(c *Client) error { return c.DeregisterServer(ctx, sessionRef) }, "DELETE", ses, url.Values{"type": {"deregister"}}, ""},
		{"StartServer", func(c *Client) error { return c.StartServer(ctx, webRef) }, "POST", web + "/action", nil, `{"action":"start"}`},
		{"StopServer WAS sends force", func(c *Client) error { return c.StopServer(ctx, wasRef, false) }, "POST", was + "/action", nil, `{"action":"stop","force":false}`},
		{"StopServer WAS forced", func(c *Client) error { return c.StopServer(ctx, wasRef, true) }, "POST", was + "/action", nil, `{"action":"stop","force":true}`},
		{"StopServer session", func(c *Client) error { return c.StopServer(ctx, sessionRef, false) }, "POST", ses + "/action", nil, `{"action":"stop"}`},
		{"ListRegisterableServers", func(c *Client) error {
			_, err := c.ListRegisterableServers(ctx, KindWeb, "prod", "node 1")
			return err
		}, "GET", "/rest/web/servers/register/nodes/node%201/systems/prod", nil, ""},
		// Every call of every kind, so that api/coverage.md's rows are each proved (the path
		// is made from the kind).
		{"GetServer web", func(c *Client) error { _, err := c.GetServer(ctx, webRef); return err }, "GET", web, nil, ""},
		{"GetServer session", func(c *Client) error { _, err := c.GetServer(ctx, sessionRef); return err }, "GET", ses, nil, ""},
		{"InstallServer session", func(c *Client) error {
			return c.InstallServer(ctx, KindSession, ServerSpec{ServerID: "s1", NodeName: "n", SystemName: "s", ServerPort: 5180})
		}, "POST", "/rest/session/servers", nil, `{"type":"install","serverId":"s1","nodeName":"n","systemName":"s","serverPort":5180}`},
		{"RegisterServer web", func(c *Client) error {
			return c.RegisterServer(ctx, KindWeb, ServerSpec{ServerID: "w", NodeName: "n", SystemName: "s", HTTPPort: 80})
		}, "POST", "/rest/web/servers", nil, `{"type":"register","serverId":"w","nodeName":"n","systemName":"s","httpPort":80}`},
		{"ModifyServer web", func(c *Client) error { return c.ModifyServer(ctx, webRef, ServerSettings{HTTPSPort: 8443}) },
			"PUT", web, nil, `{"httpsPort":8443}`},
		{"UninstallServer WAS", func(c *Client) error { return c.UninstallServer(ctx, wasRef) }, "DELETE", was, url.Values{"type": {"uninstall"}}, ""},
		{"UninstallServer session", func(c *Client) error { return c.UninstallServer(ctx, sessionRef) }, "DELETE", ses, url.Values{"type": {"uninstall"}}, ""},
		{"DeregisterServer WAS", func(c *Client) error { return c.DeregisterServer(ctx, wasRef) }, "DELETE", was, url.Values{"type": {"deregister"}}, ""},
		{"DeregisterServer web", func(c *Client) error { return c.DeregisterServer(ctx, webRef) }, "DELETE", web, url.Values{"type": {"deregister"}}, ""},
		{"StartServer WAS", func(c *Client) error { return c.StartServer(ctx, wasRef) }, "POST", was + "/action", nil, `{"action":"start"}`},
		{"StartServer session", func(c *Client) error { return c.StartServer(ctx, sessionRef) }, "POST", ses + "/action", nil, `{"action":"start"}`},
		{"StopServer web", func(c *Client) error { return c.StopServer(ctx, webRef, false) }, "POST", web + "/action", nil, `{"action":"stop"}`},
		{"ListRegisterableServers WAS", func(c *Client) error {
			_, err := c.ListRegisterableServers(ctx, KindWAS, "prod", "node-1")
			return err
		}, "GET", "/rest/was/servers/register/nodes/node-1/systems/prod", nil, ""},
		{"ListRegisterableServers session", func(c *Client) error {
			_, err := c.ListRegisterableServers(ctx, KindSession, "prod", "node-1")
			return err
		}, "GET", "/rest/session/servers/register/nodes/node-1/systems/prod", nil, ""},
		{"SetSessionCluster", func(c *Client) error {
			return c.SetSessionCluster(ctx, wasRef, SessionCluster{PrimaryHost: "h1", PrimaryPort: 5180})
		}, "POST", was + "/session", nil, `{"primaryHost":"h1","primaryPort":5180}`},
		{"SetSessionCluster with secondary", func(c *Client) error {
			return c.SetSessionCluster(ctx, wasRef, SessionCluster{"h1", 5180, "h2", 5181})
		}, "POST", was + "/session", nil, `{"primaryHost":"h1","primaryPort":5180,"secondaryHost":"h2","secondaryPort":5181}`},
		{"RemoveSessionCluster", func(c *Client) error { return c.RemoveSessionCluster(ctx, wasRef) }, "DELETE", was + "/session", nil, ""},
		{"AttachDatasource", func(c *Client) error { return c.AttachDatasource(ctx, wasRef, "ds") }, "POST", was + "/datasource", nil, `{"resourceName":"ds"}`},
		{"DetachDatasource", func(c *Client) error { return c.DetachDatasource(ctx, wasRef, "ds&x") },
			"DELETE", was + "/datasource", url.Values{"resourceName": {"ds&x"}}, ""},
		{"DeployApplication", func(c *Client) error {
			return c.DeployApplication(ctx, wasRef, Deployment{ContextPath: "/shop", SourcePath: "/a/shop.war"})
		}, "POST", was + "/application", nil, `{"contextPath":"/shop","sourcePath":"/a/shop.war"}`},
		{"UndeployApplication", func(c *Client) error { return c.UndeployApplication(ctx, wasRef, "/shop") },
			"DELETE", was + "/application", url.Values{"contextPath": {"/shop"}}, ""},
		{"ApplicationStatuses", func(c *Client) error { _, err := c.ApplicationStatuses(ctx, wasRef); return err },
			"GET", was + "/applications/status", nil, ""},
		{"ImportResource", func(c *Client) error { return c.ImportResource(ctx, wasRef, "JMS", "jms/q") },
			"POST", was + "/resource", nil, `{"resourceType":"jms","resourceName":"jms/q"}`},
		{"WAS op with empty kind", func(c *Client) error {
			return c.RemoveSessionCluster(ctx, ServerRef{ServerID: "was 1", NodeName: "node-1", SystemName: "prod"})
		}, "DELETE", was + "/session", nil, ""},
		{"SetWorkers", func(c *Client) error {
			return c.SetWorkers(ctx, webRef, []Worker{{ServerID: "w1", NodeName: "n", SystemName: "s"}, {"w2", "n", "s", "h", 8009, 2}})
		}, "PUT", web + "/worker", nil,
			`{"workers":[{"serverId":"w1","nodeName":"n","systemName":"s"},{"serverId":"w2","nodeName":"n","systemName":"s","host":"h","ajpPort":8009,"lbFactor":2}]}`},
		{"SetWorkers none", func(c *Client) error { return c.SetWorkers(ctx, webRef, nil) }, "PUT", web + "/worker", nil, `{"workers":[]}`},
		{"ConfigureSSL", func(c *Client) error {
			return c.ConfigureSSL(ctx, webRef, SSLConfig{HTTPSPort: 443, CertificatePEM: "C", PrivateKeyPEM: "K"})
		}, "POST", web + "/ssl", nil, `{"httpsPort":443,"certificatePem":"C","privateKeyPem":"K"}`},
		{"AddURIs", func(c *Client) error { return c.AddURIs(ctx, webRef, []string{"/api/*"}) },
			"PUT", web + "/uri", url.Values{"type": {"create"}}, `{"uris":["/api/*"]}`},
		{"DeleteURIs", func(c *Client) error { return c.DeleteURIs(ctx, webRef, []string{"/a", "/b"}) },
			"PUT", web + "/uri", url.Values{"type": {"delete"}}, `{"uris":["/a","/b"]}`},
	}
	calls := make([]requestCase, 0, len(cases))
	for _, tc := range cases {
		response := `{"actionResult":"Y"}`
		if id, ok := details[tc.path]; ok && tc.method == http.MethodGet {
			response = fmt.Sprintf(`{"serverId":%q}`, id) // a detail names its server
		}
		calls = append(calls, requestCase{name: tc.name, call: tc.call, method: tc.method, path: tc.path,
			query: tc.query.Encode(), body: tc.body, response: response})
	}
	return calls
}

// Input that api/decisions.md makes certainly wrong is refused before anything is sent.
func TestServerCallsRefuseInvalidInput(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name string
		call func(c *Client) error
		want string
	}{
		{"unknown kind", func(c *Client) error { _, err := c.ListServers(ctx, "cache"); return err },
			`unknown server kind "cache" (want "was", "web" or "session")`},
		{"unknown kind in ref", func(c *Client) error {
			return c.StartServer(ctx, ServerRef{Kind: "WAS", ServerID: "a", NodeName: "b", SystemName: "c"})
		},
			`unknown server kind "WAS"`},
		{"empty server id", func(c *Client) error {
			_, err := c.GetServer(ctx, ServerRef{Kind: KindWAS, NodeName: "n", SystemName: "s"})
			return err
		},
			"invalid path segment"},
		{"web install with ajpPort", func(c *Client) error {
			return c.InstallServer(ctx, KindWeb, ServerSpec{ServerID: "w", NodeName: "n", SystemName: "s", HTTPPort: 80, AJPPort: 8009, Edition: "S"})
		}, "install of a web server: ajpPort, serverType not applicable (a web server takes httpPort, httpsPort)"},
		{"session install with httpPort", func(c *Client) error {
			return c.InstallServer(ctx, KindSession, ServerSpec{ServerID: "s", NodeName: "n", SystemName: "s", HTTPPort: 80})
		}, "httpPort not applicable (a session server takes serverPort)"},
		{"WAS install with httpsPort", func(c *Client) error {
			return c.InstallServer(ctx, KindWAS, ServerSpec{ServerID: "w", NodeName: "n", SystemName: "s", HTTPSPort: 443})
		}, "install of a WAS server: httpsPort not applicable"},
		{"register with installRootPath", func(c *Client) error {
			return c.RegisterServer(ctx, KindWAS, ServerSpec{ServerID: "w", NodeName: "n", SystemName: "s", InstallRootPath: "/x"})
		}, "installRootPath applies to install only"},
		{"unknown edition", func(c *Client) error {
			return c.InstallServer(ctx, KindWAS, ServerSpec{ServerID: "w", NodeName: "n", SystemName: "s", HTTPPort: 1, Edition: "Premium"})
		}, `unknown WAS edition "Premium"`},
		{"javaHome of a web server", func(c *Client) error { return c.ModifyServer(ctx, webRef, ServerSettings{JavaHome: "/j"}) },
			"modify of a web server: javaHome not applicable (a web server takes httpPort, httpsPort)"},
		{"serverPort of a WAS server", func(c *Client) error { return c.ModifyServer(ctx, wasRef, ServerSettings{ServerPort: 1}) },
			"modify of a WAS server: serverPort not applicable"},
		{"force on a web server", func(c *Client) error { return c.StopServer(ctx, webRef, true) }, "force applies to WAS servers only"},
		{"WAS op on a web server", func(c *Client) error { return c.AttachDatasource(ctx, webRef, "ds") }, "only WAS servers have datasource"},
		{"web op on a WAS server", func(c *Client) error { return c.AddURIs(ctx, wasRef, []string{"/a"}) }, "only web servers have uri"},
		{"web op on a session server", func(c *Client) error { return c.SetWorkers(ctx, sessionRef, nil) }, "only web servers have worker"},
		{"unknown resource type", func(c *Client) error { return c.ImportResource(ctx, wasRef, "queue", "q") },
			`unknown resource type "queue" (want datasource, application, jms or jta)`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv, rec := serve(t, func(w http.ResponseWriter, _ *http.Request, _ int) { reply(w, 200, `{"actionResult":"Y"}`) })
			err := tc.call(newTestClient(t, srv.URL))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to contain %q", err, tc.want)
			}
			if n := rec.count(); n != 0 {
				t.Errorf("%d requests sent", n)
			}
		})
	}
}

// getWith answers every request with body and runs call.
func getWith[T any](t *testing.T, body string, call func(c *Client) (T, error)) T {
	t.Helper()
	srv, _ := serve(t, func(w http.ResponseWriter, _ *http.Request, _ int) { reply(w, 200, body) })
	out, err := call(newTestClient(t, srv.URL))
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestServerDetailDecoding(t *testing.T) {
	ctx := context.Background()
	t.Run("WAS, lenient", func(t *testing.T) {
		got := getWith(t, `{"serverId":"was 1","httpPort":"8080","ajpPort":8009.0,"serverType":"e","status":"running","javaHome":"/j","installRootPath":"/r",`+
			`"sessionCluster":{"primaryHost":"h","primaryPort":"5180"},"datasources":["ds1",{"resourceName":"ds2"}],`+
			`"importedResources":[{"resourceType":"JMS","resourceName":"q"}],"extra":1}`,
			func(c *Client) (*Server, error) { return c.GetServer(ctx, wasRef) })
		want := &Server{
			Kind: KindWAS, ServerID: "was 1", NodeName: "node-1", SystemName: "prod", Status: "running",
			HTTPPort: 8080, AJPPort: 8009, Edition: EditionEnterprise, JavaHome: "/j", InstallRootPath: "/r",
			SessionCluster:    &SessionCluster{PrimaryHost: "h", PrimaryPort: 5180},
			Datasources:       []string{"ds1", "ds2"},
			ImportedResources: []ImportedResource{{ResourceJMS, "q"}},
			Reported:          ReportedFields{SessionCluster: true, Datasources: true, ImportedResources: true},
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("got  %+v\nwant %+v", got, want)
		}
		if got.Ref() != wasRef {
			t.Errorf("Ref() = %v", got.Ref())
		}
	})
	t.Run("web", func(t *testing.T) {
		got := getWith(t, `{"serverId":"web-1","nodeName":"node-1","systemName":"prod","httpPort":80,"httpsPort":"443","status":"stopped",`+
			`"workers":[{"serverId":"w","nodeName":"n","systemName":"s","host":"h","ajpPort":"8009","lbFactor":2}],"uris":[],"sslEnabled":"Y"}`,
			func(c *Client) (*Server, error) { return c.GetServer(ctx, webRef) })
		if got.HTTPSPort != 443 || !got.SSLEnabled || got.URIs == nil || len(got.URIs) != 0 ||
			!reflect.DeepEqual(got.Workers, []Worker{{"w", "n", "s", "h", 8009, 2}}) ||
			got.Reported != (ReportedFields{Workers: true, URIs: true, SSLEnabled: true}) {
			t.Fatalf("got %+v", got)
		}
	})
	t.Run("assumption fields absent or null", func(t *testing.T) {
		got := getWith(t, `{"serverId":"was 1","sessionCluster":null}`, func(c *Client) (*Server, error) { return c.GetServer(ctx, wasRef) })
		if got.SessionCluster != nil || got.Datasources != nil || got.Workers != nil ||
			got.Reported != (ReportedFields{SessionCluster: true}) {
			t.Fatalf("got %+v", got)
		}
	})
	t.Run("unknown edition kept", func(t *testing.T) {
		got := getWith(t, `{"serverId":"was 1","serverType":"X"}`, func(c *Client) (*Server, error) { return c.GetServer(ctx, wasRef) })
		if got.Edition != "X" {
			t.Fatalf("edition %q", got.Edition)
		}
	})
}

func TestServerListDecoding(t *testing.T) {
	ctx := context.Background()
	list := getWith(t, `{"servers":[{"serverId":"a","nodeName":"n","systemName":"s","httpPort":"80","serverType":"Standard","status":"running"}]}`,
		func(c *Client) ([]Server, error) { return c.ListServers(ctx, KindWAS) })
	want := []Server{{Kind: KindWAS, ServerID: "a", NodeName: "n", SystemName: "s", HTTPPort: 80, Edition: EditionStandard, Status: "running"}}
	if !reflect.DeepEqual(list, want) {
		t.Fatalf("got %+v", list)
	}
	if bare := getWith(t, `[{"serverId":"s1","serverPort":5180}]`, func(c *Client) ([]Server, error) { return c.ListServers(ctx, KindSession) }); len(bare) != 1 || bare[0].ServerPort != 5180 {
		t.Fatalf("bare array: %+v", bare)
	}
	apps := getWith(t, `{"applications":[{"contextPath":"/a","status":"running","sessions":"3"}]}`,
		func(c *Client) ([]ApplicationStatus, error) { return c.ApplicationStatuses(ctx, wasRef) })
	if !reflect.DeepEqual(apps, []ApplicationStatus{{"/a", "running", 3}}) {
		t.Fatalf("apps %+v", apps)
	}
	if empty := getWith(t, `{}`, func(c *Client) ([]ApplicationStatus, error) { return c.ApplicationStatuses(ctx, wasRef) }); empty == nil {
		t.Fatal("nil list")
	}
}

func TestRegisterableDecoding(t *testing.T) {
	ctx := context.Background()
	for name, tc := range map[string]struct {
		kind ServerKind
		body string
		want []RegisterableServer
	}{
		"WAS, documented key": {KindWAS,
			`{"noRegisterdServers":[{"systemName":"prod","nodeName":"n1","serverId":"r1","serverIp":"10.0.0.1","serverType":"Enterprise","httpPort":"18080","ajpPort":18009}]}`,
			[]RegisterableServer{{Kind: KindWAS, SystemName: "prod", NodeName: "n1", ServerID: "r1", ServerIP: "10.0.0.1", Edition: EditionEnterprise, HTTPPort: 18080, AJPPort: 18009}}},
		"web, corrected spelling": {KindWeb,
			`{"noRegisteredServers":[{"serverId":"r2","httpPort":80,"httpsPort":443}]}`,
			[]RegisterableServer{{Kind: KindWeb, SystemName: "prod", NodeName: "n1", ServerID: "r2", HTTPPort: 80, HTTPSPort: 443}}},
		"session": {KindSession,
			`{"servers":[{"serverId":"r3","serverHome":"/opt/s","status":"available"}]}`,
			[]RegisterableServer{{Kind: KindSession, SystemName: "prod", NodeName: "n1", ServerID: "r3", ServerHome: "/opt/s", Status: "available"}}},
		"empty": {KindSession, `{"servers":[]}`, []RegisterableServer{}},
	} {
		t.Run(name, func(t *testing.T) {
			got := getWith(t, tc.body, func(c *Client) ([]RegisterableServer, error) {
				return c.ListRegisterableServers(ctx, tc.kind, "prod", "n1")
			})
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got  %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

func TestParseEditionAndResourceType(t *testing.T) {
	for in, want := range map[string]Edition{"S": EditionStandard, "standard": EditionStandard, " E ": EditionEnterprise, "ENTERPRISE": EditionEnterprise, "": ""} {
		if got, err := ParseEdition(in); err != nil || got != want {
			t.Errorf("ParseEdition(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := ParseEdition("Basic"); err == nil {
		t.Error("ParseEdition(Basic) succeeded")
	}
	for in, want := range map[string]ResourceType{"JTA": ResourceJTA, "datasource": ResourceDatasource, "Application": ResourceApplication} {
		if got, err := ParseResourceType(in); err != nil || got != want {
			t.Errorf("ParseResourceType(%q) = %q, %v", in, got, err)
		}
	}
}

// An actionResult "N" of a server write is an *Error with the manager's message.
func TestServerActionRefused(t *testing.T) {
	srv, _ := serve(t, func(w http.ResponseWriter, _ *http.Request, _ int) {
		reply(w, 200, `{"actionResult":"N","message":"Server was 1 is running; stop it first"}`)
	})
	err := newTestClient(t, srv.URL).UninstallServer(context.Background(), wasRef)
	if !IsActionFailed(err) || !strings.Contains(err.Error(), "Server was 1 is running; stop it first") {
		t.Fatalf("err = %v", err)
	}
}

func TestSSLConfigNeverShowsThePrivateKey(t *testing.T) {
	const key = "-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg\n-----END PRIVATE KEY-----\n"
	cfg := SSLConfig{HTTPSPort: 443, CertificatePEM: "-----BEGIN CERTIFICATE-----\nx\n-----END CERTIFICATE-----\n", PrivateKeyPEM: key}
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%d", "%x"} {
		out := fmt.Sprintf(verb, cfg)
		if strings.Contains(out, "MIGH") || strings.Contains(out, "PRIVATE") {
			t.Errorf("%s shows the key: %s", verb, out)
		}
	}
	if got := cfg.String(); got != "apm.SSLConfig{HTTPSPort:443, CertificatePEM:(56 bytes), PrivateKeyPEM:REDACTED, CAChainPEM:\"\"}" {
		t.Errorf("String() = %s", got)
	}
	// A manager that quotes the key in its error does not get it into the error text.
	srv, _ := serve(t, func(w http.ResponseWriter, _ *http.Request, _ int) {
		reply(w, 400, `{"error":"bad key: MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg","code":"BAD_REQUEST"}`)
	})
	err := newTestClient(t, srv.URL).ConfigureSSL(context.Background(), webRef, cfg)
	if !IsBadRequest(err) || strings.Contains(err.Error(), "MIGH") || !strings.Contains(err.Error(), "bad key: REDACTED") {
		t.Fatalf("err = %v", err)
	}
}
