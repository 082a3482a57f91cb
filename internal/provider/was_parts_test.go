package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/apmsim"
	"github.com/apmplatform/terraform-provider-apm/internal/apmsim/apmsimtest"
	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
)

// Shared by the tests of the WAS server's parts (session clustering, datasources,
// applications): the servers of the test's system "shop" (env.name), on its node app-01.

// shopWAS is the WAS server id on shop/app-01 of this test's system "shop".
func (e *accEnv) shopWAS(id string) apm.ServerRef {
	ref := wasRef(id)
	ref.SystemName = e.name("shop")
	return ref
}

// createDatasources creates a database and the named datasources on it, out of band (the
// names get the test's prefix, as the returned names do), and deletes them when the test
// is done.
func (e *accEnv) createDatasources(names ...string) []string {
	e.t.Helper()
	db := e.name("orders-db")
	e.must(e.admin.CreateDatabase(e.ctx(), apm.DatabaseSpec{ResourceName: db, DatabaseType: "PostgreSQL", Host: "10.0.0.40", Port: 5432,
		DatabaseName: "orders", UserName: "app", Password: "Sw0rdfish!"}))
	out := make([]string, len(names))
	for i, name := range names {
		out[i] = e.name(name)
		e.must(e.admin.CreateDatasource(e.ctx(), apm.DatasourceSpec{ResourceName: out[i], DatabaseResourceName: db}))
	}
	e.t.Cleanup(func() {
		for _, name := range out {
			_ = e.admin.DeleteDatasource(e.ctx(), name)
		}
		_ = e.admin.DeleteDatabase(e.ctx(), db)
	})
	return out
}

// arrangeShop creates, out of band, the system "shop" with its node app-01 and the named
// WAS servers (HTTP 8080 on), and removes what is left of them (with any session
// clustering) when the test is done.
func (e *accEnv) arrangeShop(wasServers ...string) {
	e.t.Helper()
	ctx, shop := e.ctx(), e.name("shop")
	e.must(e.admin.CreateSystem(ctx, shop))
	e.must(e.admin.CreateNode(ctx, apm.CreateNodeRequest{NodeName: "app-01", SystemName: shop, HostIP: "10.0.0.21", AgentPort: 7730}))
	for i, id := range wasServers {
		e.must(e.admin.InstallServer(ctx, apm.KindWAS, apm.ServerSpec{ServerID: id, NodeName: "app-01", SystemName: shop, HTTPPort: int64(8080 + i)}))
	}
	e.t.Cleanup(func() {
		for _, id := range wasServers {
			_ = e.admin.RemoveSessionCluster(ctx, e.shopWAS(id))
			_ = e.admin.UninstallServer(ctx, e.shopWAS(id))
		}
		if node, err := e.admin.GetNode(ctx, shop, "app-01"); err == nil {
			_ = e.admin.DeleteNode(ctx, shop, node.NodeID)
		}
		_ = e.admin.DeleteSystem(ctx, shop)
	})
}

// arrangeWAS creates, out of band, the system, node and WAS server of ref (HTTP 8080 on a
// node of its own), and removes them, detaching every datasource first, when the test is
// done.
func (e *accEnv) arrangeWAS(ref apm.ServerRef) {
	e.t.Helper()
	ctx := e.ctx()
	e.must(e.admin.CreateSystem(ctx, ref.SystemName))
	e.must(e.admin.CreateNode(ctx, apm.CreateNodeRequest{NodeName: ref.NodeName, SystemName: ref.SystemName, HostIP: "10.0.0.22", AgentPort: 7730}))
	e.must(e.admin.InstallServer(ctx, apm.KindWAS, apm.ServerSpec{ServerID: ref.ServerID, NodeName: ref.NodeName, SystemName: ref.SystemName, HTTPPort: 8080}))
	e.t.Cleanup(func() {
		if s, err := e.admin.GetServer(ctx, ref); err == nil {
			for _, ds := range s.Datasources {
				_ = e.admin.DetachDatasource(ctx, ref, ds)
			}
		}
		_ = e.admin.UninstallServer(ctx, ref)
		if node, err := e.admin.GetNode(ctx, ref.SystemName, ref.NodeName); err == nil {
			_ = e.admin.DeleteNode(ctx, ref.SystemName, node.NodeID)
		}
		_ = e.admin.DeleteSystem(ctx, ref.SystemName)
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

// routeCount is how many requests the sim served whose route starts with method and ends
// with suffix.
func routeCount(sim *apmsim.Sim, method, suffix string) int {
	n := 0
	for route, count := range sim.RequestCounts() {
		if strings.HasPrefix(route, method+" ") && strings.HasSuffix(route, suffix) {
			n += count
		}
	}
	return n
}

// ---- without a CLI ----

// Calls of the parts that the acceptance tests cannot reach through a plan: a create of
// session clustering that finds one is a conflict, and deletes that find their part gone
// already (detached or undeployed behind the refresh, the server deleted) succeed.
func TestWASPartsAgainstTheManager(t *testing.T) {
	env := newAccEnv(t)
	ctx, shop := env.ctx(), env.name("shop")
	env.arrangeShop("was-1", "was-2")
	ordersDS := env.createDatasources("orders-ds")[0]
	m := env.accConn()
	str := func(s string) tftypes.Value { return tftypes.NewValue(tftypes.String, s) }
	server := func(id string) string { return env.systemID(shop) + "/app-01/" + id }

	cluster := engine.Attrs{"was_server_id": str(server("was-1")), "primary_host": str("10.0.0.31"), "primary_port": engine.Int64Value(15200)}
	env.must(env.admin.SetSessionCluster(ctx, env.shopWAS("was-1"), apm.SessionCluster{PrimaryHost: "10.0.0.9", PrimaryPort: 15000}))
	err := wasSessionClusterType.Create(ctx, m, cluster)
	if !apm.IsConflict(err) || !strings.Contains(err.Error(), fmt.Sprintf(`WAS server "was-1" on node "app-01" of system %q already has session clustering (primary 10.0.0.9:15000)`, shop)) {
		t.Errorf("create over existing session clustering: %v, want a conflict that names it", err)
	}
	if s, _ := env.admin.GetServer(ctx, env.shopWAS("was-1")); s == nil || s.SessionCluster == nil || s.SessionCluster.PrimaryHost != "10.0.0.9" {
		t.Errorf("the existing session clustering was changed: %+v", s)
	}

	ds := engine.Attrs{"was_server_id": str(server("was-1")), "datasource_name": str(ordersDS)}
	if err := wasDatasourceType.Delete(ctx, m, ds); err != nil {
		t.Errorf("detach of a datasource not attached: %v", err)
	}
	if err := wasDatasourceType.Delete(ctx, m, ds.With("datasource_name", str(env.name("no-such-ds")))); err != nil {
		t.Errorf("detach of a datasource that does not exist: %v", err)
	}

	app := engine.Attrs{"was_server_id": str(server("was-2")), "context_path": str("/shop")}
	if err := wasApplicationType.Delete(ctx, m, app); !engine.IsGone(err) {
		t.Errorf("undeploy of an application not deployed: %v, want gone", err)
	}
	env.must(env.admin.UninstallServer(ctx, env.shopWAS("was-2")))
	if err := wasApplicationType.Delete(ctx, m, app); err != nil {
		t.Errorf("undeploy from a server that was deleted: %v", err)
	}
	if err := wasDatasourceType.Delete(ctx, m, ds.With("was_server_id", str(server("was-2")))); err != nil {
		t.Errorf("detach from a server that was deleted: %v", err)
	}
	if _, err := readWASApplication(ctx, m, app); !engine.IsGone(err) {
		t.Errorf("read of an application on a server that was deleted: %v, want gone", err)
	}
	// The lists of a server that is gone say so in an error the engine knows for gone with
	// its parent, whatever the data source makes of it.
	for what, list := range map[string]func() error{
		"applications":       func() error { _, err := listWASApplications(ctx, m, server("was-2")); return err },
		"datasources":        func() error { _, err := listWASDatasources(ctx, m, server("was-2")); return err },
		"session clustering": func() error { _, err := listWASSessionClusters(ctx, m, server("was-2")); return err },
	} {
		if err := list(); !engine.GoneWithParent(err) || !strings.Contains(err.Error(), "was-2") {
			t.Errorf("the %s of a server that does not exist: %v, want gone, naming the server", what, err)
		}
	}
}

// A terse manager (no sessionCluster, no datasources in the detail): reads keep the
// applied values rather than report the parts gone, and a detach of a datasource not
// attached is still done.
func TestWASPartsOnATerseManager(t *testing.T) {
	env := newAccEnvWith(t, apmsimtest.WithOmitOptionalFields())
	ctx := env.ctx()
	env.arrangeShop("was-1")
	ordersDS := env.createDatasources("orders-ds")[0]
	m := env.accConn()
	str := func(s string) tftypes.Value { return tftypes.NewValue(tftypes.String, s) }
	server := str(env.systemID(env.name("shop")) + "/app-01/was-1")

	c, err := readWASSessionCluster(ctx, m, engine.Attrs{"was_server_id": server})
	if err != nil || c.reported {
		t.Errorf("read of session clustering on a terse manager: %+v, %v; want kept", c, err)
	}
	ds := engine.Attrs{"was_server_id": server, "datasource_name": str(ordersDS)}
	if _, err := readWASDatasource(ctx, m, ds); err != nil {
		t.Errorf("read of a datasource on a terse manager: %v, want kept", err)
	}
	if err := wasDatasourceType.Delete(ctx, m, ds); err != nil {
		t.Errorf("detach of a datasource not attached, terse manager: %v", err)
	}
	// What the manager does not report cannot be listed: an error that says how to import
	// anyway, rather than an empty list that says there is nothing to adopt.
	ref, _ := engine.StringOf(server)
	if _, err := listWASDatasources(ctx, m, ref); err == nil || !strings.Contains(err.Error(), "does not report its attached datasources") ||
		!strings.Contains(err.Error(), "import apm_was_datasource with the ID you know, such as "+ref+"/orders-ds") {
		t.Errorf("list of datasources on a terse manager: %v, want an error that says they are not reported", err)
	}
	if _, err := listWASSessionClusters(ctx, m, ref); err == nil || !strings.Contains(err.Error(), "does not report its session clustering") {
		t.Errorf("list of session clustering on a terse manager: %v, want an error that says it is not reported", err)
	}
}
