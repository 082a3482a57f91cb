package conformance

import (
	"context"
	"fmt"

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
