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
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/apmsim"
	"github.com/apmplatform/terraform-provider-apm/internal/apmsim/apmsimtest"
)

// wasRef is the WAS server id on shop/app-01.
func wasRef(id string) apm.ServerRef {
	return apm.ServerRef{Kind: apm.KindWAS, ServerID: id, NodeName: "app-01", SystemName: "shop"}
}

// shop is the name of this test's system shop, which testdata/servers/shop_node.tf
// declares (apm_system.shop) with its node app-01 (apm_node.app).
func (e *accEnv) shop() string { return e.name("shop") }

// shopRef is the server id of the kind on the node app-01 of this test's system shop.
func (e *accEnv) shopRef(kind apm.ServerKind, id string) apm.ServerRef {
	return apm.ServerRef{Kind: kind, ServerID: id, NodeName: "app-01", SystemName: e.shop()}
}

// shopNodeTF is the system shop and its node app-01, without servers.
func (e *accEnv) shopNodeTF() string {
	return tf(e.t, "servers/shop_node.tf", "system", e.shop())
}

// shopNode is the configuration of the system shop and its node app-01, without servers.
func (e *accEnv) shopNode() string { return e.config(e.shopNodeTF()) }

// oneServer is, for each kind, the configuration of one server of the kind, and the
// values of its variables that a test does not give: the server <kind>-1 on the node
// app-01 of the system shop, installed, on the kind's usual port, and the optional
// arguments not written.
var oneServer = map[apm.ServerKind]struct {
	file     string
	defaults []any
}{
	apm.KindWAS: {"was_server/one.tf", []any{"server_id", "was-1", "mode", "install", "http_port", 8080, "ajp_port", hclNull,
		"java_home", hclNull, "server_type", hclNull, "state", hclNull, "force_stop", hclNull, "timeouts", hclNull}},
	apm.KindWeb: {"web_server/one.tf", []any{"server_id", "web-1", "mode", "install", "http_port", 80, "https_port", hclNull,
		"state", hclNull, "timeouts", hclNull}},
	apm.KindSession: {"session_server/one.tf", []any{"server_id", "session-1", "mode", "install", "server_port", 15200, "state", hclNull}},
}

// serverTF is the oneServer configuration of the kind on apm_node.app, with the
// variables given (name, value pairs) and the rest at their defaults (tf takes the last
// value given for a name).
func serverTF(t testing.TB, kind apm.ServerKind, vars ...any) string {
	one := oneServer[kind]
	all := append([]any{"node_id", hclExpr("apm_node.app.id")}, one.defaults...)
	return tf(t, one.file, append(all, vars...)...)
}

// serverConfig is the configuration of the system shop, its node app-01 and the
// oneServer of the kind on it, with the variables given.
func (e *accEnv) serverConfig(kind apm.ServerKind, vars ...any) string {
	return e.config(e.shopNodeTF() + serverTF(e.t, kind, vars...))
}

// checkServer compares the manager's server with want, a function that returns why not.
func (e *accEnv) checkServer(ref apm.ServerRef, want func(s *apm.Server) error) resource.TestCheckFunc {
	return func(*terraform.State) error {
		s, err := e.admin.GetServer(e.ctx(), ref)
		if err != nil {
			return fmt.Errorf("%s: %w", ref, err)
		}
		if err := want(s); err != nil {
			return fmt.Errorf("%s: %w", ref, err)
		}
		return nil
	}
}

// checkGone passes when the manager has no server ref.
func (e *accEnv) checkGone(ref apm.ServerRef) resource.TestCheckFunc {
	return func(*terraform.State) error {
		_, err := e.admin.GetServer(e.ctx(), ref)
		return want(apm.IsNotFound(err), "%s should be gone, got %v", ref, err)
	}
}

func serverIs(status string, httpPort int64) func(s *apm.Server) error {
	return func(s *apm.Server) error {
		if s.Status != status || s.HTTPPort != httpPort {
			return fmt.Errorf("is %s on %d, want %s on %d", s.Status, s.HTTPPort, status, httpPort)
		}
		return nil
	}
}

// want is nil when ok, else the formatted complaint.
func want(ok bool, format string, args ...any) error {
	if ok {
		return nil
	}
	return fmt.Errorf(format, args...)
}

// The server data sources are checked against what the manager answers the admin client
// at check time, attribute by attribute, and against the ids the arrangement implies, so
// that a test passes neither by repeating the provider's reading nor by two empty lists.

// serverExpect is what the manager's server s of kind says each attribute of its list
// item (detail false) or its detail data source should be. Ports and the WAS edition are
// the client's reading of the manager's answer.
func serverExpect(kind apm.ServerKind, systemID string, s *apm.Server, detail bool) map[string]string {
	want := map[string]string{
		"id": systemID + "/" + s.NodeName + "/" + s.ServerID, "node_id": systemID + "/" + s.NodeName,
		"system_name": s.SystemName, "node_name": s.NodeName, "server_id": s.ServerID, "status": s.Status,
	}
	if !detail {
		// An item of a list, with the ID to import it: the server's id.
		want["import_id"] = want["id"]
	}
	switch kind {
	case apm.KindWAS:
		want["http_port"], want["server_type"] = port(s.HTTPPort), string(s.Edition)
		if detail {
			want["ajp_port"], want["java_home"], want["install_root_path"] = port(s.AJPPort), nullIfEmpty(s.JavaHome), nullIfEmpty(s.InstallRootPath)
		}
	case apm.KindWeb:
		want["http_port"] = port(s.HTTPPort)
		if detail {
			want["https_port"], want["install_root_path"] = port(s.HTTPSPort), nullIfEmpty(s.InstallRootPath)
		}
	case apm.KindSession:
		want["server_port"] = port(s.ServerPort)
	}
	return want
}

// port is how a port the manager reports reads in state: null where it reports 0 (none).
func port(p int64) string {
	if p == 0 {
		return "<null>"
	}
	return strconv.FormatInt(p, 10)
}

// nullIfEmpty is how a string the manager reports reads in state: null where it reports "".
func nullIfEmpty(s string) string {
	if s == "" {
		return "<null>"
	}
	return s
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
func TestAccServers_dataSources(t *testing.T) {
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
	list := func(kind apm.ServerKind, label string) string {
		return "data.apm_" + string(kind) + "_servers." + label
	}
	sameID := func(a string, pa tfjsonpath.Path, b string, pb tfjsonpath.Path) statecheck.StateCheck {
		return statecheck.CompareValuePairs(a, pa, b, pb, compare.ValuesSame())
	}
	servers := tfjsonpath.New("servers")
	detail := func(file, system, server string) string {
		return tf(t, file, "system_name", system, "node_name", "web-01", "server_id", server)
	}
	// Each list selects, sorted, of the kind's servers: the one on batch/web-01 and the one
	// on shop/app-01 that the arrangement installed, and the demo seed's on shop/web-01.
	var lists []statecheck.StateCheck
	for _, k := range []struct {
		kind   apm.ServerKind
		seeded []string // the demo seed's servers on shop/web-01
		one    string   // the server of the detail data source one
	}{
		{apm.KindWAS, []string{"was-01", "was-02"}, "was-02"},
		{apm.KindWeb, []string{"web-01", "web-02"}, "web-01"},
		{apm.KindSession, []string{"session-01"}, "session-01"},
	} {
		batch, app := "batch/web-01/"+string(k.kind)+"-b1", "shop/app-01/"+string(k.kind)+"-a1"
		var seeded []string
		for _, id := range k.seeded {
			seeded = append(seeded, "shop/web-01/"+id)
		}
		lists = append(lists,
			env.checkServerList(list(k.kind, "all"), k.kind, "", "", append([]string{batch, app}, seeded...)...),
			env.checkServerList(list(k.kind, "shop"), k.kind, "shop", "", append([]string{app}, seeded...)...),
			env.checkServerList(list(k.kind, "web01"), k.kind, "", "web-01", append([]string{batch}, seeded...)...),
			env.checkServerList(list(k.kind, "shop_web01"), k.kind, "shop", "web-01", seeded...),
			env.checkServerDetail("data.apm_"+string(k.kind)+"_server.one", shopWeb01(k.kind, k.one)),
		)
	}
	env.test([]resource.TestStep{
		{
			Config: env.config(tf(t, "servers/data_sources.tf")),
			ConfigStateChecks: append(lists,
				env.checkServerDetail("data.apm_was_server.batch", apm.ServerRef{Kind: apm.KindWAS, ServerID: "was-b1", NodeName: "web-01", SystemName: "batch"}),

				// What the demo seed and the arrangement say, beside the manager's word.
				attrString("data.apm_was_server.one", "server_type", "Enterprise"),
				attrInt("data.apm_was_server.one", "ajp_port", 8109),
				attrInt("data.apm_was_server.batch", "ajp_port", 9009),
				statecheck.ExpectKnownValue(list(apm.KindWAS, "shop"), servers.AtSliceIndex(1), knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"server_id": knownvalue.StringExact("was-01"), "status": knownvalue.StringExact("running"),
					"http_port": knownvalue.Int64Exact(8080), "server_type": knownvalue.StringExact("Standard"),
				})),
				statecheck.ExpectKnownValue(list(apm.KindSession, "web01"), servers.AtSliceIndex(0), knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"server_id": knownvalue.StringExact("session-b1"), "status": knownvalue.StringExact("running"), "server_port": knownvalue.Int64Exact(9180),
				})),
				// The detail and the list agree on the ids.
				sameID("data.apm_was_server.one", tfjsonpath.New("id"), list(apm.KindWAS, "shop_web01"), servers.AtSliceIndex(1).AtMapKey("id")),
				sameID("data.apm_web_server.one", tfjsonpath.New("node_id"), list(apm.KindSession, "shop_web01"), servers.AtSliceIndex(0).AtMapKey("node_id")),
			),
		},
		{
			// What is not there lists nothing, and reads as nothing, with a warning.
			Config: env.config(tf(t, "servers/was_servers_of_system.tf", "system_name", "nosuch")),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.apm_was_servers.x", tfjsonpath.New("servers"), knownvalue.ListSizeExact(0)),
			},
		},
		{
			Config:            env.config(detail("servers/web_server_detail.tf", "nosuch", "web-01")),
			ConfigStateChecks: notFound("data.apm_web_server.x", "nosuch/web-01/web-01", "status"),
		},
		{
			// A WAS server's id is no web server.
			Config:            env.config(detail("servers/web_server_detail.tf", "shop", "was-01")),
			ConfigStateChecks: notFound("data.apm_web_server.x", "shop/web-01/was-01", "status"),
		},
		{
			Config:            env.config(detail("servers/session_server_detail.tf", "shop", "nope")),
			ConfigStateChecks: notFound("data.apm_session_server.x", "shop/web-01/nope", "status"),
		},
	})
	if n := env.writes(); n != 8 { // the arrangement: one node, six installs, one start
		t.Errorf("reading the server data sources made %d write requests beyond the arrangement", n-8)
	}
}
