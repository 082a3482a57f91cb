package engine

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// movableNodeType is the identity tests' node (import ID <system>/<name>, the system's
// name resolved to its id) at the manager's path of a node, with an input the manager
// does not report (install_mode, the body's type).
func movableNodeType() ResourceType[testNode, *nodeStore] {
	typ := identityNodeType()
	typ.Fields = append(slices.Clone(typ.Fields), InputField[testNode]("install_mode", "", tftypes.String).OptionalInput())
	typ.REST = &RESTObject{Path: "/rest/nodes/{nodeName}/systems/{systemName}", ImportID: "{systemName}/{nodeName}", Keys: map[string]string{"install_mode": "type"}}
	return typ
}

// moveServer serves typ over the identity tests' store (node web-01 of system shop, id
// SYS-1), configured, with the state and identity types of apm_node.
func moveServer(t *testing.T, typ ResourceType[testNode, *nodeStore]) (tfprotov6.ProviderServer, tftypes.Object, tftypes.Object) {
	t.Helper()
	store := &nodeStore{
		nodes:   map[string]testNode{"SYS-1/web-01": {SystemID: "SYS-1", Name: "web-01", HostIP: "10.0.0.1", AgentPort: 7730, NodeID: "n-1"}},
		systems: map[string]string{"shop": "SYS-1"},
	}
	server := providerserver.NewProtocol6(storeProvider{store, NewResource(typ)})()
	ctx := context.Background()
	schemas, err := server.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	identities, err := server.GetResourceIdentitySchemas(ctx, &tfprotov6.GetResourceIdentitySchemasRequest{})
	if err != nil {
		t.Fatal(err)
	}
	config, err := tfprotov6.NewDynamicValue(tftypes.Object{}, tftypes.NewValue(tftypes.Object{}, map[string]tftypes.Value{}))
	if err != nil {
		t.Fatal(err)
	}
	if resp, err := server.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{Config: &config}); err != nil || len(resp.Diagnostics) > 0 {
		t.Fatalf("configure: %v %v", err, resp.Diagnostics)
	}
	return server, schemas.ResourceSchemas["apm_node"].ValueType().(tftypes.Object), //nolint:forcetypeassert // a schema's value is an object
		identities.IdentitySchemas["apm_node"].ValueType().(tftypes.Object) //nolint:forcetypeassert // as above
}

// rawState is a source's raw state: its attributes as JSON.
func rawState(t *testing.T, attrs map[string]any) *tfprotov6.RawState {
	t.Helper()
	data, err := json.Marshal(attrs)
	if err != nil {
		t.Fatal(err)
	}
	return &tfprotov6.RawState{JSON: data}
}

// dataString is a JSON body as restapi_object keeps it: a string attribute.
func dataString(t *testing.T, body map[string]any) string {
	t.Helper()
	data, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// dynamic is a JSON body as restful_resource keeps it: a dynamic attribute, its value
// beside its type.
func dynamic(body map[string]any) map[string]any {
	types := map[string]any{}
	for k, v := range body {
		switch v.(type) {
		case string:
			types[k] = "string"
		default:
			types[k] = "number"
		}
	}
	return map[string]any{"value": body, "type": []any{"object", types}}
}

func move(t *testing.T, server tfprotov6.ProviderServer, source string, attrs map[string]any) *tfprotov6.MoveResourceStateResponse {
	t.Helper()
	provider := map[string]string{restapiObject: "registry.terraform.io/mastercard/restapi", restfulResource: "registry.terraform.io/magodo/restful"}[source]
	resp, err := server.MoveResourceState(context.Background(), &tfprotov6.MoveResourceStateRequest{
		SourceProviderAddress: provider, SourceTypeName: source, SourceState: rawState(t, attrs), TargetTypeName: "apm_node",
	})
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

func attrsOf(t *testing.T, typ tftypes.Object, dv *tfprotov6.DynamicValue) Attrs {
	t.Helper()
	v, err := dv.Unmarshal(typ)
	if err != nil {
		t.Fatal(err)
	}
	a, err := AttrsOf(v)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

var shopNode = map[string]any{"type": "install", "nodeName": "web-01", "systemName": "shop", "hostIp": "10.0.0.1", "agentPort": 7730}

// Each way a restapi_object or restful_resource keeps a node moves to the node's import
// ID and the body's input that the manager does not report; the refresh that follows
// resolves the system's name to its id, fills what the manager reports and the identity,
// and forgets the move.
func TestMoveTakesOverEachSourceLikeAnImport(t *testing.T) {
	cases := map[string]struct {
		source string
		attrs  map[string]any
	}{
		"restapi_object with read_path": {restapiObject, map[string]any{
			"id": "web-01", "path": "/rest/nodes", "read_path": "/rest/nodes/{id}/systems/shop", "data": dataString(t, shopNode),
		}},
		"restapi_object with its path and id": {restapiObject, map[string]any{
			"id": "web-01/systems/shop", "path": "/rest/nodes", "data": dataString(t, shopNode),
		}},
		"restapi_object read from the list, a key from api_data": {restapiObject, map[string]any{
			"id": "web-01", "path": "/rest/nodes", "read_path": "/rest/nodes", "data": dataString(t, map[string]any{"type": "install", "nodeName": "web-01"}),
			"api_data": map[string]string{"systemName": "shop", "status": "running"},
		}},
		"restful_resource read at the object's path": {restfulResource, map[string]any{
			"id": "/rest/nodes/web-01/systems/shop", "path": "/rest/nodes", "body": dynamic(shopNode),
		}},
		"restful_resource of its schema 0, its body a JSON string": {restfulResource, map[string]any{
			"id": "/rest/nodes/web-01/systems/shop", "path": "/rest/nodes", "body": dataString(t, shopNode),
		}},
		"restful_resource read from the list, keys in the body": {restfulResource, map[string]any{
			"id": "/rest/nodes", "path": "/rest/nodes", "body": dynamic(shopNode), "output": dynamic(map[string]any{"status": "running"}),
		}},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			server, stateType, identityType := moveServer(t, movableNodeType())
			resp := move(t, server, c.source, c.attrs)
			requireNoDiagnostics(t, "move", nil, resp.Diagnostics)
			moved := attrsOf(t, stateType, resp.TargetState)
			if moved.Str("system_id") != "shop" || moved.Str("name") != "web-01" || moved.Str("install_mode") != "install" {
				t.Errorf("moved state %v, want the import ID's system shop and name web-01, and the body's type as install_mode", moved)
			}
			if moved.Known("id") || moved.Known("node_id") || moved.Known("host_ip") || moved.Known("agent_port") {
				t.Errorf("moved state %v: what the manager reports waits for the refresh", moved)
			}
			read, err := server.ReadResource(context.Background(), &tfprotov6.ReadResourceRequest{TypeName: "apm_node", CurrentState: resp.TargetState, Private: resp.TargetPrivate})
			requireNoDiagnostics(t, "read", err, read.Diagnostics)
			a := attrsOf(t, stateType, read.NewState)
			if a.Str("system_id") != "SYS-1" || a.Str("id") != "SYS-1/web-01" || a.Str("node_id") != "n-1" || a.Str("host_ip") != "10.0.0.1" ||
				a.Int64("agent_port") != 7730 || a.Str("install_mode") != "install" {
				t.Errorf("refreshed state %v, want the system's id SYS-1, what the manager reports and the moved install_mode", a)
			}
			if got := identityOf(t, identityType, read.NewIdentity); got["system_id"] != "SYS-1" || got["name"] != "web-01" {
				t.Errorf("identity %v, want the resolved import ID", got)
			}
			if strings.Contains(string(read.Private), `"`+movedKey+`"`) || !strings.Contains(string(read.Private), importedKey) {
				t.Errorf("private state after the refresh %s: the move is done, the import mark stays until an apply", read.Private)
			}
		})
	}
}

// What does not map is refused at the move, naming what is wrong: another type's path,
// a body without a key, a path and a body that disagree, a value of the wrong kind, a
// source of another provider, a type that takes over nothing.
func TestMoveRefusesWhatDoesNotMap(t *testing.T) {
	cases := map[string]struct {
		typ    ResourceType[testNode, *nodeStore]
		source string
		attrs  map[string]any
		want   string
	}{
		"a path of another type": {movableNodeType(), restfulResource,
			map[string]any{"id": "/rest/systems/shop", "path": "/rest/systems", "body": dynamic(map[string]any{"systemName": "shop"})},
			`with the path "/rest/systems/shop": its path is not a node's: a node is at /rest/nodes/{nodeName}/systems/{systemName}, and created at /rest/nodes`},
		"a body missing a key": {movableNodeType(), restfulResource,
			map[string]any{"id": "/rest/nodes", "path": "/rest/nodes", "body": dynamic(map[string]any{"nodeName": "web-01"})},
			"neither its path nor its body has systemName, which identifies the object"},
		"a path and a body that disagree": {movableNodeType(), restapiObject,
			map[string]any{"id": "web-01", "path": "/rest/nodes", "read_path": "/rest/nodes/{id}/systems/shop", "data": dataString(t, map[string]any{"systemName": "outlet"})},
			`its path has systemName "shop" but its body has "outlet"`},
		"a value of the wrong kind": {movableNodeType(), restapiObject,
			map[string]any{"id": "web-01", "path": "/rest/nodes", "read_path": "/rest/nodes/{id}/systems/shop", "data": dataString(t, map[string]any{"type": true})},
			"its body's type (for install_mode): true is not a string"},
		"a data that is no JSON object": {movableNodeType(), restapiObject,
			map[string]any{"id": "web-01", "path": "/rest/nodes", "read_path": "/rest/nodes/{id}/systems/shop", "data": "[1]"},
			"the state of restapi_object: its data is not a JSON object"},
		"a source of another provider": {movableNodeType(), "aws_instance",
			map[string]any{"id": "i-1"},
			"the source of a moved block must be a restapi_object (Mastercard/restapi) or a restful_resource (magodo/restful)"},
		"a type without a path": {identityNodeType(), restapiObject,
			map[string]any{"id": "web-01", "path": "/rest/nodes", "read_path": "/rest/nodes/{id}/systems/shop", "data": dataString(t, shopNode)},
			"apm_node cannot take over the state of another resource type"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			server, _, _ := moveServer(t, c.typ)
			resp := move(t, server, c.source, c.attrs)
			if len(resp.Diagnostics) != 1 || resp.Diagnostics[0].Severity != tfprotov6.DiagnosticSeverityError || !strings.Contains(resp.Diagnostics[0].Detail, c.want) {
				t.Fatalf("diagnostics %+v, want one error saying %q", resp.Diagnostics, c.want)
			}
			if resp.TargetState != nil {
				t.Errorf("a refused move left a state")
			}
		})
	}
}

// A moved node whose system is gone is gone: the refresh drops it and the plan creates
// it, as for any object deleted outside Terraform.
func TestMovedObjectWhoseParentIsGoneIsGone(t *testing.T) {
	server, stateType, _ := moveServer(t, movableNodeType())
	resp := move(t, server, restfulResource, map[string]any{"id": "/rest/nodes/web-01/systems/outlet", "path": "/rest/nodes", "body": dynamic(shopNode)})
	if len(resp.Diagnostics) != 1 || !strings.Contains(resp.Diagnostics[0].Detail, `its path has systemName "outlet" but its body has "shop"`) {
		t.Fatalf("diagnostics %+v", resp.Diagnostics)
	}
	body := map[string]any{"nodeName": "web-01", "systemName": "outlet"}
	resp = move(t, server, restfulResource, map[string]any{"id": "/rest/nodes/web-01/systems/outlet", "path": "/rest/nodes", "body": dynamic(body)})
	requireNoDiagnostics(t, "move", nil, resp.Diagnostics)
	read, err := server.ReadResource(context.Background(), &tfprotov6.ReadResourceRequest{TypeName: "apm_node", CurrentState: resp.TargetState, Private: resp.TargetPrivate})
	requireNoDiagnostics(t, "read", err, read.Diagnostics)
	if v, err := read.NewState.Unmarshal(stateType); err != nil || !v.IsNull() {
		t.Errorf("a moved node of a system that does not exist must leave the state: %v (%v)", v, err)
	}
}

// A plan that skips the refresh (-refresh=false) would compare the configuration with
// the system's name where its id belongs, and replace the node: it is refused.
func TestPlanOfAnUnreadMoveIsRefused(t *testing.T) {
	server, _, _ := moveServer(t, movableNodeType())
	resp := move(t, server, restfulResource, map[string]any{"id": "/rest/nodes/web-01/systems/shop", "path": "/rest/nodes", "body": dynamic(shopNode)})
	requireNoDiagnostics(t, "move", nil, resp.Diagnostics)
	plan, err := server.PlanResourceChange(context.Background(), &tfprotov6.PlanResourceChangeRequest{
		TypeName: "apm_node", PriorState: resp.TargetState, ProposedNewState: resp.TargetState, Config: resp.TargetState, PriorPrivate: resp.TargetPrivate,
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Diagnostics) != 1 || !strings.Contains(plan.Diagnostics[0].Detail, "Plan without -refresh=false") {
		t.Errorf("diagnostics %+v, want the plan refused until a refresh", plan.Diagnostics)
	}
}

// A body's value becomes the field's kind: numbers and booleans as JSON has them or as
// restapi's api_data flattens them to strings; anything else is refused, naming it.
func TestMovedBodyValuesTakeTheFieldsKind(t *testing.T) {
	count := InputField[testNode]("count", "", tftypes.Number)
	flag := InputField[testNode]("flag", "", tftypes.Bool)
	mode := InputField[testNode]("mode", "", tftypes.String)
	for _, c := range []struct {
		field Field[testNode]
		in    any
		want  tftypes.Value
	}{
		{count, json.Number("7"), Int64Value(7)},
		{count, "7", Int64Value(7)},
		{flag, true, tftypes.NewValue(tftypes.Bool, true)},
		{flag, "false", tftypes.NewValue(tftypes.Bool, false)},
		{mode, "install", str("install")},
		{mode, json.Number("3"), str("3")},
	} {
		if got, err := c.field.fromJSON(c.in); err != nil || !got.Equal(c.want) {
			t.Errorf("%s from %#v = %v (%v), want %v", c.field.name, c.in, got, err, c.want)
		}
	}
	for _, c := range []struct {
		field Field[testNode]
		in    any
		want  string
	}{
		{count, "seven", "seven is not a whole number"},
		{count, json.Number("7.5"), "7.5 is not a whole number"},
		{flag, "yes", "yes is not true or false"},
		{mode, []any{"a"}, "[a] is not a string"},
	} {
		if _, err := c.field.fromJSON(c.in); err == nil || err.Error() != c.want {
			t.Errorf("%s from %#v: error %v, want %q", c.field.name, c.in, err, c.want)
		}
	}
}
