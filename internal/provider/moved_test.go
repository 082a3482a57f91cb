package provider

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
)

// A generic REST provider's resource moves to each type whose object it can manage, from
// the state each provider keeps (restapi_object: path, read_path, id and the JSON string
// data; restful_resource: path, id and the dynamic body), as a user of each would have
// written it against the paths of api/rest-interface.md.

// restMove is one type's object as both providers keep it, and what its move records.
type restMove struct {
	collection string         // the path objects are created at: both providers' path
	object     string         // the object's path: restful's id
	restapiID  string         // restapi's id (from id_attribute), put into its read_path
	readPath   string         // restapi's read_path, "" for its default path/{id}
	body       map[string]any // what both send
	want       map[string]any // the moved state's attributes; the rest is null until the refresh
}

var restMoves = map[string]restMove{
	"apm_system": {
		collection: "/rest/systems", object: "/rest/systems/shop", restapiID: "shop",
		body: map[string]any{"systemName": "shop"},
		want: map[string]any{attrID: "shop"},
	},
	"apm_node": {
		collection: "/rest/nodes", object: "/rest/nodes/web-01/systems/shop", restapiID: "web-01", readPath: "/rest/nodes/{id}/systems/shop",
		body: map[string]any{"nodeName": "web-01", "systemName": "shop", "hostIp": "10.0.0.1", "agentPort": 7730},
		want: map[string]any{attrSystemID: "shop", attrName: "web-01"},
	},
	"apm_was_server": {
		collection: "/rest/was/servers", object: "/rest/was/servers/was-1/nodes/web-01/systems/shop", restapiID: "was-1",
		readPath: "/rest/was/servers/{id}/nodes/web-01/systems/shop",
		body:     map[string]any{"type": "install", "serverId": "was-1", "nodeName": "web-01", "systemName": "shop", "httpPort": 8080, "ajpPort": 8009, "serverType": "Standard"},
		want:     map[string]any{attrNodeID: "shop/web-01", attrServerID: "was-1", attrMode: "install"},
	},
	"apm_web_server": {
		collection: "/rest/web/servers", object: "/rest/web/servers/web-1/nodes/web-01/systems/shop", restapiID: "web-1",
		readPath: "/rest/web/servers/{id}/nodes/web-01/systems/shop",
		body:     map[string]any{"type": "register", "serverId": "web-1", "nodeName": "web-01", "systemName": "shop", "httpPort": 80},
		want:     map[string]any{attrNodeID: "shop/web-01", attrServerID: "web-1", attrMode: "register"},
	},
	"apm_session_server": {
		collection: "/rest/session/servers", object: "/rest/session/servers/session-1/nodes/web-01/systems/shop", restapiID: "session-1",
		readPath: "/rest/session/servers/{id}/nodes/web-01/systems/shop",
		body:     map[string]any{"type": "install", "serverId": "session-1", "nodeName": "web-01", "systemName": "shop", "serverPort": 5701},
		want:     map[string]any{attrNodeID: "shop/web-01", attrServerID: "session-1", attrMode: "install"},
	},
	"apm_database": {
		collection: "/rest/resource/databases", object: "/rest/resource/databases/orders-db", restapiID: "orders-db",
		body: map[string]any{
			"resourceName": "orders-db", "databaseType": "PostgreSQL", "host": "db.example.com", "port": 5432,
			"databaseName": "orders", "userName": "app", "password": "s3cret!pw",
		},
		want: map[string]any{attrResourceName: "orders-db"},
	},
	"apm_datasource": {
		collection: "/rest/resource/datasources", object: "/rest/resource/datasources/orders-ds", restapiID: "orders-ds",
		body: map[string]any{"resourceName": "orders-ds", "databaseResourceName": "orders-db", "minPoolSize": 2, "maxPoolSize": 20},
		want: map[string]any{attrResourceName: "orders-ds"},
	},
	"apm_user": {
		collection: "/rest/admin/user", object: "/rest/admin/user/alice", restapiID: "alice",
		body: map[string]any{"usrId": "alice", "usrNm": "Alice", "usrPw": "s3cret!pw"},
		want: map[string]any{attrUserID: "alice"},
	},
	"apm_role": {
		collection: "/rest/admin/auth", object: "/rest/admin/auth/operators", restapiID: "operators",
		body: map[string]any{"authId": "operators", "authNm": "Operators", "actionTypes": []string{"READ", "EXECUTE"}, "description": "Runs servers"},
		want: map[string]any{attrRoleID: "operators"},
	},
}

// sourceStates are the raw states of the object of m as each source provider keeps it.
func (m restMove) sourceStates(t *testing.T) map[string]map[string]any {
	t.Helper()
	data, err := json.Marshal(m.body)
	if err != nil {
		t.Fatal(err)
	}
	restapi := map[string]any{"id": m.restapiID, "path": m.collection, "data": string(data), "query_string": "key=secret", "debug": false}
	if m.readPath != "" {
		restapi["read_path"] = m.readPath
	}
	// A dynamic attribute is kept as its value beside its type; the type does not matter here.
	restful := map[string]any{"id": m.object, "path": m.collection, "body": map[string]any{"value": m.body, "type": "dynamic"}}
	return map[string]map[string]any{"restapi_object": restapi, "restful_resource": restful}
}

var sourceProviders = map[string]string{
	"restapi_object":   "registry.terraform.io/mastercard/restapi",
	"restful_resource": "registry.terraform.io/magodo/restful",
}

func moveTo(t *testing.T, server tfprotov6.ProviderServer, target, source string, attrs map[string]any) *tfprotov6.MoveResourceStateResponse {
	t.Helper()
	raw, err := json.Marshal(attrs)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := server.MoveResourceState(context.Background(), &tfprotov6.MoveResourceStateRequest{
		SourceProviderAddress: sourceProviders[source], SourceTypeName: source, SourceState: &tfprotov6.RawState{JSON: raw}, TargetTypeName: target,
	})
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// Each type's object moves from each source to its import ID's parts and the body's inputs
// that the manager does not report (a server's mode from the create's type), without the
// secret (a password), and nothing else: the refresh that follows reads the rest (the
// engine's tests show it).
func TestMoveFromRESTProvidersMapsEachType(t *testing.T) {
	server := NewProtocol6Server("test")()
	schemas, err := server.GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, target := range slices.Sorted(maps.Keys(restMoves)) {
		m := restMoves[target]
		typ := schemas.ResourceSchemas[target].ValueType().(tftypes.Object) //nolint:forcetypeassert // a schema's value is an object
		for source, attrs := range m.sourceStates(t) {
			t.Run(target+" from "+source, func(t *testing.T) {
				resp := moveTo(t, server, target, source, attrs)
				for _, d := range resp.Diagnostics {
					t.Fatalf("%s: %s", d.Summary, d.Detail)
				}
				v, err := resp.TargetState.Unmarshal(typ)
				if err != nil {
					t.Fatal(err)
				}
				got, err := engine.AttrsOf(v)
				if err != nil {
					t.Fatal(err)
				}
				for name := range typ.AttributeTypes {
					checkMovedAttr(t, got, name, m.want[name])
				}
			})
		}
	}
}

// checkMovedAttr checks one attribute of a moved state: want's value, or null.
func checkMovedAttr(t *testing.T, got engine.Attrs, name string, want any) {
	t.Helper()
	switch want := want.(type) {
	case nil:
		if got.Known(name) {
			t.Errorf("%s = %v, want null", name, got[name])
		}
	case string:
		if got.Str(name) != want {
			t.Errorf("%s = %v, want %q", name, got[name], want)
		}
	case int:
		if !got.Known(name) || got.Int64(name) != int64(want) {
			t.Errorf("%s = %v, want %d", name, got[name], want)
		}
	}
}

// The table above covers every type that takes over another's state, and every other
// type refuses, saying so.
func TestMoveFromRESTProvidersCoversTheTypesThatTakeOver(t *testing.T) {
	server := NewProtocol6Server("test")()
	var takers []string
	for _, name := range slices.Sorted(maps.Keys(registeredTypes())) {
		resp := moveTo(t, server, name, "restful_resource", map[string]any{"id": "/nowhere", "path": "/nowhere"})
		if len(resp.Diagnostics) != 1 {
			t.Fatalf("%s: %+v, want one error", name, resp.Diagnostics)
		}
		if !strings.Contains(resp.Diagnostics[0].Detail, "cannot take over the state of another resource type") {
			takers = append(takers, name)
		}
	}
	if want := slices.Sorted(maps.Keys(restMoves)); !slices.Equal(takers, want) {
		t.Errorf("the types that take over a REST provider's state are %v; the table covers %v", takers, want)
	}
}
