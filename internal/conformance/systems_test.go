package conformance

import (
	"context"
	"fmt"
	"testing"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
)

// Cases for 4.6 and the public endpoints, against the demo seed (systems shop and batch;
// nodes web-01 and app-01 in shop).
var _ = addCases(
	endpointCase{"GET /rest/nodes", func(ctx context.Context, c *apm.Client) error {
		return expectLen(c.ListNodes(ctx))
	}},
	endpointCase{"GET /rest/nodes/{nodeName}/systems/{systemName}", func(ctx context.Context, c *apm.Client) error {
		_, err := c.GetNode(ctx, "shop", "web-01")
		return err
	}},
	endpointCase{"POST /rest/nodes", func(ctx context.Context, c *apm.Client) error {
		return c.CreateNode(ctx, apm.CreateNodeRequest{NodeName: "new-01", SystemName: "batch", HostIP: "10.0.0.99", AgentPort: 7730})
	}},
	endpointCase{"PUT /rest/nodes/{nodeId}/systems/{systemName}", func(ctx context.Context, c *apm.Client) error {
		return c.UpdateNode(ctx, "shop", "ND-0001", apm.UpdateNodeRequest{AgentPort: 7799})
	}},
	endpointCase{"DELETE /rest/nodes/{nodeId}/systems/{systemName}", func(ctx context.Context, c *apm.Client) error {
		return c.DeleteNode(ctx, "shop", "ND-0002")
	}},
	endpointCase{"GET /rest/public/nodes", func(ctx context.Context, c *apm.Client) error {
		return expectLen(c.ListPublicNodes(ctx))
	}},
	endpointCase{"GET /rest/systems", func(ctx context.Context, c *apm.Client) error {
		return expectLen(c.ListSystems(ctx))
	}},
	endpointCase{"GET /rest/systems/{systemName}", func(ctx context.Context, c *apm.Client) error {
		_, err := c.GetSystem(ctx, "shop")
		return err
	}},
	endpointCase{"POST /rest/systems", func(ctx context.Context, c *apm.Client) error {
		return c.CreateSystem(ctx, "fresh")
	}},
	endpointCase{"PUT /rest/systems/{systemName}", func(ctx context.Context, c *apm.Client) error {
		return c.RenameSystem(ctx, "batch", "batch2")
	}},
	endpointCase{"DELETE /rest/systems/{systemName}", func(ctx context.Context, c *apm.Client) error {
		return c.DeleteSystem(ctx, "batch")
	}},
	endpointCase{"GET /rest/public/managerInfo", func(ctx context.Context, c *apm.Client) error {
		info, err := c.ManagerInfo(ctx)
		if err == nil && info.Version == "" {
			err = fmt.Errorf("manager info has no version")
		}
		return err
	}},
)

// expectLen turns an empty list into an error: every list of the demo seed has entries,
// so an empty one means the call or the decoding is wrong.
func expectLen[T any](items []T, err error) error {
	if err == nil && len(items) == 0 {
		return fmt.Errorf("empty list from the demo seed")
	}
	return err
}

// The bodies of 4.6 and the public paths carry exactly the fields of api/rest-interface.md
// part 2 and api/decisions.md: the system detail has no counts, the node list no nodeId.
func TestSystemAndNodeBodiesHaveTheDocumentedShape(t *testing.T) {
	node := "agentPort:number hostIp:string nodeName:string status:string systemName:string"
	sim := newFixture(t).sim
	checkShapes(t, sim, []shapeCase{
		{"/rest/systems", "systems",
			"appCount:number cacheCount:number nodeCount:number sessionCount:number systemId:string systemName:string webCount:number"},
		{"/rest/systems/shop", "", "nodes:array systemId:string systemName:string"},
		{"/rest/nodes", "nodes", node},
		{"/rest/nodes/web-01/systems/shop", "",
			"agentPort:number hostIp:string nodeId:string nodeName:string servers:array status:string systemName:string"},
		{"/rest/public/nodes", "nodeList", "connectionStatus:string ipAddress:string nodeId:string nodeName:string systemName:string"},
		{"/rest/public/managerInfo", "", "haMode:bool patchVersion:string status:string version:string"},
	})
	checkElementShapes(t, sim, "/rest/systems/shop", "nodes", "hostIp:string nodeName:string status:string")
	checkElementShapes(t, sim, "/rest/nodes/web-01/systems/shop", "servers", "serverId:string serverType:string status:string")
}

// A terse manager's node detail has no nodeId; everything else stays.
func TestTerseNodeBodies(t *testing.T) {
	checkShapes(t, newTerseFixture(t).sim, []shapeCase{
		{"/rest/nodes", "nodes", "agentPort:number hostIp:string nodeName:string status:string systemName:string"},
		{"/rest/nodes/web-01/systems/shop", "",
			"agentPort:number hostIp:string nodeName:string servers:array status:string systemName:string"},
	})
}

// PUT and DELETE take the nodeId the detail reports; where the detail reports none, the
// name (api/decisions.md, "Identity and paths"). Either way the other identifier is refused,
// so a client that sends the wrong one fails here.
func TestNodeIDThroughTheClient(t *testing.T) {
	for name, tc := range map[string]struct {
		f                 *fixture
		wantID, refusedID string
	}{
		"full":  {newFixture(t), "ND-0002", "app-01"},
		"terse": {newTerseFixture(t), "app-01", "ND-0002"},
	} {
		t.Run(name, func(t *testing.T) {
			c := tc.f.admin
			ctx := context.Background()
			n, err := c.GetNode(ctx, "shop", "app-01")
			if err != nil {
				t.Fatal(err)
			}
			if n.NodeID != tc.wantID {
				t.Fatalf("nodeId %q, want %q", n.NodeID, tc.wantID)
			}
			notFound := wantErr{404, "NOT_FOUND", "Node not found: " + tc.refusedID}
			checkErr(t, c.UpdateNode(ctx, "shop", tc.refusedID, apm.UpdateNodeRequest{AgentPort: 7799}), notFound)
			checkErr(t, c.DeleteNode(ctx, "shop", tc.refusedID), notFound)

			checkErr(t, c.UpdateNode(ctx, "shop", n.NodeID, apm.UpdateNodeRequest{AgentPort: 7799}), wantErr{})
			if n, err = c.GetNode(ctx, "shop", "app-01"); err != nil || n.AgentPort != 7799 {
				t.Fatalf("after update: %+v, %v", n, err)
			}
			checkErr(t, c.DeleteNode(ctx, "shop", n.NodeID), wantErr{})
			_, err = c.GetNode(ctx, "shop", "app-01")
			checkErr(t, err, wantErr{404, "NOT_FOUND", "Node not found: app-01"})
		})
	}
}
