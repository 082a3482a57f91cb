package apm

import (
	"context"
	"testing"
)

func TestListContainerServers(t *testing.T) {
	runCallCases(t, containerCalls())
}

// containerCalls are the reads of container servers; TestCoverageClientCallsSendTheirEndpoint
// runs them too.
func containerCalls() []callCase {
	list := `{"containerList":[{"serverId":"c1","serverName":"pod-1","containerIp":"172.20.0.11","httpPort":"8080"}]}`
	want := []ContainerServer{{ServerID: "c1", ServerName: "pod-1", ContainerIP: "172.20.0.11", HTTPPort: 8080}}
	return []callCase{
		{"WAS", func(ctx context.Context, c *Client) (any, error) { return c.ListWASContainerServers(ctx) },
			"/rest/was/container/servers", list, want},
		{"web", func(ctx context.Context, c *Client) (any, error) { return c.ListWebContainerServers(ctx) },
			"/rest/web/container/servers", list, want},
		{"key case", func(ctx context.Context, c *Client) (any, error) { return c.ListWebContainerServers(ctx) },
			"/rest/web/container/servers", `{"ContainerList":[{"serverId":"c1","serverName":"pod-1","containerIp":"172.20.0.11","httpPort":8080}]}`, want},
		{"empty", func(ctx context.Context, c *Client) (any, error) { return c.ListWASContainerServers(ctx) },
			"/rest/was/container/servers", `{"containerList":null}`, []ContainerServer{}},
	}
}
