package conformance

import (
	"context"
	"crypto/x509"
	"encoding/pem"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/apmsim"
)

// Helpers of the server tests carry the prefix "sv". The shape and error helpers (ra...)
// come from resources_test.go.
//
// The demo seed has, all on node web-01 of system shop: WAS was-01 (running, application
// /shop, session clustering, datasource orders-ds), WAS was-02 (Enterprise, stopped), web
// web-01 (running, worker was-01, URI /shop/*), web web-02 (stopped) and session
// session-01 (stopped). Node app-01 has no servers. Every node reports the unregistered
// servers was-reg-1, web-reg-1 and session-reg-1.

var (
	svWAS01     = apm.ServerRef{Kind: apm.KindWAS, ServerID: "was-01", NodeName: "web-01", SystemName: "shop"}
	svWAS02     = apm.ServerRef{Kind: apm.KindWAS, ServerID: "was-02", NodeName: "web-01", SystemName: "shop"}
	svWeb01     = apm.ServerRef{Kind: apm.KindWeb, ServerID: "web-01", NodeName: "web-01", SystemName: "shop"}
	svWeb02     = apm.ServerRef{Kind: apm.KindWeb, ServerID: "web-02", NodeName: "web-01", SystemName: "shop"}
	svSession01 = apm.ServerRef{Kind: apm.KindSession, ServerID: "session-01", NodeName: "web-01", SystemName: "shop"}
)

// svPEMs is a certificate and its private key, made once for the SSL calls.
var svPEMs = sync.OnceValues(func() (certPEM, keyPEM string) {
	cfg, _, err := apmsim.SelfSignedTLS([]string{"www.shop.example"})
	if err != nil {
		panic(err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(cfg.Certificates[0].PrivateKey)
	if err != nil {
		panic(err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: cfg.Certificates[0].Certificate[0]})),
		string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}))
})

func svSSL(port int64) apm.SSLConfig {
	cert, key := svPEMs()
	return apm.SSLConfig{HTTPSPort: port, CertificatePEM: cert, PrivateKeyPEM: key}
}

func svGet(ref apm.ServerRef) func(ctx context.Context, c *apm.Client) error {
	return func(ctx context.Context, c *apm.Client) error { _, err := c.GetServer(ctx, ref); return err }
}

func svList(kind apm.ServerKind) func(ctx context.Context, c *apm.Client) error {
	return func(ctx context.Context, c *apm.Client) error { return expectLen(c.ListServers(ctx, kind)) }
}

func svRegisterable(kind apm.ServerKind) func(ctx context.Context, c *apm.Client) error {
	return func(ctx context.Context, c *apm.Client) error {
		return expectLen(c.ListRegisterableServers(ctx, kind, "shop", "web-01"))
	}
}

// Cases for 4.2 to 4.4 (without the container lists) against the demo seed.
var _ = addCases(
	// 4.2 WAS servers
	endpointCase{"GET /rest/was/servers", svList(apm.KindWAS)},
	endpointCase{"GET /rest/was/servers/{serverId}/nodes/{nodeName}/systems/{systemName}", svGet(svWAS01)},
	endpointCase{"POST /rest/was/servers", func(ctx context.Context, c *apm.Client) error {
		return c.InstallServer(ctx, apm.KindWAS, apm.ServerSpec{ServerID: "was-03", NodeName: "app-01", SystemName: "shop", HTTPPort: 8080, AJPPort: 8009})
	}},
	endpointCase{"PUT /rest/was/servers/{serverId}/nodes/{nodeName}/systems/{systemName}", func(ctx context.Context, c *apm.Client) error {
		return c.ModifyServer(ctx, svWAS02, apm.ServerSettings{JavaHome: "/opt/jdk-21"})
	}},
	endpointCase{"DELETE /rest/was/servers/{serverId}/nodes/{nodeName}/systems/{systemName}", func(ctx context.Context, c *apm.Client) error {
		return c.UninstallServer(ctx, svWAS02)
	}},
	endpointCase{"POST /rest/was/servers/{serverId}/nodes/{nodeName}/systems/{systemName}/action", func(ctx context.Context, c *apm.Client) error {
		return c.StopServer(ctx, svWAS01, false)
	}},
	endpointCase{"POST /rest/was/servers/{serverId}/nodes/{nodeName}/systems/{systemName}/session", func(ctx context.Context, c *apm.Client) error {
		return c.SetSessionCluster(ctx, svWAS02, apm.SessionCluster{PrimaryHost: "10.0.0.11", PrimaryPort: 5180})
	}},
	endpointCase{"DELETE /rest/was/servers/{serverId}/nodes/{nodeName}/systems/{systemName}/session", func(ctx context.Context, c *apm.Client) error {
		return c.RemoveSessionCluster(ctx, svWAS01)
	}},
	endpointCase{"POST /rest/was/servers/{serverId}/nodes/{nodeName}/systems/{systemName}/datasource", func(ctx context.Context, c *apm.Client) error {
		return c.AttachDatasource(ctx, svWAS02, "orders-ds")
	}},
	endpointCase{"DELETE /rest/was/servers/{serverId}/nodes/{nodeName}/systems/{systemName}/datasource", func(ctx context.Context, c *apm.Client) error {
		return c.DetachDatasource(ctx, svWAS01, "orders-ds")
	}},
	endpointCase{"POST /rest/was/servers/{serverId}/nodes/{nodeName}/systems/{systemName}/application", func(ctx context.Context, c *apm.Client) error {
		return c.DeployApplication(ctx, svWAS01, apm.Deployment{ContextPath: "/admin", SourcePath: "/opt/apps/admin.war"})
	}},
	endpointCase{"DELETE /rest/was/servers/{serverId}/nodes/{nodeName}/systems/{systemName}/application", func(ctx context.Context, c *apm.Client) error {
		return c.UndeployApplication(ctx, svWAS01, "/shop")
	}},
	endpointCase{"GET /rest/was/servers/{serverId}/nodes/{nodeName}/systems/{systemName}/applications/status", func(ctx context.Context, c *apm.Client) error {
		return expectLen(c.ApplicationStatuses(ctx, svWAS01))
	}},
	endpointCase{"GET /rest/was/servers/register/nodes/{nodeName}/systems/{systemName}", svRegisterable(apm.KindWAS)},
	endpointCase{"POST /rest/was/servers/{serverId}/nodes/{nodeName}/systems/{systemName}/resource", func(ctx context.Context, c *apm.Client) error {
		return c.ImportResource(ctx, svWAS01, apm.ResourceJMS, "jms/orders")
	}},
	// 4.3 Web servers
	endpointCase{"GET /rest/web/servers", svList(apm.KindWeb)},
	endpointCase{"GET /rest/web/servers/{serverId}/nodes/{nodeName}/systems/{systemName}", svGet(svWeb01)},
	endpointCase{"POST /rest/web/servers", func(ctx context.Context, c *apm.Client) error {
		return c.InstallServer(ctx, apm.KindWeb, apm.ServerSpec{ServerID: "web-03", NodeName: "app-01", SystemName: "shop", HTTPPort: 80})
	}},
	endpointCase{"PUT /rest/web/servers/{serverId}/nodes/{nodeName}/systems/{systemName}", func(ctx context.Context, c *apm.Client) error {
		return c.ModifyServer(ctx, svWeb02, apm.ServerSettings{HTTPPort: 8082})
	}},
	endpointCase{"DELETE /rest/web/servers/{serverId}/nodes/{nodeName}/systems/{systemName}", func(ctx context.Context, c *apm.Client) error {
		return c.DeregisterServer(ctx, svWeb02)
	}},
	endpointCase{"POST /rest/web/servers/{serverId}/nodes/{nodeName}/systems/{systemName}/action", func(ctx context.Context, c *apm.Client) error {
		return c.StartServer(ctx, svWeb02)
	}},
	endpointCase{"PUT /rest/web/servers/{serverId}/nodes/{nodeName}/systems/{systemName}/worker", func(ctx context.Context, c *apm.Client) error {
		return c.SetWorkers(ctx, svWeb02, []apm.Worker{{ServerID: "was-02", NodeName: "web-01", SystemName: "shop"}})
	}},
	endpointCase{"POST /rest/web/servers/{serverId}/nodes/{nodeName}/systems/{systemName}/ssl", func(ctx context.Context, c *apm.Client) error {
		return c.ConfigureSSL(ctx, svWeb01, svSSL(443))
	}},
	endpointCase{"GET /rest/web/servers/register/nodes/{nodeName}/systems/{systemName}", svRegisterable(apm.KindWeb)},
	endpointCase{"PUT /rest/web/servers/{serverId}/nodes/{nodeName}/systems/{systemName}/uri", func(ctx context.Context, c *apm.Client) error {
		return c.AddURIs(ctx, svWeb01, []string{"/api/*"})
	}},
	// 4.4 Session servers
	endpointCase{"GET /rest/session/servers", svList(apm.KindSession)},
	endpointCase{"GET /rest/session/servers/{serverId}/nodes/{nodeName}/systems/{systemName}", svGet(svSession01)},
	endpointCase{"POST /rest/session/servers", func(ctx context.Context, c *apm.Client) error {
		return c.RegisterServer(ctx, apm.KindSession, apm.ServerSpec{ServerID: "session-reg-1", NodeName: "app-01", SystemName: "shop", ServerPort: 15180})
	}},
	endpointCase{"PUT /rest/session/servers/{serverId}/nodes/{nodeName}/systems/{systemName}", func(ctx context.Context, c *apm.Client) error {
		return c.ModifyServer(ctx, svSession01, apm.ServerSettings{ServerPort: 5181})
	}},
	endpointCase{"DELETE /rest/session/servers/{serverId}/nodes/{nodeName}/systems/{systemName}", func(ctx context.Context, c *apm.Client) error {
		return c.UninstallServer(ctx, svSession01)
	}},
	endpointCase{"POST /rest/session/servers/{serverId}/nodes/{nodeName}/systems/{systemName}/action", func(ctx context.Context, c *apm.Client) error {
		return c.StartServer(ctx, svSession01)
	}},
	endpointCase{"GET /rest/session/servers/register/nodes/{nodeName}/systems/{systemName}", svRegisterable(apm.KindSession)},
)

// svIsServerRoute tells the routes of this file: the server areas without the container lists.
func svIsServerRoute(route string) bool {
	_, path, _ := strings.Cut(route, " ")
	for _, kind := range []string{"was", "web", "session"} {
		if strings.HasPrefix(path, "/rest/"+kind+"/servers") {
			return true
		}
	}
	return false
}

func TestServerRoutesAreThirtyTwo(t *testing.T) {
	var mine []string
	for _, route := range specEndpoints {
		if svIsServerRoute(route) {
			mine = append(mine, route)
			if _, ok := endpointCases[route]; !ok {
				t.Errorf("no case for %s", route)
			}
		}
	}
	if len(mine) != 32 {
		t.Errorf("%d server routes, want 32", len(mine))
	}
}

func TestServerBodiesHaveTheDocumentedShape(t *testing.T) {
	was := "ajpPort:number datasources:array httpPort:number installRootPath:string javaHome:string " +
		"nodeName:string serverId:string serverType:string sessionCluster:%s status:string systemName:string"
	session := "nodeName:string serverId:string serverPort:number status:string systemName:string"
	checkShapes(t, newFixture(t).sim, []shapeCase{
		{"/rest/was/servers", "servers", "httpPort:number nodeName:string serverId:string serverType:string status:string systemName:string"},
		{"/rest/was/servers/was-01/nodes/web-01/systems/shop", "", strings.Replace(was, "%s", "object", 1)},
		{"/rest/was/servers/was-02/nodes/web-01/systems/shop", "", strings.Replace(was, "%s", "null", 1)},
		{"/rest/was/servers/was-01/nodes/web-01/systems/shop/applications/status", "applications", "contextPath:string sessions:number status:string"},
		{"/rest/was/servers/register/nodes/web-01/systems/shop", "noRegisterdServers",
			"ajpPort:number httpPort:number nodeName:string serverId:string serverIp:string serverType:string systemName:string"},
		{"/rest/web/servers", "servers", "httpPort:number nodeName:string serverId:string status:string systemName:string"},
		{"/rest/web/servers/web-01/nodes/web-01/systems/shop", "",
			"httpPort:number httpsPort:number installRootPath:string nodeName:string serverId:string sslEnabled:bool status:string systemName:string uris:array workers:array"},
		{"/rest/web/servers/register/nodes/web-01/systems/shop", "noRegisterdServers",
			"httpPort:number httpsPort:number nodeName:string serverId:string serverIp:string systemName:string"},
		{"/rest/session/servers", "servers", session},
		{"/rest/session/servers/session-01/nodes/web-01/systems/shop", "", session},
		{"/rest/session/servers/register/nodes/web-01/systems/shop", "servers", "serverHome:string serverId:string status:string"},
	})
	// The assumption fields echo the bodies that set them (api/decisions.md, request bodies).
	sim := newFixture(t).sim
	checkElementShapes(t, sim, "/rest/was/servers/was-01/nodes/web-01/systems/shop", "sessionCluster",
		"primaryHost:string primaryPort:number")
	checkElementShapes(t, sim, "/rest/web/servers/web-01/nodes/web-01/systems/shop", "workers",
		"ajpPort:number host:string lbFactor:number nodeName:string serverId:string systemName:string")
}

// A terse manager leaves the assumption fields out of the details; the lists are the same.
func TestTerseServerBodies(t *testing.T) {
	was := "ajpPort:number httpPort:number installRootPath:string javaHome:string " +
		"nodeName:string serverId:string serverType:string status:string systemName:string"
	checkShapes(t, newTerseFixture(t).sim, []shapeCase{
		{"/rest/was/servers", "servers", "httpPort:number nodeName:string serverId:string serverType:string status:string systemName:string"},
		{"/rest/was/servers/was-01/nodes/web-01/systems/shop", "", was},
		{"/rest/was/servers/was-02/nodes/web-01/systems/shop", "", was},
		{"/rest/web/servers/web-01/nodes/web-01/systems/shop", "",
			"httpPort:number httpsPort:number installRootPath:string nodeName:string serverId:string status:string systemName:string"},
	})
}

// The client reads a terse detail as "not reported" and a terse refusal as a refusal.
func TestTerseServersThroughTheClient(t *testing.T) {
	c := newTerseFixture(t).admin
	ctx := context.Background()
	was, err := c.GetServer(ctx, svWAS01)
	if err != nil {
		t.Fatal(err)
	}
	if was.Reported != (apm.ReportedFields{}) || was.SessionCluster != nil || was.Datasources != nil || was.HTTPPort != 8080 {
		t.Errorf("terse WAS detail read as %+v", was)
	}
	if err := c.StartServer(ctx, svWAS01); !apm.IsActionFailed(err) {
		t.Errorf("starting a running server: %v, want an action failure", err)
	}
}

// svClock is a clock the test moves, so that transitions are observed deterministically.
type svClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *svClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// pass moves the clock past the emulator's transition delay.
func (c *svClock) pass() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(apmsim.DefaultTransitionDelay)
}

func svStatus(t *testing.T, c *apm.Client, ref apm.ServerRef) string {
	t.Helper()
	s, err := c.GetServer(context.Background(), ref)
	if err != nil {
		t.Fatal(err)
	}
	return s.Status
}

func TestServerLifecycleThroughTheClient(t *testing.T) {
	clock := &svClock{t: time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)}
	f := newFixtureWithClock(t, clock.now)
	ctx := context.Background()
	c := f.admin
	ref := apm.ServerRef{Kind: apm.KindWAS, ServerID: "was-09", NodeName: "app-01", SystemName: "shop"}
	spec := apm.ServerSpec{ServerID: "was-09", NodeName: "app-01", SystemName: "shop", HTTPPort: 9080, AJPPort: 9009,
		Edition: apm.EditionEnterprise, InstallRootPath: "/srv/was-09"}
	checkErr(t, c.InstallServer(ctx, apm.KindWAS, spec), wantErr{})
	got, err := c.GetServer(ctx, ref)
	if err != nil {
		t.Fatal(err)
	}
	want := &apm.Server{
		Kind: apm.KindWAS, ServerID: "was-09", NodeName: "app-01", SystemName: "shop", Status: "stopped",
		HTTPPort: 9080, AJPPort: 9009, Edition: apm.EditionEnterprise, JavaHome: "/usr/lib/jvm/java-17", InstallRootPath: "/srv/was-09",
		Datasources: []string{},
		Reported:    apm.ReportedFields{SessionCluster: true, Datasources: true},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("installed server\n got %+v\nwant %+v", got, want)
	}

	checkErr(t, c.StartServer(ctx, ref), wantErr{})
	if s := svStatus(t, c, ref); s != "starting" {
		t.Fatalf("status after start: %s", s)
	}
	checkErr(t, c.UninstallServer(ctx, ref), wantErr{200, apm.CodeActionFailed, "Server was-09 is starting; stop it first"})
	clock.pass()
	if s := svStatus(t, c, ref); s != "running" {
		t.Fatalf("status after the delay: %s", s)
	}
	node, err := c.GetNode(ctx, "shop", "app-01")
	if err != nil || !reflect.DeepEqual(node.Servers, []apm.NodeServer{{ServerID: "was-09", ServerType: "was", Status: "running"}}) {
		t.Fatalf("node servers %+v, %v", node, err)
	}
	checkErr(t, c.StopServer(ctx, ref, false), wantErr{})
	if s := svStatus(t, c, ref); s != "stopping" {
		t.Fatalf("status after stop: %s", s)
	}
	clock.pass()

	// Deregistered, the server is offered for registration on its node.
	checkErr(t, c.DeregisterServer(ctx, ref), wantErr{})
	regs, err := c.ListRegisterableServers(ctx, apm.KindWAS, "shop", "app-01")
	if err != nil {
		t.Fatal(err)
	}
	wantRegs := []apm.RegisterableServer{
		{Kind: apm.KindWAS, SystemName: "shop", NodeName: "app-01", ServerID: "was-09", ServerIP: "10.0.0.12", Edition: apm.EditionEnterprise, HTTPPort: 9080, AJPPort: 9009},
		{Kind: apm.KindWAS, SystemName: "shop", NodeName: "app-01", ServerID: "was-reg-1", ServerIP: "10.0.0.12", Edition: apm.EditionStandard, HTTPPort: 18080, AJPPort: 18009},
	}
	if !reflect.DeepEqual(regs, wantRegs) {
		t.Fatalf("registerable\n got %+v\nwant %+v", regs, wantRegs)
	}
	checkErr(t, c.RegisterServer(ctx, apm.KindWAS, apm.ServerSpec{ServerID: "was-09", NodeName: "app-01", SystemName: "shop", HTTPPort: 9080}), wantErr{})
	if got, err := c.GetServer(ctx, ref); err != nil || got.InstallRootPath != "/srv/was-09" || got.Edition != apm.EditionEnterprise {
		t.Fatalf("registered again: %+v, %v", got, err)
	}
	// Only the system list carries the counts.
	systems, err := c.ListSystems(ctx)
	if i := slices.IndexFunc(systems, func(s apm.System) bool { return s.SystemName == "shop" }); err != nil || i < 0 ||
		systems[i].AppCount != 3 || systems[i].WebCount != 2 || systems[i].SessionCount != 1 {
		t.Fatalf("system counts %+v, %v", systems, err)
	}
	checkErr(t, c.UninstallServer(ctx, ref), wantErr{})
	_, err = c.GetServer(ctx, ref)
	checkErr(t, err, wantErr{404, "NOT_FOUND", "Server not found: was-09"})
	if regs, err := c.ListRegisterableServers(ctx, apm.KindWAS, "shop", "app-01"); err != nil || len(regs) != 1 || regs[0].ServerID != "was-reg-1" {
		t.Fatalf("registerable after uninstall: %+v, %v", regs, err)
	}
}

func TestServerSubOperationsThroughTheClient(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	c := f.admin
	for _, step := range []error{
		c.SetSessionCluster(ctx, svWAS02, apm.SessionCluster{PrimaryHost: "10.0.0.11", PrimaryPort: 5180, SecondaryHost: "10.0.0.12", SecondaryPort: 5180}),
		c.AttachDatasource(ctx, svWAS02, "orders-ds"),
		c.DeployApplication(ctx, svWAS02, apm.Deployment{ContextPath: "/api", SourcePath: "/opt/apps/api.war", ApplicationName: "api"}),
		c.ImportResource(ctx, svWAS02, apm.ResourceJTA, "jta/tx"),
		c.SetWorkers(ctx, svWeb02, []apm.Worker{{ServerID: "was-02", NodeName: "web-01", SystemName: "shop", LBFactor: 2}}),
		c.ConfigureSSL(ctx, svWeb02, svSSL(8443)),
		c.AddURIs(ctx, svWeb02, []string{"/b/*", "/a/*"}),
		c.DeleteURIs(ctx, svWeb02, []string{"/b/*"}),
	} {
		checkErr(t, step, wantErr{})
	}
	was, err := c.GetServer(ctx, svWAS02)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(was.SessionCluster, &apm.SessionCluster{PrimaryHost: "10.0.0.11", PrimaryPort: 5180, SecondaryHost: "10.0.0.12", SecondaryPort: 5180}) ||
		!reflect.DeepEqual(was.Datasources, []string{"orders-ds"}) {
		t.Fatalf("WAS detail %+v", was)
	}
	apps, err := c.ApplicationStatuses(ctx, svWAS02)
	if err != nil || !reflect.DeepEqual(apps, []apm.ApplicationStatus{{ContextPath: "/api", Status: "stopped", Sessions: 0}}) {
		t.Fatalf("applications %+v, %v", apps, err)
	}
	web, err := c.GetServer(ctx, svWeb02)
	if err != nil {
		t.Fatal(err)
	}
	if !web.SSLEnabled || web.HTTPSPort != 8443 || !reflect.DeepEqual(web.URIs, []string{"/a/*"}) ||
		!reflect.DeepEqual(web.Workers, []apm.Worker{{ServerID: "was-02", NodeName: "web-01", SystemName: "shop", Host: "10.0.0.11", AJPPort: 8109, LBFactor: 2}}) ||
		web.Reported != (apm.ReportedFields{Workers: true, URIs: true, SSLEnabled: true}) {
		t.Fatalf("web detail %+v", web)
	}
	// The key is never echoed: not in the detail, not in an error.
	_, key := svPEMs()
	keyLine := strings.Split(key, "\n")[1]
	if status, body := rawGet(t, f.sim, "/rest/web/servers/web-02/nodes/web-01/systems/shop", adminKey); status != 200 || strings.Contains(string(body), keyLine) {
		t.Fatalf("detail %d %s", status, body)
	}
	bad := svSSL(8443)
	bad.CertificatePEM = key
	if err := c.ConfigureSSL(ctx, svWeb02, bad); !apm.IsBadRequest(err) || strings.Contains(err.Error(), keyLine) {
		t.Fatalf("err = %v", err)
	}
}

func TestServerErrorsThroughTheClient(t *testing.T) {
	ctx := context.Background()
	nope := func(ref apm.ServerRef) apm.ServerRef { ref.ServerID = "nope"; return ref }
	refused := func(msg string) wantErr { return wantErr{200, apm.CodeActionFailed, msg} }
	cases := []struct {
		name string
		call func(c *apm.Client) error
		want wantErr
	}{
		{"install without port", func(c *apm.Client) error {
			return c.InstallServer(ctx, apm.KindWAS, apm.ServerSpec{ServerID: "x", NodeName: "app-01", SystemName: "shop"})
		}, wantErr{400, "BAD_REQUEST", "httpPort is required"}},
		{"install in unknown system", func(c *apm.Client) error {
			return c.InstallServer(ctx, apm.KindSession, apm.ServerSpec{ServerID: "x", NodeName: "app-01", SystemName: "nope", ServerPort: 1})
		}, wantErr{404, "NOT_FOUND", "System not found: nope"}},
		{"install on unknown node", func(c *apm.Client) error {
			return c.InstallServer(ctx, apm.KindWeb, apm.ServerSpec{ServerID: "x", NodeName: "nope", SystemName: "shop", HTTPPort: 1})
		}, wantErr{404, "NOT_FOUND", "Node not found: nope"}},
		{"install duplicate", func(c *apm.Client) error {
			return c.InstallServer(ctx, apm.KindWAS, apm.ServerSpec{ServerID: "was-01", NodeName: "web-01", SystemName: "shop", HTTPPort: 9999})
		}, wantErr{409, "CONFLICT", "Server already exists: was-01"}},
		{"install on a used port", func(c *apm.Client) error {
			return c.InstallServer(ctx, apm.KindSession, apm.ServerSpec{ServerID: "s2", NodeName: "web-01", SystemName: "shop", ServerPort: 8080})
		}, wantErr{409, "CONFLICT", "Port 8080 is already used by was-01 on node web-01"}},
		{"register unknown", func(c *apm.Client) error {
			return c.RegisterServer(ctx, apm.KindWeb, apm.ServerSpec{ServerID: "nope", NodeName: "web-01", SystemName: "shop", HTTPPort: 1})
		}, wantErr{404, "NOT_FOUND", "Registerable server not found: nope"}},
		{"detail of unknown", func(c *apm.Client) error { _, err := c.GetServer(ctx, nope(svWeb01)); return err },
			wantErr{404, "NOT_FOUND", "Server not found: nope"}},
		{"modify onto a used port", func(c *apm.Client) error { return c.ModifyServer(ctx, svWeb02, apm.ServerSettings{HTTPPort: 80}) },
			wantErr{409, "CONFLICT", "Port 80 is already used by web-01 on node web-01"}},
		{"start a running server", func(c *apm.Client) error { return c.StartServer(ctx, svWAS01) }, refused("Server was-01 is already running")},
		{"stop a stopped server", func(c *apm.Client) error { return c.StopServer(ctx, svSession01, false) }, refused("Server session-01 is already stopped")},
		{"uninstall a running server", func(c *apm.Client) error { return c.UninstallServer(ctx, svWeb01) }, refused("Server web-01 is running; stop it first")},
		{"deregister a worker", func(c *apm.Client) error {
			if err := c.StopServer(ctx, svWAS01, true); err != nil {
				return err
			}
			return c.DeregisterServer(ctx, svWAS01)
		}, wantErr{409, "CONFLICT", "Server was-01 is a load balancer worker of web server web-01; remove the worker first"}},
		{"remove absent clustering", func(c *apm.Client) error { return c.RemoveSessionCluster(ctx, svWAS02) },
			wantErr{404, "NOT_FOUND", "Session clustering not found: was-02"}},
		{"attach unknown datasource", func(c *apm.Client) error { return c.AttachDatasource(ctx, svWAS02, "nope") },
			wantErr{404, "NOT_FOUND", "Datasource not found: nope"}},
		{"attach twice", func(c *apm.Client) error { return c.AttachDatasource(ctx, svWAS01, "orders-ds") },
			wantErr{409, "CONFLICT", "Datasource already attached: orders-ds"}},
		{"detach absent", func(c *apm.Client) error { return c.DetachDatasource(ctx, svWAS02, "orders-ds") },
			wantErr{404, "NOT_FOUND", "Datasource not attached: orders-ds"}},
		{"deploy twice", func(c *apm.Client) error {
			return c.DeployApplication(ctx, svWAS01, apm.Deployment{ContextPath: "/shop", SourcePath: "/opt/apps/shop2.war"})
		}, wantErr{409, "CONFLICT", "Application already deployed: /shop"}},
		{"deploy bad context path", func(c *apm.Client) error {
			return c.DeployApplication(ctx, svWAS01, apm.Deployment{ContextPath: "shop", SourcePath: "/a.war"})
		}, wantErr{400, "BAD_REQUEST", "Invalid contextPath: shop (must start with '/')"}},
		{"undeploy absent", func(c *apm.Client) error { return c.UndeployApplication(ctx, svWAS01, "/nope") },
			wantErr{404, "NOT_FOUND", "Application not found: /nope"}},
		{"statuses of unknown", func(c *apm.Client) error { _, err := c.ApplicationStatuses(ctx, nope(svWAS01)); return err },
			wantErr{404, "NOT_FOUND", "Server not found: nope"}},
		{"import unknown datasource", func(c *apm.Client) error { return c.ImportResource(ctx, svWAS01, apm.ResourceDatasource, "nope") },
			wantErr{404, "NOT_FOUND", "Datasource not found: nope"}},
		{"worker of unknown WAS", func(c *apm.Client) error {
			return c.SetWorkers(ctx, svWeb01, []apm.Worker{{ServerID: "nope", NodeName: "web-01", SystemName: "shop"}})
		}, wantErr{404, "NOT_FOUND", "WAS server not found: nope"}},
		{"ssl without a certificate", func(c *apm.Client) error {
			cfg := svSSL(443)
			cfg.CertificatePEM = "not a certificate"
			return c.ConfigureSSL(ctx, svWeb01, cfg)
		}, wantErr{400, "BAD_REQUEST", "Invalid certificatePem: expected a PEM-encoded CERTIFICATE"}},
		{"bad URI pattern", func(c *apm.Client) error { return c.AddURIs(ctx, svWeb01, []string{"api"}) },
			wantErr{400, "BAD_REQUEST", "Invalid URI pattern: api (must start with '/')"}},
		{"registerable of unknown node", func(c *apm.Client) error {
			_, err := c.ListRegisterableServers(ctx, apm.KindSession, "shop", "nope")
			return err
		}, wantErr{404, "NOT_FOUND", "Node not found: nope"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			checkErr(t, tc.call(newFixture(t).admin), tc.want)
		})
	}
}

// Every write of the server areas is refused to the viewer key and done for the admin key.
func TestViewerCannotChangeServers(t *testing.T) {
	ctx := context.Background()
	for _, route := range slices.Sorted(func(yield func(string) bool) {
		for r := range endpointCases {
			if svIsServerRoute(r) && !strings.HasPrefix(r, http.MethodGet+" ") && !yield(r) {
				return
			}
		}
	}) {
		t.Run(route, func(t *testing.T) {
			f := newFixture(t)
			checkErr(t, endpointCases[route].call(ctx, f.viewer), wantErr{403, "FORBIDDEN", "Access denied"})
			checkErr(t, endpointCases[route].call(ctx, f.admin), wantErr{})
		})
	}
}
