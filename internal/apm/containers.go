package apm

import "context"

// ContainerServer is a WAS or web server of a container group (spec part 2, "Container web
// server"; api/decisions.md gives the WAS list the same shape).
type ContainerServer struct {
	ServerID, ServerName, ContainerIP string
	HTTPPort                          int64
}

type wireContainerServer struct {
	ServerID    flexString `json:"serverId"`
	ServerName  flexString `json:"serverName"`
	ContainerIP flexString `json:"containerIp"`
	HTTPPort    flexInt    `json:"httpPort"`
}

// ListWASContainerServers returns the WAS servers of the container group
// (GET /rest/was/container/servers). The result is never nil.
func (c *Client) ListWASContainerServers(ctx context.Context) ([]ContainerServer, error) {
	return c.listContainerServers(ctx, "/rest/was/container/servers")
}

// ListWebContainerServers returns the web servers of the container group
// (GET /rest/web/container/servers). The result is never nil.
func (c *Client) ListWebContainerServers(ctx context.Context) ([]ContainerServer, error) {
	return c.listContainerServers(ctx, "/rest/web/container/servers")
}

func (c *Client) listContainerServers(ctx context.Context, path string) ([]ContainerServer, error) {
	return getList(ctx, c, path, nil, "containerList", wireContainerServer.server)
}

func (w wireContainerServer) server() ContainerServer {
	return ContainerServer{
		ServerID:    string(w.ServerID),
		ServerName:  string(w.ServerName),
		ContainerIP: string(w.ContainerIP),
		HTTPPort:    int64(w.HTTPPort),
	}
}
