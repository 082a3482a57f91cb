package apm

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"reflect"
	"testing"
)

func TestFlexTypes(t *testing.T) {
	ints := map[string]int64{`5`: 5, `"5"`: 5, `" 7730 "`: 7730, `5.0`: 5, `"1e3"`: 1000, `null`: 0, `""`: 0, `-3`: -3}
	for in, want := range ints {
		var f flexInt
		if err := json.Unmarshal([]byte(in), &f); err != nil || int64(f) != want {
			t.Errorf("flexInt %s = %d, %v; want %d", in, f, err, want)
		}
	}
	for _, in := range []string{`"abc"`, `5.5`, `true`, `{}`, `[]`, `1e30`} {
		var f flexInt
		if err := json.Unmarshal([]byte(in), &f); err == nil {
			t.Errorf("flexInt %s = %d, want an error", in, f)
		}
	}
	strs := map[string]string{`"a"`: "a", `17`: "17", `9.50`: "9.50", `true`: "true", `null`: "", `""`: ""}
	for in, want := range strs {
		var f flexString
		if err := json.Unmarshal([]byte(in), &f); err != nil || string(f) != want {
			t.Errorf("flexString %s = %q, %v; want %q", in, f, err, want)
		}
	}
	for _, in := range []string{`{}`, `[1]`} {
		var f flexString
		if err := json.Unmarshal([]byte(in), &f); err == nil {
			t.Errorf("flexString %s = %q, want an error", in, f)
		}
	}
	bools := map[string]bool{`true`: true, `"true"`: true, `"Y"`: true, `"yes"`: true, `1`: true, `"1"`: true,
		`false`: false, `"N"`: false, `"no"`: false, `0`: false, `null`: false, `""`: false, `"OFF"`: false}
	for in, want := range bools {
		var f flexBool
		if err := json.Unmarshal([]byte(in), &f); err != nil || bool(f) != want {
			t.Errorf("flexBool %s = %t, %v; want %t", in, f, err, want)
		}
	}
	var fb flexBool
	if err := json.Unmarshal([]byte(`"maybe"`), &fb); err == nil {
		t.Error(`flexBool "maybe" decoded`)
	}
}

func TestListOf(t *testing.T) {
	cases := map[string][]string{
		`{"names":["a","b"]}`:       {"a", "b"},
		`{"Names":["a"],"other":1}`: {"a"},
		`["x"]`:                     {"x"},
		`{"other":[1]}`:             nil,
		`{"names":null}`:            nil,
		`null`:                      nil,
	}
	for in, want := range cases {
		l := newList[string]("names")
		if err := json.Unmarshal([]byte(in), l); err != nil || !reflect.DeepEqual(l.Items, want) {
			t.Errorf("%s: items = %q, %v; want %q", in, l.Items, err, want)
		}
	}
	l := newList[int]("names")
	if err := json.Unmarshal([]byte(`{"names":{"a":1}}`), l); err == nil {
		t.Error("an object as list decoded")
	}
}

// decodeServer answers each path with a fixed body.
func decodeServer(t *testing.T, bodies map[string]string) *Client {
	t.Helper()
	srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request, _ int) {
		body, ok := bodies[r.URL.EscapedPath()]
		if !ok {
			reply(w, 404, `{"error":"no such path","code":"NOT_FOUND"}`)
			return
		}
		reply(w, 200, body)
	})
	return newTestClient(t, srv.URL)
}

func TestLenientDecoding(t *testing.T) {
	ctx := context.Background()
	c := decodeServer(t, map[string]string{
		"/rest/systems": `{"total":"1","systems":[{"systemId":17,"systemName":"prod","nodeCount":"2","webCount":3,
			"appCount":"4","sessionCount":5.0,"cacheCount":null,"futureField":{"x":[1,2]},"nodes":[{"nodeName":"ignored"}]}]}`,
		"/rest/systems/prod":  `{"systemId":"17","systemName":"prod","nodes":[{"nodeName":"n1","hostIp":"10.0.0.1","status":"running","cpu":3}]}`,
		"/rest/systems/empty": `{"systemId":"18","systemName":"empty"}`,
		"/rest/nodes": `{"nodes":[{"nodeName":"n1","systemName":"prod","hostIp":"10.0.0.1","agentPort":"7730","status":"running"},
			{"nodeId":"node-0002","nodeName":"n2","systemName":"prod","agentPort":7731}]}`,
		"/rest/nodes/n1/systems/prod": `{"nodeName":"n1","hostIp":"10.0.0.1","agentPort":"7730","status":"running",
			"servers":[{"serverId":"was1","serverType":"S","status":"running"},{"serverId":"web1","serverType":"Enterprise","status":"stopped","port":80}]}`,
		"/rest/public/nodes":       `{"nodeList":[{"nodeId":1,"nodeName":"dummy","systemName":"s","connectionStatus":"connected","ipAddress":"192.0.2.1"}]}`,
		"/rest/public/managerInfo": `{"version":9.50,"patchVersion":"3","status":"running","haMode":"Y","build":"x"}`,
	})

	systems, err := c.ListSystems(ctx)
	if err != nil {
		t.Fatal(err)
	}
	wantSystems := []System{{SystemID: "17", SystemName: "prod", NodeCount: 2, WebCount: 3, AppCount: 4, SessionCount: 5}}
	if !reflect.DeepEqual(systems, wantSystems) {
		t.Errorf("ListSystems = %+v\nwant          %+v", systems, wantSystems)
	}

	sys, err := c.GetSystem(ctx, "prod")
	if err != nil {
		t.Fatal(err)
	}
	wantSys := &System{SystemID: "17", SystemName: "prod", Nodes: []SystemNode{{NodeName: "n1", HostIP: "10.0.0.1", Status: "running"}}}
	if !reflect.DeepEqual(sys, wantSys) {
		t.Errorf("GetSystem = %+v\nwant        %+v", sys, wantSys)
	}
	empty, err := c.GetSystem(ctx, "empty")
	if err != nil || empty.Nodes == nil || len(empty.Nodes) != 0 {
		t.Errorf("GetSystem(empty) = %+v, %v; want non-nil empty Nodes", empty, err)
	}

	nodes, err := c.ListNodes(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// The list documents no nodeId: the name is no stand-in for it there (only the detail's
	// absent nodeId equals the name).
	wantNodes := []Node{
		{NodeID: "", NodeName: "n1", SystemName: "prod", HostIP: "10.0.0.1", AgentPort: 7730, Status: "running"},
		{NodeID: "node-0002", NodeName: "n2", SystemName: "prod", AgentPort: 7731},
	}
	if !reflect.DeepEqual(nodes, wantNodes) {
		t.Errorf("ListNodes = %+v\nwant        %+v", nodes, wantNodes)
	}

	node, err := c.GetNode(ctx, "prod", "n1")
	if err != nil {
		t.Fatal(err)
	}
	wantNode := &Node{NodeID: "n1", NodeName: "n1", SystemName: "prod", HostIP: "10.0.0.1", AgentPort: 7730, Status: "running",
		Servers: []NodeServer{{ServerID: "was1", ServerType: "S", Status: "running"}, {ServerID: "web1", ServerType: "Enterprise", Status: "stopped"}}}
	if !reflect.DeepEqual(node, wantNode) {
		t.Errorf("GetNode = %+v\nwant      %+v", node, wantNode)
	}

	pub, err := c.ListPublicNodes(ctx)
	if err != nil {
		t.Fatal(err)
	}
	wantPub := []PublicNode{{NodeID: "1", NodeName: "dummy", SystemName: "s", ConnectionStatus: "connected", IPAddress: "192.0.2.1"}}
	if !reflect.DeepEqual(pub, wantPub) {
		t.Errorf("ListPublicNodes = %+v", pub)
	}

	info, err := c.ManagerInfo(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if want := (&ManagerInfo{Version: "9.50", PatchVersion: "3", Status: "running", HAMode: true}); !reflect.DeepEqual(info, want) {
		t.Errorf("ManagerInfo = %+v", info)
	}
}

func TestEmptyListsAreNotNil(t *testing.T) {
	ctx := context.Background()
	c := decodeServer(t, map[string]string{"/rest/systems": `{}`, "/rest/nodes": `{"nodes":[]}`, "/rest/public/nodes": `[]`})
	s, err1 := c.ListSystems(ctx)
	n, err2 := c.ListNodes(ctx)
	p, err3 := c.ListPublicNodes(ctx)
	if err := errors.Join(err1, err2, err3); err != nil {
		t.Fatal(err)
	}
	if s == nil || n == nil || p == nil || len(s)+len(n)+len(p) != 0 {
		t.Errorf("lists = %#v %#v %#v, want empty non-nil", s, n, p)
	}
}

func TestUndecodableResponse(t *testing.T) {
	ctx := context.Background()
	c := decodeServer(t, map[string]string{
		"/rest/systems":            `{"systems":[{"nodeCount":"many"}]}`,
		"/rest/nodes":              `not json`,
		"/rest/public/managerInfo": ``,
	})
	for name, call := range map[string]func() error{
		"bad number": func() error { _, err := c.ListSystems(ctx); return err },
		"not JSON":   func() error { _, err := c.ListNodes(ctx); return err },
		"empty":      func() error { _, err := c.ManagerInfo(ctx); return err },
	} {
		err := call()
		var e *Error
		if !errors.As(err, &e) || e.Code != CodeInvalidResponse || e.StatusCode != 200 {
			t.Errorf("%s: err = %v, want an INVALID_RESPONSE *Error", name, err)
			continue
		}
		assertNoKey(t, name, err.Error())
	}
}
