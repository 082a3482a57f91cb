package provider

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/apmsim"
	"github.com/apmplatform/terraform-provider-apm/internal/apmsim/apmsimtest"
)

// The server data sources are checked against what the manager answers the admin client
// at check time, attribute by attribute, and against the ids the arrangement implies, so
// that a test passes neither by repeating the provider's reading nor by two empty lists.

// serverDataHCL declares, for each kind, the list data sources all, shop (system filter),
// web01 (node filter) and shop_web01 (both), the detail data source one of a server on
// shop/web-01, and the WAS detail batch of was-b1 on batch/web-01.
const serverDataHCL = `
data "apm_was_servers" "all" {}

data "apm_was_servers" "shop" {
  system_name = "shop"
}

data "apm_was_servers" "web01" {
  node_name = "web-01"
}

data "apm_was_servers" "shop_web01" {
  system_name = "shop"
  node_name   = "web-01"
}

data "apm_was_server" "one" {
  system_name = "shop"
  node_name   = "web-01"
  server_id   = "was-02"
}

data "apm_web_servers" "all" {}

data "apm_web_servers" "shop" {
  system_name = "shop"
}

data "apm_web_servers" "web01" {
  node_name = "web-01"
}

data "apm_web_servers" "shop_web01" {
  system_name = "shop"
  node_name   = "web-01"
}

data "apm_web_server" "one" {
  system_name = "shop"
  node_name   = "web-01"
  server_id   = "web-01"
}

data "apm_session_servers" "all" {}

data "apm_session_servers" "shop" {
  system_name = "shop"
}

data "apm_session_servers" "web01" {
  node_name = "web-01"
}

data "apm_session_servers" "shop_web01" {
  system_name = "shop"
  node_name   = "web-01"
}

data "apm_session_server" "one" {
  system_name = "shop"
  node_name   = "web-01"
  server_id   = "session-01"
}

data "apm_was_server" "batch" {
  system_name = "batch"
  node_name   = "web-01"
  server_id   = "was-b1"
}
`

// serverExpect is what the manager's server s of kind says each attribute of its list
// item (detail false) or its detail data source should be. Ports and the WAS edition are
// the client's reading of the manager's answer.
func serverExpect(kind apm.ServerKind, systemID string, s *apm.Server, detail bool) map[string]string {
	port := func(p int64) string { return strconv.FormatInt(p, 10) }
	want := map[string]string{
		"id": systemID + "/" + s.NodeName + "/" + s.ServerID, "node_id": systemID + "/" + s.NodeName,
		"system_name": s.SystemName, "node_name": s.NodeName, "server_id": s.ServerID, "status": s.Status,
	}
	switch kind {
	case apm.KindWAS:
		want["http_port"], want["server_type"] = port(s.HTTPPort), string(s.Edition)
		if detail {
			want["ajp_port"], want["java_home"], want["install_root_path"] = port(s.AJPPort), s.JavaHome, s.InstallRootPath
		}
	case apm.KindWeb:
		want["http_port"] = port(s.HTTPPort)
		if detail {
			want["https_port"], want["install_root_path"] = port(s.HTTPSPort), s.InstallRootPath
		}
	case apm.KindSession:
		want["server_port"] = port(s.ServerPort)
	}
	return want
}

// managerSystemIDs maps the manager's system names to their ids.
func (e *accEnv) managerSystemIDs() (map[string]string, error) {
	systems, err := e.admin.ListSystems(e.ctx())
	if err != nil {
		return nil, err
	}
	ids := map[string]string{}
	for _, s := range systems {
		ids[s.SystemName] = s.SystemID
	}
	return ids, nil
}

// managerCheck is a state check made of a function over the CLI's JSON state. The
// manager is compared in state checks rather than in a step's Check: the flat state that
// Check gets cannot hold for_each instances.
type managerCheck func(statecheck.CheckStateRequest) error

func (f managerCheck) CheckState(_ context.Context, req statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	resp.Error = f(req)
}

// dataAttrs are the attributes of the resource or data source at addr, as the JSON state
// has them (numbers as json.Number, lists as []any, objects as map[string]any).
func dataAttrs(req statecheck.CheckStateRequest, addr string) (map[string]any, error) {
	if s := req.State; s != nil && s.Values != nil && s.Values.RootModule != nil {
		for _, r := range s.Values.RootModule.Resources {
			if r.Address == addr {
				return r.AttributeValues, nil
			}
		}
	}
	return nil, fmt.Errorf("%s is not in state", addr)
}

// text is an attribute value as the manager checks compare it (numbers in decimal).
func text(v any) string {
	if v == nil {
		return "<null>"
	}
	return fmt.Sprint(v)
}

// sameObject compares the attributes got with want: every attribute and no other.
func sameObject(what string, got map[string]any, want map[string]string) error {
	for k, v := range want {
		if g := text(got[k]); g != v {
			return fmt.Errorf("%s: %s is %q, the manager says %q", what, k, g, v)
		}
	}
	if len(got) != len(want) {
		return fmt.Errorf("%s has the attributes %v, want %v", what, slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want)))
	}
	return nil
}

// sameItems compares the list attribute list of the attributes got with want, item by item.
func sameItems(addr string, got map[string]any, list string, want []map[string]string) error {
	items, ok := got[list].([]any)
	if !ok {
		return fmt.Errorf("%s: %s is %v, not a list", addr, list, got[list])
	}
	if len(items) != len(want) {
		return fmt.Errorf("%s: %s has %d items, the manager %d", addr, list, len(items), len(want))
	}
	for i, item := range want {
		obj, ok := items[i].(map[string]any)
		if !ok {
			return fmt.Errorf("%s: %s[%d] is %v, not an object", addr, list, i, items[i])
		}
		if err := sameObject(fmt.Sprintf("%s %s[%d]", addr, list, i), obj, item); err != nil {
			return err
		}
	}
	return nil
}

// checkServerList compares the list data source addr with the manager's servers of kind,
// filtered as its system_name and node_name say. wantIDs (<system>/<node>/<server_id>) are
// the servers the filter must select, in order.
func (e *accEnv) checkServerList(addr string, kind apm.ServerKind, system, node string, wantIDs ...string) statecheck.StateCheck {
	return managerCheck(func(s statecheck.CheckStateRequest) error {
		got, err := dataAttrs(s, addr)
		if err != nil {
			return err
		}
		ids, err := e.managerSystemIDs()
		if err != nil {
			return err
		}
		servers, err := e.admin.ListServers(e.ctx(), kind)
		if err != nil {
			return err
		}
		type item struct {
			name string
			want map[string]string
		}
		var selected []item
		for i := range servers {
			sv := &servers[i]
			if (system == "" || sv.SystemName == system) && (node == "" || sv.NodeName == node) {
				selected = append(selected, item{sv.SystemName + "/" + sv.NodeName + "/" + sv.ServerID, serverExpect(kind, ids[sv.SystemName], sv, false)})
			}
		}
		// Sorted by system, node and server id: the manager's list order is no promise.
		slices.SortFunc(selected, func(a, b item) int { return strings.Compare(a.name, b.name) })
		names, want := make([]string, len(selected)), make([]map[string]string, len(selected))
		for i, it := range selected {
			names[i], want[i] = it.name, it.want
		}
		if !slices.Equal(names, wantIDs) {
			return fmt.Errorf("%s: the manager's %s servers of this filter are %q, want %q", addr, kind, names, wantIDs)
		}
		return sameItems(addr, got, "servers", want)
	})
}

// checkServerDetail compares the detail data source addr with the manager's detail of ref:
// every attribute, and no attribute beyond them.
func (e *accEnv) checkServerDetail(addr string, ref apm.ServerRef) statecheck.StateCheck {
	return managerCheck(func(s statecheck.CheckStateRequest) error {
		got, err := dataAttrs(s, addr)
		if err != nil {
			return err
		}
		sv, err := e.admin.GetServer(e.ctx(), ref)
		if err != nil {
			return err
		}
		ids, err := e.managerSystemIDs()
		if err != nil {
			return err
		}
		return sameObject(addr, got, serverExpect(ref.Kind, ids[ref.SystemName], sv, true))
	})
}

// All six server data sources against the demo seed, with servers added out of band on
// shop/app-01 and on a second node named web-01 in the system batch, so that each filter
// selects something the others do not: system only, node name only (which spans systems),
// both. Then the errors: an unknown system in a list and in a detail, a missing server.
func TestAccServerDataSources(t *testing.T) {
	env := newAccEnvWith(t, apmsimtest.WithSeed(apmsim.SeedDemo), apmsimtest.WithTransitionDelay(-1))
	env.must(env.admin.CreateNode(env.ctx(), apm.CreateNodeRequest{NodeName: "web-01", SystemName: "batch", HostIP: "10.0.1.11", AgentPort: 7730}))
	install := func(kind apm.ServerKind, spec apm.ServerSpec) {
		env.must(env.admin.InstallServer(env.ctx(), kind, spec))
	}
	batch := func(id string) apm.ServerSpec {
		return apm.ServerSpec{ServerID: id, NodeName: "web-01", SystemName: "batch"}
	}
	app := func(id string) apm.ServerSpec {
		return apm.ServerSpec{ServerID: id, NodeName: "app-01", SystemName: "shop"}
	}
	with := func(s apm.ServerSpec, set func(*apm.ServerSpec)) apm.ServerSpec { set(&s); return s }
	install(apm.KindWAS, with(batch("was-b1"), func(s *apm.ServerSpec) { s.HTTPPort, s.AJPPort, s.Edition = 9080, 9009, apm.EditionEnterprise }))
	install(apm.KindWeb, with(batch("web-b1"), func(s *apm.ServerSpec) { s.HTTPPort, s.HTTPSPort = 9081, 9443 }))
	install(apm.KindSession, with(batch("session-b1"), func(s *apm.ServerSpec) { s.ServerPort = 9180 }))
	install(apm.KindWAS, with(app("was-a1"), func(s *apm.ServerSpec) { s.HTTPPort = 8280 }))
	install(apm.KindWeb, with(app("web-a1"), func(s *apm.ServerSpec) { s.HTTPPort = 8281 }))
	install(apm.KindSession, with(app("session-a1"), func(s *apm.ServerSpec) { s.ServerPort = 5280 }))
	env.must(env.admin.StartServer(env.ctx(), apm.ServerRef{Kind: apm.KindSession, ServerID: "session-b1", NodeName: "web-01", SystemName: "batch"}))

	shopWeb01 := func(kind apm.ServerKind, id string) apm.ServerRef {
		return apm.ServerRef{Kind: kind, ServerID: id, NodeName: "web-01", SystemName: "shop"}
	}
	list := func(kind, label string) string { return "data.apm_" + kind + "_servers." + label }
	sameID := func(a string, pa tfjsonpath.Path, b string, pb tfjsonpath.Path) statecheck.StateCheck {
		return statecheck.CompareValuePairs(a, pa, b, pb, compare.ValuesSame())
	}
	servers := tfjsonpath.New("servers")
	env.test([]resource.TestStep{
		{
			Config: env.config(serverDataHCL),
			ConfigStateChecks: []statecheck.StateCheck{
				env.checkServerList(list("was", "all"), apm.KindWAS, "", "",
					"batch/web-01/was-b1", "shop/app-01/was-a1", "shop/web-01/was-01", "shop/web-01/was-02"),
				env.checkServerList(list("was", "shop"), apm.KindWAS, "shop", "", "shop/app-01/was-a1", "shop/web-01/was-01", "shop/web-01/was-02"),
				env.checkServerList(list("was", "web01"), apm.KindWAS, "", "web-01", "batch/web-01/was-b1", "shop/web-01/was-01", "shop/web-01/was-02"),
				env.checkServerList(list("was", "shop_web01"), apm.KindWAS, "shop", "web-01", "shop/web-01/was-01", "shop/web-01/was-02"),
				env.checkServerDetail("data.apm_was_server.one", shopWeb01(apm.KindWAS, "was-02")),
				env.checkServerDetail("data.apm_was_server.batch", apm.ServerRef{Kind: apm.KindWAS, ServerID: "was-b1", NodeName: "web-01", SystemName: "batch"}),

				env.checkServerList(list("web", "all"), apm.KindWeb, "", "",
					"batch/web-01/web-b1", "shop/app-01/web-a1", "shop/web-01/web-01", "shop/web-01/web-02"),
				env.checkServerList(list("web", "shop"), apm.KindWeb, "shop", "", "shop/app-01/web-a1", "shop/web-01/web-01", "shop/web-01/web-02"),
				env.checkServerList(list("web", "web01"), apm.KindWeb, "", "web-01", "batch/web-01/web-b1", "shop/web-01/web-01", "shop/web-01/web-02"),
				env.checkServerList(list("web", "shop_web01"), apm.KindWeb, "shop", "web-01", "shop/web-01/web-01", "shop/web-01/web-02"),
				env.checkServerDetail("data.apm_web_server.one", shopWeb01(apm.KindWeb, "web-01")),

				env.checkServerList(list("session", "all"), apm.KindSession, "", "",
					"batch/web-01/session-b1", "shop/app-01/session-a1", "shop/web-01/session-01"),
				env.checkServerList(list("session", "shop"), apm.KindSession, "shop", "", "shop/app-01/session-a1", "shop/web-01/session-01"),
				env.checkServerList(list("session", "web01"), apm.KindSession, "", "web-01", "batch/web-01/session-b1", "shop/web-01/session-01"),
				env.checkServerList(list("session", "shop_web01"), apm.KindSession, "shop", "web-01", "shop/web-01/session-01"),
				env.checkServerDetail("data.apm_session_server.one", shopWeb01(apm.KindSession, "session-01")),

				// What the demo seed and the arrangement say, beside the manager's word.
				attrString("data.apm_was_server.one", "server_type", "Enterprise"),
				attrInt("data.apm_was_server.one", "ajp_port", 8109),
				attrInt("data.apm_was_server.batch", "ajp_port", 9009),
				statecheck.ExpectKnownValue(list("was", "shop"), servers.AtSliceIndex(1), knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"server_id": knownvalue.StringExact("was-01"), "status": knownvalue.StringExact("running"),
					"http_port": knownvalue.Int64Exact(8080), "server_type": knownvalue.StringExact("Standard"),
				})),
				statecheck.ExpectKnownValue(list("session", "web01"), servers.AtSliceIndex(0), knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"server_id": knownvalue.StringExact("session-b1"), "status": knownvalue.StringExact("running"), "server_port": knownvalue.Int64Exact(9180),
				})),
				// The detail and the list agree on the ids.
				sameID("data.apm_was_server.one", tfjsonpath.New("id"), list("was", "shop_web01"), servers.AtSliceIndex(1).AtMapKey("id")),
				sameID("data.apm_web_server.one", tfjsonpath.New("node_id"), list("session", "shop_web01"), servers.AtSliceIndex(0).AtMapKey("node_id")),
			},
		},
		{
			Config:      env.config(`data "apm_was_servers" "x" { system_name = "nosuch" }`),
			ExpectError: errorMatching("Failed to read apm_was_servers", `no system is named "nosuch"`),
		},
		{
			Config: env.config(`
data "apm_web_server" "x" {
  system_name = "nosuch"
  node_name   = "web-01"
  server_id   = "web-01"
}
`),
			ExpectError: errorMatching("Failed to read apm_web_server", "System not found: nosuch"),
		},
		{
			// A WAS server's id is no web server.
			Config: env.config(`
data "apm_web_server" "x" {
  system_name = "shop"
  node_name   = "web-01"
  server_id   = "was-01"
}
`),
			ExpectError: errorMatching("Failed to read apm_web_server", "Server not found: was-01"),
		},
		{
			Config: env.config(`
data "apm_session_server" "x" {
  system_name = "shop"
  node_name   = "web-01"
  server_id   = "nope"
}
`),
			ExpectError: errorMatching("Failed to read apm_session_server", "Server not found: nope"),
		},
	})
	if n := env.writes(); n != 8 { // the arrangement: one node, six installs, one start
		t.Errorf("reading the server data sources made %d write requests beyond the arrangement", n-8)
	}
}

// checkRegisterable compares the registerable list data source addr with the manager's
// list of the kind and node that its arguments name, and the ids with wantIDs.
func (e *accEnv) checkRegisterable(addr string, wantIDs ...string) statecheck.StateCheck {
	return managerCheck(func(s statecheck.CheckStateRequest) error {
		got, err := dataAttrs(s, addr)
		if err != nil {
			return err
		}
		kind, system, node := apm.ServerKind(text(got["kind"])), text(got["system_name"]), text(got["node_name"])
		sys, err := e.admin.GetSystem(e.ctx(), system)
		if err != nil {
			return err
		}
		offered, err := e.admin.ListRegisterableServers(e.ctx(), kind, system, node)
		if err != nil {
			return err
		}
		slices.SortFunc(offered, func(a, b apm.RegisterableServer) int { return strings.Compare(a.ServerID, b.ServerID) })
		port := func(p int64) string { return strconv.FormatInt(p, 10) }
		ids := make([]string, 0, len(offered))
		want := make([]map[string]string, 0, len(offered))
		for _, r := range offered {
			ids = append(ids, r.ServerID)
			want = append(want, map[string]string{
				"server_id": r.ServerID, "node_id": sys.SystemID + "/" + node, "server_ip": r.ServerIP, "server_type": string(r.Edition),
				"http_port": port(r.HTTPPort), "ajp_port": port(r.AJPPort), "https_port": port(r.HTTPSPort),
				"server_home": r.ServerHome, "status": r.Status,
			})
		}
		if !slices.Equal(ids, wantIDs) && (len(ids) > 0 || len(wantIDs) > 0) {
			return fmt.Errorf("%s: the manager offers %s servers %q, want %q", addr, kind, ids, wantIDs)
		}
		return sameItems(addr, got, "servers", want)
	})
}

// checkRegistered passes when the manager has the WAS servers registered on shop/app-01
// with the HTTP ports given, and offers no more WAS server there.
func (e *accEnv) checkRegistered(httpPorts map[string]int64) statecheck.StateCheck {
	return managerCheck(func(statecheck.CheckStateRequest) error {
		for id, p := range httpPorts {
			s, err := e.admin.GetServer(e.ctx(), wasRef(id))
			if err != nil {
				return err
			}
			if s.HTTPPort != p {
				return fmt.Errorf("registered %s has http port %d, the registerable list said %d", id, s.HTTPPort, p)
			}
		}
		offered, err := e.admin.ListRegisterableServers(e.ctx(), apm.KindWAS, "shop", "app-01")
		if err != nil {
			return err
		}
		if len(offered) > 0 {
			return fmt.Errorf("after registering every one, shop/app-01 still offers %d WAS servers", len(offered))
		}
		return nil
	})
}

// checkOffered passes when the manager offers exactly the WAS servers ids on shop/app-01.
func (e *accEnv) checkOffered(ids ...string) statecheck.StateCheck {
	return managerCheck(func(statecheck.CheckStateRequest) error {
		offered, err := e.admin.ListRegisterableServers(e.ctx(), apm.KindWAS, "shop", "app-01")
		if err != nil {
			return err
		}
		got := make([]string, len(offered))
		for i, r := range offered {
			got[i] = r.ServerID
		}
		slices.Sort(got)
		if !slices.Equal(got, ids) {
			return fmt.Errorf("shop/app-01 offers the WAS servers %q, want %q", got, ids)
		}
		return nil
	})
}

const registerableHCL = `
data "apm_registerable_servers" "was" {
  kind        = "was"
  system_name = apm_system.shop.name
  node_name   = apm_node.app.name
}

data "apm_registerable_servers" "web" {
  kind        = "web"
  system_name = apm_system.shop.name
  node_name   = apm_node.app.name
}

data "apm_registerable_servers" "session" {
  kind        = "session"
  system_name = apm_system.shop.name
  node_name   = apm_node.app.name
}
`

// registerAllHCL registers every registerable WAS server of the node with for_each.
// Registering takes a server off the registerable list, so a for_each over that list
// alone would, in the plan right after the apply, read an empty list and deregister what
// the apply registered (and register it again in the apply after: a perpetual diff). The
// map therefore also takes the node's registered WAS servers (apm_was_servers, filtered to
// the node): a server registered here stays in it, with the same node_id and http_port,
// and the plan after apply is empty. The node has no other WAS server; on a node with
// servers that other configurations manage, filter that second map (an if on server_id).
// The example of apm_registerable_servers shows the same.
const registerAllHCL = `
data "apm_was_servers" "app" {
  system_name = apm_system.shop.name
  node_name   = apm_node.app.name
}

resource "apm_was_server" "registered" {
  for_each = merge(
    { for s in data.apm_was_servers.app.servers : s.server_id => s },
    { for s in data.apm_registerable_servers.was.servers : s.server_id => s },
  )

  mode      = "register"
  node_id   = each.value.node_id
  server_id = each.key
  http_port = each.value.http_port
}
`

// The registerable list of each kind, with node_id equal to the node's id, a server
// deregistered out of band showing up in it (sorted by id), and a for_each registration of
// every registerable WAS server in the same configuration: the apply registers them, the
// plan after it is empty, and the next read of the list is empty. A last step removes the
// registration, which deregisters them: the test framework's flat state, which it reads
// before its final destroy, cannot hold for_each instances.
func TestAccRegisterableServers_forEach(t *testing.T) {
	env := newAccEnv(t)
	base := shopNodeHCL() + registerableHCL
	servers := tfjsonpath.New("servers")
	nodeIDIs := func(addr string, i int) statecheck.StateCheck {
		return statecheck.CompareValuePairs(addr, servers.AtSliceIndex(i).AtMapKey("node_id"), "apm_node.app", tfjsonpath.New("id"), compare.ValuesSame())
	}
	// lists compares the three lists with the manager; was are the WAS ids it must offer.
	lists := func(was ...string) []statecheck.StateCheck {
		return []statecheck.StateCheck{
			env.checkRegisterable("data.apm_registerable_servers.was", was...),
			env.checkRegisterable("data.apm_registerable_servers.web", "web-reg-1"),
			env.checkRegisterable("data.apm_registerable_servers.session", "session-reg-1"),
		}
	}
	registered := func(id string) string { return fmt.Sprintf("apm_was_server.registered[%q]", id) }
	env.test([]resource.TestStep{
		{
			// The data sources read after the node is created (they refer to it).
			Config:           env.config(base),
			ConfigPlanChecks: applied(),
			ConfigStateChecks: append(lists("was-reg-1"),
				nodeIDIs("data.apm_registerable_servers.was", 0),
				nodeIDIs("data.apm_registerable_servers.web", 0),
				nodeIDIs("data.apm_registerable_servers.session", 0),
				// The node's address is the WAS and web servers' address.
				statecheck.CompareValuePairs("data.apm_registerable_servers.was", servers.AtSliceIndex(0).AtMapKey("server_ip"),
					"apm_node.app", tfjsonpath.New("host_ip"), compare.ValuesSame()),
				statecheck.CompareValuePairs("data.apm_registerable_servers.web", servers.AtSliceIndex(0).AtMapKey("server_ip"),
					"apm_node.app", tfjsonpath.New("host_ip"), compare.ValuesSame()),
				// What apmsim's agent reports; a kind's missing fields are zero.
				statecheck.ExpectKnownValue("data.apm_registerable_servers.was", servers.AtSliceIndex(0), knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"server_id": knownvalue.StringExact("was-reg-1"), "server_type": knownvalue.StringExact("Standard"),
					"http_port": knownvalue.Int64Exact(18080), "ajp_port": knownvalue.Int64Exact(18009), "https_port": knownvalue.Int64Exact(0),
					"server_home": knownvalue.StringExact(""), "status": knownvalue.StringExact(""),
				})),
				statecheck.ExpectKnownValue("data.apm_registerable_servers.session", servers.AtSliceIndex(0), knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"server_id": knownvalue.StringExact("session-reg-1"), "server_home": knownvalue.StringExact("/opt/apm/session/session-reg-1"),
					"status": knownvalue.StringExact("available"), "server_ip": knownvalue.StringExact(""), "http_port": knownvalue.Int64Exact(0),
				}))),
		},
		{
			// A server deregistered from the node is offered again, with its ports and edition.
			PreConfig: func() {
				env.must(env.admin.InstallServer(env.ctx(), apm.KindWAS, apm.ServerSpec{ServerID: "was-old", NodeName: "app-01", SystemName: "shop",
					HTTPPort: 18180, AJPPort: 18109, Edition: apm.EditionEnterprise}))
				env.must(env.admin.DeregisterServer(env.ctx(), wasRef("was-old")))
			},
			Config:           env.config(base),
			ConfigPlanChecks: applied(plancheck.ExpectEmptyPlan()),
			ConfigStateChecks: append(lists("was-old", "was-reg-1"),
				nodeIDIs("data.apm_registerable_servers.was", 1),
				statecheck.ExpectKnownValue("data.apm_registerable_servers.was", servers.AtSliceIndex(0).AtMapKey("server_type"), knownvalue.StringExact("Enterprise"))),
		},
		{
			// Register both; the plan after the apply is empty (see registerAllHCL).
			Config: env.config(base + registerAllHCL),
			ConfigPlanChecks: applied(exactActions{
				registered("was-old"):   plancheck.ResourceActionCreate,
				registered("was-reg-1"): plancheck.ResourceActionCreate,
			}),
			ConfigStateChecks: []statecheck.StateCheck{
				env.checkRegistered(map[string]int64{"was-old": 18180, "was-reg-1": 18080}),
				statecheck.CompareValuePairs(registered("was-reg-1"), tfjsonpath.New("node_id"), "apm_node.app", tfjsonpath.New("id"), compare.ValuesSame()),
				statecheck.ExpectKnownValue(registered("was-old"), tfjsonpath.New("server_type"), knownvalue.StringExact("Enterprise")),
				statecheck.ExpectKnownValue(registered("was-old"), tfjsonpath.New("ajp_port"), knownvalue.Int64Exact(18109)),
			},
		},
		{
			// Read again: the WAS list is empty, and the registered ones are in apm_was_servers.
			Config:           env.config(base + registerAllHCL),
			ConfigPlanChecks: applied(plancheck.ExpectEmptyPlan()),
			ConfigStateChecks: append(lists(),
				statecheck.ExpectKnownValue("data.apm_registerable_servers.was", servers, knownvalue.ListSizeExact(0)),
				env.checkServerList("data.apm_was_servers.app", apm.KindWAS, "shop", "app-01", "shop/app-01/was-old", "shop/app-01/was-reg-1"),
				statecheck.CompareValuePairs("data.apm_was_servers.app", servers.AtSliceIndex(1).AtMapKey("id"),
					registered("was-reg-1"), tfjsonpath.New("id"), compare.ValuesSame())),
		},
		{
			// Without the registration, apply deregisters them, and the node offers them again.
			Config: env.config(base),
			ConfigPlanChecks: applied(exactActions{
				registered("was-old"):   plancheck.ResourceActionDestroy,
				registered("was-reg-1"): plancheck.ResourceActionDestroy,
			}),
			ConfigStateChecks: []statecheck.StateCheck{env.checkOffered("was-old", "was-reg-1")},
		},
	})
}

// An unknown system or node is an error naming it; a kind that is not one is refused at
// validation.
func TestAccRegisterableServers_errors(t *testing.T) {
	env := newAccEnvWith(t, apmsimtest.WithSeed(apmsim.SeedDemo))
	env.sim.Sim.ResetRequestCounts()
	config := func(kind, system, node string) string {
		return env.config(fmt.Sprintf(`
data "apm_registerable_servers" "x" {
  kind        = %q
  system_name = %q
  node_name   = %q
}
`, kind, system, node))
	}
	env.test([]resource.TestStep{
		{
			Config:      config("was", "nosuch", "web-01"),
			ExpectError: errorMatching("Failed to read apm_registerable_servers", "System not found: nosuch"),
		},
		{
			Config:      config("web", "shop", "nope"),
			ExpectError: errorMatching("Failed to read apm_registerable_servers", "Node not found: nope"),
		},
		{
			Config:      config("cache", "shop", "web-01"),
			ExpectError: errorMatching("kind", "value must be one of", `got: "cache"`),
		},
		{
			// The demo node app-01: the system's id comes from the manager.
			Config: config("session", "shop", "app-01"),
			ConfigStateChecks: []statecheck.StateCheck{
				env.checkRegisterable("data.apm_registerable_servers.x", "session-reg-1"),
				statecheck.ExpectKnownValue("data.apm_registerable_servers.x", tfjsonpath.New("servers").AtSliceIndex(0).AtMapKey("node_id"),
					knownvalue.StringExact(env.systemID("shop")+"/app-01")),
			},
		},
	})
	if n := env.writes(); n != 0 {
		t.Errorf("reading apm_registerable_servers made %d write requests", n)
	}
}

// checkContainers compares the list data source addr with the manager's container servers
// of kind, sorted by id.
func (e *accEnv) checkContainers(addr string, kind apm.ServerKind, wantIDs ...string) statecheck.StateCheck {
	return managerCheck(func(s statecheck.CheckStateRequest) error {
		got, err := dataAttrs(s, addr)
		if err != nil {
			return err
		}
		list := e.admin.ListWASContainerServers
		if kind == apm.KindWeb {
			list = e.admin.ListWebContainerServers
		}
		servers, err := list(e.ctx())
		if err != nil {
			return err
		}
		slices.SortFunc(servers, func(a, b apm.ContainerServer) int { return strings.Compare(a.ServerID, b.ServerID) })
		ids := make([]string, 0, len(servers))
		want := make([]map[string]string, 0, len(servers))
		for _, c := range servers {
			ids = append(ids, c.ServerID)
			want = append(want, map[string]string{
				"server_id": c.ServerID, "server_name": c.ServerName, "container_ip": c.ContainerIP, "http_port": strconv.FormatInt(c.HTTPPort, 10),
			})
		}
		if !slices.Equal(ids, wantIDs) && (len(ids) > 0 || len(wantIDs) > 0) {
			return fmt.Errorf("%s: the manager's %s containers are %q, want %q", addr, kind, ids, wantIDs)
		}
		return sameItems(addr, got, "servers", want)
	})
}

// The container servers of each kind, as the demo seed has them; another kind is refused
// (first: the framework's final destroy needs a valid last configuration).
func TestAccContainerServers(t *testing.T) {
	env := newAccEnvWith(t, apmsimtest.WithSeed(apmsim.SeedDemo))
	servers := tfjsonpath.New("servers")
	env.test([]resource.TestStep{
		{
			Config:      env.config(`data "apm_container_servers" "x" { kind = "session" }`),
			ExpectError: errorMatching("kind", "value must be one of", `"web"`, `got: "session"`),
		},
		{
			Config: env.config(`
data "apm_container_servers" "was" {
  kind = "was"
}

data "apm_container_servers" "web" {
  kind = "web"
}
`),
			ConfigStateChecks: []statecheck.StateCheck{
				env.checkContainers("data.apm_container_servers.was", apm.KindWAS, "cwas-01", "cwas-02", "cwas-03"),
				env.checkContainers("data.apm_container_servers.web", apm.KindWeb, "cweb-01", "cweb-02"),
				statecheck.ExpectKnownValue("data.apm_container_servers.web", servers.AtSliceIndex(1), knownvalue.ObjectExact(map[string]knownvalue.Check{
					"server_id": knownvalue.StringExact("cweb-02"), "server_name": knownvalue.StringExact("shop-web-1"),
					"container_ip": knownvalue.StringExact("172.20.1.12"), "http_port": knownvalue.Int64Exact(80),
				})),
			},
		},
	})
}

// Without container groups the lists are empty, not an error.
func TestAccContainerServers_none(t *testing.T) {
	env := newAccEnv(t)
	env.test([]resource.TestStep{{
		Config: env.config(`data "apm_container_servers" "was" { kind = "was" }`),
		ConfigStateChecks: []statecheck.StateCheck{
			env.checkContainers("data.apm_container_servers.was", apm.KindWAS),
			statecheck.ExpectKnownValue("data.apm_container_servers.was", tfjsonpath.New("servers"), knownvalue.ListSizeExact(0)),
		},
	}})
}
