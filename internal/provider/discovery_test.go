package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/apmsim/apmsimtest"
	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
)

// Discovery: the list data sources give each managed object they list the ID to import it
// with, so that a running platform can be adopted without guessing IDs.

// listing is what the tests ask of a registered data source (engine.engineDataSource).
type listing interface {
	Listing() (list, imports string)
}

// listDataSources are the registered data sources that list, by type name: their list
// attribute and the resource type of their items ("" for no managed type).
func listDataSources(t *testing.T) map[string][2]string {
	t.Helper()
	out := map[string][2]string{}
	for _, newDataSource := range (&apmProvider{}).DataSources(context.Background()) {
		d := newDataSource()
		var meta datasource.MetadataResponse
		d.Metadata(context.Background(), datasource.MetadataRequest{ProviderTypeName: "apm"}, &meta)
		l, ok := d.(listing)
		if !ok {
			t.Fatalf("data source %s is not the engine's", meta.TypeName)
		}
		if list, imports := l.Listing(); list != "" {
			out[meta.TypeName] = [2]string{list, imports}
		}
	}
	return out
}

// notManaged are the list data sources whose items no resource type manages, and why.
// A new list data source either says what its items import as, or is added here.
var notManaged = map[string]string{
	"apm_registerable_servers": "servers a node offers for registration: adopted by creating a server with mode = \"register\", not by import",
	"apm_container_servers":    "container servers, which no resource manages",
	"apm_public_nodes":         "the public view of the nodes, without their systems' ids; apm_nodes gives their import IDs",
	"apm_nodes_metrics":        "measurements",
	"apm_licenses":             "licenses, which no resource manages",
	"apm_notifications":        "notifications, which no resource manages",
	"apm_analysis_events":      "events, which no resource manages",
	"apm_action_trace_logs":    "log entries",
}

// Every list data source whose items are managed objects gives each one an import_id,
// documented with the resource type; every resource type has such a list, so that every
// object of a platform can be found with its import ID. A list of something else is named
// in notManaged, with the reason.
func TestListDataSourcesOfManagedObjectsGiveImportIDs(t *testing.T) {
	lists := listDataSources(t)
	resp := providerSchemas(t)
	imported := map[string]bool{}
	for _, name := range slices.Sorted(maps.Keys(lists)) {
		t.Run(name, func(t *testing.T) {
			list, imports := lists[name][0], lists[name][1]
			_, excused := notManaged[name]
			switch {
			case imports == "" && !excused:
				t.Fatalf("%s lists %s without saying what they import as (ListDataSourceType.Imports); if no resource manages them, add it to notManaged", name, list)
			case imports == "":
				return
			case excused:
				t.Errorf("%s is in notManaged but its items import as apm_%s", name, imports)
			}
			resourceType := "apm_" + imports
			imported[resourceType] = true
			if _, ok := resp.ResourceSchemas[resourceType]; !ok {
				t.Errorf("%s: its items import as %s, which is no registered resource type", name, resourceType)
			}
			var itemAttr string
			for _, a := range resp.DataSourceSchemas[name].Block.Attributes {
				if a.Name != list || a.NestedType == nil {
					continue
				}
				for _, item := range a.NestedType.Attributes {
					if item.Name == "import_id" {
						itemAttr = item.Description
					}
				}
			}
			if want := fmt.Sprintf("`terraform import %s.name <import_id>`", resourceType); !strings.Contains(itemAttr, want) {
				t.Errorf("%s: the items of %s must have an import_id documented with %s; got %q", name, list, want, itemAttr)
			}
		})
	}
	for name := range notManaged {
		if _, ok := lists[name]; !ok {
			t.Errorf("notManaged names %s, which is no registered list data source", name)
		}
	}
	for name, s := range resp.ResourceSchemas {
		if engine.ManagesAnObject(s) && !imported[name] {
			t.Errorf("no list data source lists %s objects with their import IDs", name)
		}
	}
}

// discoveryCase is, for a list data source of discovery/lists.tf, the list it reads and
// the resource of discovery/platform.tf whose object the test imports from it, with the
// inputs the manager does not report (which an import cannot know, and which an import
// into the configuration then records: its plan updates the resource).
type discoveryCase struct {
	list, resource string
	unread         []string
}

var discoveryCases = map[string]discoveryCase{
	"apm_systems":              {list: "data.apm_systems.all", resource: "apm_system.shop"},
	"apm_nodes":                {list: "data.apm_nodes.shop", resource: "apm_node.app"},
	"apm_was_servers":          {list: "data.apm_was_servers.shop", resource: "apm_was_server.a", unread: []string{"mode", "force_stop"}},
	"apm_web_servers":          {list: "data.apm_web_servers.shop", resource: "apm_web_server.w", unread: []string{"mode"}},
	"apm_session_servers":      {list: "data.apm_session_servers.shop", resource: "apm_session_server.s", unread: []string{"mode"}},
	"apm_databases":            {list: "data.apm_databases.all", resource: "apm_database.db", unread: []string{"password"}},
	"apm_datasources":          {list: "data.apm_datasources.all", resource: "apm_datasource.billing"},
	"apm_users":                {list: "data.apm_users.all", resource: "apm_user.alice", unread: []string{"password"}},
	"apm_roles":                {list: "data.apm_roles.all", resource: "apm_role.operators"},
	"apm_was_applications":     {list: "data.apm_was_applications.a", resource: "apm_was_application.shop", unread: []string{"source_path"}},
	"apm_was_datasources":      {list: "data.apm_was_datasources.a", resource: "apm_was_datasource.orders"},
	"apm_was_session_clusters": {list: "data.apm_was_session_clusters.a", resource: "apm_was_session_cluster.c"},
	"apm_web_workers":          {list: "data.apm_web_workers.w", resource: "apm_web_workers.w"},
	"apm_web_uri_patterns":     {list: "data.apm_web_uri_patterns.w", resource: "apm_web_uri_patterns.u"},
	"apm_web_ssls":             {list: "data.apm_web_ssls.w", resource: "apm_web_ssl.s", unread: []string{"certificate_pem", "private_key_pem"}},
	"apm_user_roles":           {list: "data.apm_user_roles.alice", resource: "apm_user_role.alice_operators"},
}

// The import_id of a listed object imports that very object. One platform with an object
// of every managed type is listed by every list data source that gives import IDs (the
// registry's, each of which must have a case here); then, for each, the item of the
// object of a resource is imported by its import_id, with `terraform import` (the state
// must equal the resource's, but for the inputs the manager does not report) and with an
// import block (a no-op, or an update that only records those inputs). The part lists
// sort their items and list nothing for a server or user without parts. The manager's
// lists reach the provider reversed, so that an order the provider did not choose
// shows.
func TestAccDiscovery_importIDsImportTheirObjects(t *testing.T) {
	env := newAccEnv(t)
	env.reverseLists()
	cert := newWebTestCert(t, "web-1.example", nil)
	shop := env.name("shop")
	config := env.config(tf(t, "discovery/platform.tf", "system_name", shop, "database_name", env.name("orders-db"),
		"orders_ds", env.name("orders-ds"), "billing_ds", env.name("billing-ds"), "alice", env.name("alice"), "bob", env.name("bob"),
		"viewers", env.name("viewers"), "operators", env.name("operators"), "certificate_pem", cert.certPEM, "private_key_pem", cert.keyPEM) +
		tf(t, "discovery/lists.tf"))

	lists := listDataSources(t)
	steps := []resource.TestStep{{
		Config:           config,
		ConfigPlanChecks: applied(),
		Check: resource.ComposeAggregateTestCheckFunc(
			checkItems("data.apm_was_datasources.a", "attachments", "datasource_name", env.name("billing-ds"), env.name("orders-ds")),
			checkItems("data.apm_was_datasources.bare", "attachments", "datasource_name"),
			checkItems("data.apm_was_applications.a", "applications", "context_path", "/api", "/shop"),
			checkItems("data.apm_was_applications.bare", "applications", "context_path"),
			checkItems("data.apm_was_session_clusters.a", "session_clusters", "primary_host", "10.0.0.31"),
			checkItems("data.apm_was_session_clusters.bare", "session_clusters", "primary_host"),
			checkItems("data.apm_web_workers.w", "worker_maps", "workers.%", "1"),
			checkItems("data.apm_web_workers.bare", "worker_maps", "workers.%"),
			checkItems("data.apm_web_uri_patterns.w", "pattern_sets", "patterns.#", "2"),
			checkItems("data.apm_web_uri_patterns.bare", "pattern_sets", "patterns.#"),
			checkItems("data.apm_web_ssls.w", "ssl_setups", "https_port", "8443"),
			checkItems("data.apm_web_ssls.bare", "ssl_setups", "https_port"),
			checkItems("data.apm_user_roles.alice", "grants", "role_name", "Operators", "Viewers"),
			checkItems("data.apm_user_roles.bob", "grants", "role_id"),
		),
	}}
	for _, name := range slices.Sorted(maps.Keys(lists)) {
		list, imports := lists[name][0], lists[name][1]
		if imports == "" {
			continue
		}
		c, ok := discoveryCases[name]
		if !ok {
			t.Errorf("%s lists apm_%s objects, but discovery/lists.tf and discoveryCases do not use it", name, imports)
			continue
		}
		id := importIDOfItem(c.list, list, c.resource)
		steps = append(steps, resource.TestStep{
			ResourceName: c.resource, ImportState: true, ImportStateIdFunc: id,
			ImportStateVerify: true, ImportStateVerifyIgnore: c.unread,
		})
		block := resource.TestStep{ResourceName: c.resource, ImportState: true, ImportStateKind: resource.ImportBlockWithID, ImportStateIdFunc: id}
		if len(c.unread) > 0 {
			block.ExpectNonEmptyPlan = true
			block.ImportPlanChecks.PreApply = []plancheck.PlanCheck{updates(c.resource)}
		}
		steps = append(steps, block)
	}
	env.test(steps)
}

// checkItems passes when the list attribute of addr has one item for each value in want,
// in that order, each with attr of that value.
func checkItems(addr, list, attr string, want ...string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		rs, ok := s.RootModule().Resources[addr]
		if !ok {
			return fmt.Errorf("%s is not in state", addr)
		}
		a := rs.Primary.Attributes
		got := make([]string, 0, len(want))
		n, _ := strconv.Atoi(a[list+".#"])
		for i := range n {
			got = append(got, a[fmt.Sprintf("%s.%d.%s", list, i, attr)])
			if a[fmt.Sprintf("%s.%d.import_id", list, i)] == "" {
				return fmt.Errorf("%s: item %d of %s has no import_id", addr, i, list)
			}
		}
		if !slices.Equal(got, want) {
			return fmt.Errorf("%s lists %s with %s %q, want %q", addr, list, attr, got, want)
		}
		return nil
	}
}

// importIDOfItem is an ImportStateIdFunc: the import_id of the item of the list attribute
// of dataAddr that is the object of the resource at addr, the one whose attributes agree
// with the resource's wherever both have one (an item has more, such as a status; the
// resource has inputs the manager does not report).
func importIDOfItem(dataAddr, list, addr string) resource.ImportStateIdFunc {
	return func(s *terraform.State) (string, error) {
		data, ok := s.RootModule().Resources[dataAddr]
		if !ok {
			return "", fmt.Errorf("%s is not in state", dataAddr)
		}
		res, ok := s.RootModule().Resources[addr]
		if !ok {
			return "", fmt.Errorf("%s is not in state", addr)
		}
		n, _ := strconv.Atoi(data.Primary.Attributes[list+".#"])
		var found, others []string
		for i := range n {
			prefix := fmt.Sprintf("%s.%d.", list, i)
			var shared, differ []string
			for key, v := range data.Primary.Attributes {
				name, ok := strings.CutPrefix(key, prefix)
				if !ok || name == "import_id" || name == "%" {
					continue
				}
				if rv, ok := res.Primary.Attributes[name]; ok {
					shared = append(shared, name)
					if rv != v {
						differ = append(differ, fmt.Sprintf("%s %q, not %q", name, v, rv))
					}
				}
			}
			if len(shared) > 0 && len(differ) == 0 {
				found = append(found, data.Primary.Attributes[prefix+"import_id"])
			} else {
				slices.Sort(differ)
				others = append(others, fmt.Sprintf("item %d: %s", i, strings.Join(differ, ", ")))
			}
		}
		if len(found) != 1 || found[0] == "" {
			return "", fmt.Errorf("%s: want one item of %s that is %s, with an import_id; found %q (the others differ: %s)",
				dataAddr, list, addr, found, strings.Join(others, "; "))
		}
		return found[0], nil
	}
}

// reverseLists puts a proxy between the provider and the test's apmsim that reverses
// every list in the manager's answers to GETs (apmsim sorts its lists), so that a data
// source that keeps the manager's order instead of sorting lists in the wrong order. Out
// of band, the test's admin client still talks to apmsim. On a real manager nothing
// changes.
func (e *accEnv) reverseLists() {
	if e.sim.Sim == nil {
		return
	}
	sim := e.sim.Sim
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		sim.Handler().ServeHTTP(rec, r)
		var body map[string]json.RawMessage
		if r.Method != http.MethodGet || rec.Code != http.StatusOK || json.Unmarshal(rec.Body.Bytes(), &body) != nil {
			copyResponse(w, rec)
			return
		}
		for key, raw := range body {
			var items []json.RawMessage
			if json.Unmarshal(raw, &items) == nil && len(items) > 1 {
				slices.Reverse(items)
				body[key], _ = json.Marshal(items)
			}
		}
		out, err := json.Marshal(body)
		if err != nil {
			e.t.Errorf("reversing the lists of %s %s: %v", r.Method, r.URL.Path, err)
		}
		rec.Body.Reset()
		rec.Body.Write(out)
		copyResponse(w, rec)
	}))
	e.t.Cleanup(front.Close)
	e.sim = &apmsimtest.Server{URL: front.URL, AdminKey: e.sim.AdminKey, ViewerKey: e.sim.ViewerKey, Sim: sim}
}

// copyResponse sends what rec recorded, but for its length, which the body may have
// changed.
func copyResponse(w http.ResponseWriter, rec *httptest.ResponseRecorder) {
	maps.Copy(w.Header(), rec.Header())
	w.Header().Del("Content-Length")
	w.WriteHeader(rec.Code)
	_, _ = w.Write(rec.Body.Bytes())
}

// ---- without a CLI ----

// The lists of a web server's parts and of a user's roles, where the manager cannot tell
// them: a parent that is gone is an error that the engine knows for gone with its parent
// (whatever the data source then makes of it), naming the parent; a terse manager, which
// leaves the parts out of the web server's detail, is an error that says so and how to
// import anyway, rather than an empty list that says there is nothing to adopt.
func TestPartListsWhereTheManagerCannotTell(t *testing.T) {
	for _, terse := range []bool{false, true} {
		var env *accEnv
		if terse {
			env = newAccEnvWith(t, apmsimtest.WithOmitOptionalFields())
		} else {
			env = newAccEnv(t)
		}
		ctx, m := env.ctx(), env.accConn()
		env.arrangeShop()
		web := env.shopWeb1()
		env.must(env.admin.InstallServer(ctx, apm.KindWeb, apm.ServerSpec{ServerID: web.ServerID, NodeName: web.NodeName, SystemName: web.SystemName, HTTPPort: 80}))
		t.Cleanup(func() { _ = env.admin.UninstallServer(ctx, web) })
		id := env.systemID(web.SystemName) + "/app-01/web-1"
		lists := map[string]webPartList{"workers": webWorkersList, "URI patterns": webURIPatternsList, "SSL": webSSLList}
		for what, l := range lists {
			items, err := l.list(ctx, m, id)
			switch {
			case terse && (err == nil || !strings.Contains(err.Error(), `the manager's detail of web server "web-1" on node "app-01" does not report its `+l.what) ||
				!strings.Contains(err.Error(), "import "+l.typeName+" with the ID you know, such as "+id)):
				t.Errorf("the %s of a web server on a terse manager: %v, want an error that says they are not reported", what, err)
			case !terse && (err != nil || len(items) != 0):
				t.Errorf("the %s of a web server without any: %v, %v; want none", what, items, err)
			}
		}
		if terse {
			continue
		}
		env.must(env.admin.UninstallServer(ctx, web))
		for what, l := range lists {
			if _, err := l.list(ctx, m, id); !engine.GoneWithParent(err) || !strings.Contains(err.Error(), "web-1") {
				t.Errorf("the %s of a web server that does not exist: %v, want gone, naming the server", what, err)
			}
		}
		if _, err := listUserRoles(ctx, m, env.name("nobody")); !engine.GoneWithParent(err) || !strings.Contains(err.Error(), env.name("nobody")) {
			t.Errorf("the roles of a user that does not exist: %v, want gone, naming the user", err)
		}
	}
}
