package provider

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/apmsim/apmsimtest"
	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
)

// wasServersHCL declares shop/app-01 with apm_was_server.a (was-1) and, with two,
// apm_was_server.b (was-2), installed and stopped unless lines say more for a.
func wasServersHCL(two bool, lines ...string) string {
	hcl := shopNodeHCL() + serverHCL("was", "a", append([]string{`server_id = "was-1"`, `mode = "install"`, `http_port = 8080`}, lines...)...)
	if two {
		hcl += serverHCL("was", "b", `server_id = "was-2"`, `mode = "install"`, `http_port = 8081`)
	}
	return hcl
}

// partHCL is the body of a part on apm_was_server.<server>: was_server_id and lines.
func partHCL(server string, lines ...string) string {
	return fmt.Sprintf("{\n  was_server_id = apm_was_server.%s.id\n  %s\n}\n", server, strings.Join(lines, "\n  "))
}

// checkCluster compares the manager's session clustering of a WAS server with want
// (nil: none).
func (e *accEnv) checkCluster(serverID string, cluster *apm.SessionCluster) resource.TestCheckFunc {
	return e.checkServer(wasRef(serverID), func(s *apm.Server) error {
		same := (s.SessionCluster == nil) == (cluster == nil) && (cluster == nil || *s.SessionCluster == *cluster)
		return want(same, "has session clustering %s, want %s", clusterText(s.SessionCluster), clusterText(cluster))
	})
}

func clusterText(c *apm.SessionCluster) string {
	if c == nil {
		return "none"
	}
	return fmt.Sprintf("%+v", *c)
}

// Session clustering: create, a secondary server added outside Terraform is drift that
// apply removes (in place), secondary set in place, removal outside Terraform re-created,
// import, and a move to another server replaces it. Half a secondary fails at plan.
func TestAccWASSessionCluster_lifecycle(t *testing.T) {
	env := newAccEnv(t)
	config := func(server string, lines ...string) string {
		return env.config(wasServersHCL(true) + `resource "apm_was_session_cluster" "c" ` + partHCL(server, lines...))
	}
	primaryOnly := []string{`primary_host = "10.0.0.31"`, `primary_port = 15200`}
	withSecondary := config("a", `primary_host = "10.0.0.31"`, `primary_port = 15201`, `secondary_host = "10.0.0.32"`, `secondary_port = 15200`)
	wantPrimary := &apm.SessionCluster{PrimaryHost: "10.0.0.31", PrimaryPort: 15200}
	wantSecondary := &apm.SessionCluster{PrimaryHost: "10.0.0.31", PrimaryPort: 15201, SecondaryHost: "10.0.0.32", SecondaryPort: 15200}
	env.testUntilEmpty([]resource.TestStep{
		{
			Config:      config("a", append(primaryOnly, `secondary_host = "10.0.0.32"`)...),
			PlanOnly:    true,
			ExpectError: errorMatching("These attributes must be configured together", "secondary_host", "secondary_port"),
		},
		{
			Config:           config("a", primaryOnly...),
			ConfigPlanChecks: applied(creates("apm_was_session_cluster.c")),
			ConfigStateChecks: []statecheck.StateCheck{
				attrNull("apm_was_session_cluster.c", "secondary_host"),
				attrNull("apm_was_session_cluster.c", "secondary_port"),
			},
			Check: resource.ComposeAggregateTestCheckFunc(
				env.checkExists("apm_was_session_cluster.c"),
				resource.TestCheckResourceAttrPair("apm_was_session_cluster.c", "id", "apm_was_server.a", "id"),
				env.checkCluster("was-1", wantPrimary),
				env.checkCluster("was-2", nil),
			),
		},
		{
			// Another operator added a secondary server: the configuration has none.
			PreConfig: func() {
				env.must(env.admin.SetSessionCluster(env.ctx(), wasRef("was-1"),
					apm.SessionCluster{PrimaryHost: "10.0.0.31", PrimaryPort: 15200, SecondaryHost: "10.0.0.99", SecondaryPort: 15300}))
			},
			Config: config("a", primaryOnly...),
			ConfigPlanChecks: applied(
				exactActions{"apm_was_session_cluster.c": plancheck.ResourceActionUpdate},
				plancheck.ExpectKnownValue("apm_was_session_cluster.c", tfjsonpath.New("secondary_host"), knownvalue.Null()),
			),
			Check: env.checkCluster("was-1", wantPrimary),
		},
		{
			Config:           withSecondary,
			ConfigPlanChecks: applied(exactActions{"apm_was_session_cluster.c": plancheck.ResourceActionUpdate}),
			Check:            env.checkCluster("was-1", wantSecondary),
		},
		{
			// Removed outside Terraform: the next apply sets it up again.
			PreConfig:        func() { env.must(env.admin.RemoveSessionCluster(env.ctx(), wasRef("was-1"))) },
			Config:           withSecondary,
			ConfigPlanChecks: applied(exactActions{"apm_was_session_cluster.c": plancheck.ResourceActionCreate}),
			Check:            env.checkCluster("was-1", wantSecondary),
		},
		{
			ResourceName:      "apm_was_session_cluster.c",
			ImportState:       true,
			ImportStateId:     "shop/app-01/was-1",
			ImportStateVerify: true,
		},
		{
			Config:           config("b", primaryOnly...),
			ConfigPlanChecks: applied(exactActions{"apm_was_session_cluster.c": plancheck.ResourceActionDestroyBeforeCreate}),
			Check: resource.ComposeAggregateTestCheckFunc(
				env.checkCluster("was-1", nil),
				env.checkCluster("was-2", wantPrimary),
			),
		},
	})
}

// checkDatasources compares the datasources attached to was-1 with want.
func (e *accEnv) checkDatasources(names ...string) resource.TestCheckFunc {
	return e.checkServer(wasRef("was-1"), func(s *apm.Server) error {
		return want(slices.Equal(s.Datasources, names), "has datasources %q attached, want %q", s.Datasources, names)
	})
}

// createDatasources creates a database and the named datasources on it, out of band (the
// datasource resource type comes later).
func (e *accEnv) createDatasources(names ...string) {
	e.t.Helper()
	e.must(e.admin.CreateDatabase(e.ctx(), apm.DatabaseSpec{ResourceName: "orders-db", DatabaseType: "PostgreSQL", Host: "10.0.0.40", Port: 5432,
		DatabaseName: "orders", UserName: "app", Password: "Sw0rdfish!"}))
	for _, name := range names {
		e.must(e.admin.CreateDatasource(e.ctx(), apm.DatasourceSpec{ResourceName: name, DatabaseResourceName: "orders-db"}))
	}
}

// An attached datasource: attach, detached outside Terraform and attached again, import,
// and another datasource replaces it.
func TestAccWASDatasource_lifecycle(t *testing.T) {
	env := newAccEnv(t)
	env.createDatasources("orders-ds", "billing-ds")
	config := func(name string) string {
		return env.config(wasServersHCL(false) + `resource "apm_was_datasource" "d" ` + partHCL("a", fmt.Sprintf("datasource_name = %q", name)))
	}
	env.testUntilEmpty([]resource.TestStep{
		{
			Config:           config("orders-ds"),
			ConfigPlanChecks: applied(creates("apm_was_datasource.d")),
			Check: resource.ComposeAggregateTestCheckFunc(
				env.checkExists("apm_was_datasource.d"),
				env.checkDatasources("orders-ds"),
				checkIDIs("apm_was_datasource.d", "apm_was_server.a", "/orders-ds"),
			),
		},
		{
			PreConfig:        func() { env.must(env.admin.DetachDatasource(env.ctx(), wasRef("was-1"), "orders-ds")) },
			Config:           config("orders-ds"),
			ConfigPlanChecks: applied(exactActions{"apm_was_datasource.d": plancheck.ResourceActionCreate}),
			Check:            env.checkDatasources("orders-ds"),
		},
		{
			ResourceName:      "apm_was_datasource.d",
			ImportState:       true,
			ImportStateId:     "shop/app-01/was-1/orders-ds",
			ImportStateVerify: true,
		},
		{
			Config:           config("billing-ds"),
			ConfigPlanChecks: applied(exactActions{"apm_was_datasource.d": plancheck.ResourceActionDestroyBeforeCreate}),
			Check:            env.checkDatasources("billing-ds"),
		},
	})
}

// checkIDIs passes when addr's id is the id of the server at serverAddr plus suffix.
func checkIDIs(addr, serverAddr, suffix string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		id, err := stateAttr(s, addr, "id")
		if err != nil {
			return err
		}
		server, err := stateAttr(s, serverAddr, "id")
		if err != nil {
			return err
		}
		return want(id == server+suffix, "%s: id %q, want %q", addr, id, server+suffix)
	}
}

// checkApplications compares the context paths deployed on was-1 with want, and the data
// source's list with the manager's statuses.
func (e *accEnv) checkApplications(dataAddr string, contextPaths ...string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		apps, err := e.admin.ApplicationStatuses(e.ctx(), wasRef("was-1"))
		if err != nil {
			return err
		}
		var got []string
		for _, a := range apps {
			got = append(got, a.ContextPath)
		}
		if !slices.Equal(got, contextPaths) {
			return fmt.Errorf("was-1 has the applications %q deployed, want %q", got, contextPaths)
		}
		rs, ok := s.RootModule().Resources[dataAddr]
		if !ok {
			return fmt.Errorf("%s is not in state", dataAddr)
		}
		attrs := rs.Primary.Attributes
		if attrs["applications.#"] != strconv.Itoa(len(apps)) {
			return fmt.Errorf("%s lists %s applications, the manager %d", dataAddr, attrs["applications.#"], len(apps))
		}
		for i, a := range apps {
			item := fmt.Sprintf("%s:%s:%s", attrs[fmt.Sprintf("applications.%d.context_path", i)], attrs[fmt.Sprintf("applications.%d.status", i)],
				attrs[fmt.Sprintf("applications.%d.sessions", i)])
			if fresh := fmt.Sprintf("%s:%s:%d", a.ContextPath, a.Status, a.Sessions); item != fresh || a.Status != "running" || a.Sessions < 1 {
				return fmt.Errorf("%s lists %s, the manager %s (of a running server, with sessions)", dataAddr, item, fresh)
			}
		}
		return nil
	}
}

// routeCount is how many requests the sim served whose route starts with method and ends
// with suffix.
func (e *accEnv) routeCount(method, suffix string) int {
	n := 0
	for route, count := range e.sim.Sim.RequestCounts() {
		if strings.HasPrefix(route, method+" ") && strings.HasSuffix(route, suffix) {
			n += count
		}
	}
	return n
}

// A deployed application on a running server, read back by the data source: deploy,
// undeployed outside Terraform and deployed again, import by its id and by the other
// spelling, a new archive redeploys it. A context path without its slash fails at plan.
func TestAccWASApplication_lifecycle(t *testing.T) {
	env := newAccEnv(t)
	config := func(contextPath, source string) string {
		return env.config(wasServersHCL(false, `state = "running"`) +
			`resource "apm_was_application" "shop" ` + partHCL("a", fmt.Sprintf("context_path = %q", contextPath), fmt.Sprintf("source_path = %q", source), `application_name = "shop"`) + `
data "apm_was_applications" "was1" {
  system_name = "shop"
  node_name   = "app-01"
  server_id   = apm_was_server.a.server_id
  depends_on  = [apm_was_application.shop]
}
`)
	}
	first, second := config("/shop", "/opt/releases/shop-1.0.war"), config("/shop", "/opt/releases/shop-1.1.war")
	verify := []string{"source_path", "application_name"} // not reported by the manager
	env.testUntilEmpty([]resource.TestStep{
		{
			Config:      config("shop", "/opt/releases/shop-1.0.war"),
			PlanOnly:    true,
			ExpectError: errorMatching("context_path", "must start with /"),
		},
		{
			Config:           first,
			ConfigPlanChecks: applied(creates("apm_was_application.shop")),
			Check: resource.ComposeAggregateTestCheckFunc(
				env.checkExists("apm_was_application.shop"),
				checkIDIs("apm_was_application.shop", "apm_was_server.a", "/shop"),
				env.checkApplications("data.apm_was_applications.was1", "/shop"),
			),
		},
		{
			PreConfig:        func() { env.must(env.admin.UndeployApplication(env.ctx(), wasRef("was-1"), "/shop")) },
			Config:           first,
			ConfigPlanChecks: applied(exactActions{"apm_was_application.shop": plancheck.ResourceActionCreate}),
			Check:            env.checkApplications("data.apm_was_applications.was1", "/shop"),
		},
		{
			ResourceName:            "apm_was_application.shop",
			ImportState:             true,
			ImportStateIdFunc:       importIDFrom("apm_was_application.shop", ""),
			ImportStateVerify:       true,
			ImportStateVerifyIgnore: verify,
		},
		{
			ResourceName:            "apm_was_application.shop",
			ImportState:             true,
			ImportStateId:           "shop/app-01/was-1//shop",
			ImportStateVerify:       true,
			ImportStateVerifyIgnore: verify,
		},
		{
			// A new archive: undeployed, then deployed again.
			PreConfig:        func() { env.sim.Sim.ResetRequestCounts() },
			Config:           second,
			ConfigPlanChecks: applied(exactActions{"apm_was_application.shop": plancheck.ResourceActionDestroyBeforeCreate}),
			Check: resource.ComposeAggregateTestCheckFunc(
				env.checkApplications("data.apm_was_applications.was1", "/shop"),
				func(*terraform.State) error {
					undeploys, deploys := env.routeCount("DELETE", "/application"), env.routeCount("POST", "/application")
					return want(undeploys == 1 && deploys == 1, "%d undeploys and %d deploys, want one each", undeploys, deploys)
				},
			),
		},
	})
}

// ---- without a CLI ----

// The import ID of an application: the server's three parts, then the context path with
// or without its slash.
func TestWASApplicationImportID(t *testing.T) {
	for raw, want := range map[string][2]string{ // server part, context path; none: an error
		"shop/app-01/was-1/shop":      {"shop/app-01/was-1", "/shop"},
		"shop/app-01/was-1//shop":     {"shop/app-01/was-1", "/shop"},
		"shop/app-01/was-1//":         {"shop/app-01/was-1", "/"},
		"shop/app-01/was-1/api/v1":    {"shop/app-01/was-1", "/api/v1"},
		"SYS-0001/app-01/was-1//shop": {"SYS-0001/app-01/was-1", "/shop"},
		"shop/app-01/was-1":           {},
		"shop/app-01/was-1/":          {},
		"shop//was-1/shop":            {},
	} {
		parts, err := wasApplicationType.ImportID.Parse(raw)
		if want[0] == "" {
			if err == nil {
				t.Errorf("%q: parsed as %q, want an error", raw, parts)
			} else if !strings.Contains(err.Error(), "for example shop/app-01/was-1/shop") {
				t.Errorf("%q: error %q does not show the example", raw, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", raw, err)
			continue
		}
		got, _ := contextPathPart.Resolve(context.Background(), nil, parts[1])
		if parts[0] != want[0] || got != want[1] {
			t.Errorf("%q: server %q and context path %q, want %q and %q", raw, parts[0], got, want[0], want[1])
		}
	}
}

// A detach that got 404 is done when the server is gone, when its list lacks the
// datasource, or, where the manager does not report the list, when the manager's own
// NOT_FOUND names the datasource; anything else is an error.
func TestDetachedAlready(t *testing.T) {
	notAttached := &apm.Error{StatusCode: http.StatusNotFound, Code: "NOT_FOUND", Message: "Datasource not attached: orders-ds"}
	proxy := &apm.Error{StatusCode: http.StatusNotFound, Message: "<html>Not Found</html>"}
	reported := func(names ...string) *apm.Server {
		return &apm.Server{Datasources: names, Reported: apm.ReportedFields{Datasources: true}}
	}
	terse := &apm.Server{}
	cases := []struct {
		name    string
		err     error
		srv     *apm.Server
		readErr error
		done    bool
	}{
		{"server gone", notAttached, nil, fmt.Errorf("no system: %w", engine.ErrGone), true},
		{"server unreadable", notAttached, nil, errors.New("connection refused"), false},
		{"not in the list", notAttached, reported("billing-ds"), nil, true},
		{"still in the list", proxy, reported("orders-ds"), nil, false},
		{"terse, the manager names it", notAttached, terse, nil, true},
		{"terse, another name", &apm.Error{StatusCode: 404, Code: "NOT_FOUND", Message: "Datasource not attached: orders-ds-2"}, terse, nil, false},
		{"terse, a proxy's 404", proxy, terse, nil, false},
	}
	for _, c := range cases {
		got := detachedAlready(c.err, c.srv, c.readErr, "orders-ds")
		if (got == nil) != c.done || (got != nil && !errors.Is(got, c.err)) {
			t.Errorf("%s: got %v, want done=%v", c.name, got, c.done)
		}
	}
}

// Calls of the parts that the acceptance tests cannot reach through a plan: a create of
// session clustering that finds one is a conflict, and deletes that find their part gone
// already (detached or undeployed behind the refresh, the server deleted) succeed.
func TestWASPartsAgainstTheManager(t *testing.T) {
	env := newAccEnv(t)
	ctx := env.ctx()
	env.must(env.admin.CreateSystem(ctx, "shop"))
	env.must(env.admin.CreateNode(ctx, apm.CreateNodeRequest{NodeName: "app-01", SystemName: "shop", HostIP: "10.0.0.21", AgentPort: 7730}))
	for i, id := range []string{"was-1", "was-2"} {
		env.must(env.admin.InstallServer(ctx, apm.KindWAS, apm.ServerSpec{ServerID: id, NodeName: "app-01", SystemName: "shop", HTTPPort: int64(8080 + i)}))
	}
	env.createDatasources("orders-ds")
	m := env.accConn()
	str := func(s string) tftypes.Value { return tftypes.NewValue(tftypes.String, s) }
	server := func(id string) string { return env.systemID("shop") + "/app-01/" + id }

	cluster := engine.Attrs{"was_server_id": str(server("was-1")), "primary_host": str("10.0.0.31"), "primary_port": engine.Int64Value(15200)}
	env.must(env.admin.SetSessionCluster(ctx, wasRef("was-1"), apm.SessionCluster{PrimaryHost: "10.0.0.9", PrimaryPort: 15000}))
	err := wasSessionClusterType.Create(ctx, m, cluster)
	if !apm.IsConflict(err) || !strings.Contains(err.Error(), `WAS server "was-1" on node "app-01" of system "shop" already has session clustering (primary 10.0.0.9:15000)`) {
		t.Errorf("create over existing session clustering: %v, want a conflict that names it", err)
	}
	if s, _ := env.admin.GetServer(ctx, wasRef("was-1")); s == nil || s.SessionCluster == nil || s.SessionCluster.PrimaryHost != "10.0.0.9" {
		t.Errorf("the existing session clustering was changed: %+v", s)
	}

	ds := engine.Attrs{"was_server_id": str(server("was-1")), "datasource_name": str("orders-ds")}
	if err := wasDatasourceType.Delete(ctx, m, ds); err != nil {
		t.Errorf("detach of a datasource not attached: %v", err)
	}
	if err := wasDatasourceType.Delete(ctx, m, ds.With("datasource_name", str("no-such-ds"))); err != nil {
		t.Errorf("detach of a datasource that does not exist: %v", err)
	}

	app := engine.Attrs{"was_server_id": str(server("was-2")), "context_path": str("/shop")}
	if err := wasApplicationType.Delete(ctx, m, app); !engine.IsGone(err) {
		t.Errorf("undeploy of an application not deployed: %v, want gone", err)
	}
	env.must(env.admin.UninstallServer(ctx, wasRef("was-2")))
	if err := wasApplicationType.Delete(ctx, m, app); err != nil {
		t.Errorf("undeploy from a server that was deleted: %v", err)
	}
	if err := wasDatasourceType.Delete(ctx, m, ds.With("was_server_id", str(server("was-2")))); err != nil {
		t.Errorf("detach from a server that was deleted: %v", err)
	}
	if _, err := readWASApplication(ctx, m, app); !engine.IsGone(err) {
		t.Errorf("read of an application on a server that was deleted: %v, want gone", err)
	}
	_, err = listWASApplications(ctx, m, engine.Attrs{"system_name": str("shop"), "node_name": str("app-01"), "server_id": str("was-2")})
	if !engine.IsGone(err) || !strings.Contains(engine.Explain(err), `no WAS server "was-2" on node "app-01" of system "shop"`) {
		t.Errorf("data source on a server that does not exist: %v, want one that says so", err)
	}
}

// A terse manager (no sessionCluster, no datasources in the detail): reads keep the
// applied values rather than report the parts gone, and a detach of a datasource not
// attached is still done.
func TestWASPartsOnATerseManager(t *testing.T) {
	sim := apmsimtest.Start(t, apmsimtest.WithOmitOptionalFields())
	admin, err := apm.New(apm.Config{Endpoint: sim.URL, APIKey: sim.AdminKey, MaxRetries: 0})
	if err != nil {
		t.Fatal(err)
	}
	env := &accEnv{t: t, sim: sim, admin: admin}
	ctx := env.ctx()
	env.must(admin.CreateSystem(ctx, "shop"))
	env.must(admin.CreateNode(ctx, apm.CreateNodeRequest{NodeName: "app-01", SystemName: "shop", HostIP: "10.0.0.21", AgentPort: 7730}))
	env.must(admin.InstallServer(ctx, apm.KindWAS, apm.ServerSpec{ServerID: "was-1", NodeName: "app-01", SystemName: "shop", HTTPPort: 8080}))
	env.createDatasources("orders-ds")
	m := env.accConn()
	str := func(s string) tftypes.Value { return tftypes.NewValue(tftypes.String, s) }
	server := str(env.systemID("shop") + "/app-01/was-1")

	c, err := readWASSessionCluster(ctx, m, engine.Attrs{"was_server_id": server})
	if err != nil || c.reported {
		t.Errorf("read of session clustering on a terse manager: %+v, %v; want kept", c, err)
	}
	ds := engine.Attrs{"was_server_id": server, "datasource_name": str("orders-ds")}
	if _, err := readWASDatasource(ctx, m, ds); err != nil {
		t.Errorf("read of a datasource on a terse manager: %v, want kept", err)
	}
	if err := wasDatasourceType.Delete(ctx, m, ds); err != nil {
		t.Errorf("detach of a datasource not attached, terse manager: %v", err)
	}
}
