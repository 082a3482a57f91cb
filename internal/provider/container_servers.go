package provider

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
)

var containerServerFields = []engine.Field[apm.ContainerServer]{
	engine.StringField(attrServerID, "The manager's `serverId` of the server.", func(s *apm.ContainerServer) string { return s.ServerID }),
	engine.StringField(attrServerName, "Name of the server, which is also its container's host name (the `hostName` of the container metrics).",
		func(s *apm.ContainerServer) string { return s.ServerName }),
	engine.StringField("container_ip", "IP address of the server's container.", func(s *apm.ContainerServer) string { return s.ContainerIP }),
	engine.Int64Field(attrHTTPPort, "HTTP port of the server.", func(s *apm.ContainerServer) int64 { return s.HTTPPort }),
}

var newContainerServersDataSource = engine.NewListDataSource(listDataSourceType[apm.ContainerServer]{
	Name:            "container_servers",
	Description:     "Lists the WAS or web servers of the manager's container groups, with their container's address, sorted by server id.",
	ListName:        "servers",
	ListDescription: "The servers of the container groups.",
	Fields:          containerServerFields,
	Filters: map[string]dschema.Attribute{
		attrKind: requiredString("Kind of server: `was` or `web`.", stringvalidator.OneOf(string(apm.KindWAS), string(apm.KindWeb))),
	},
	List: listContainerServers,
})

func listContainerServers(ctx context.Context, c *conn, config engine.Attrs) ([]apm.ContainerServer, error) {
	var (
		servers []apm.ContainerServer
		err     error
	)
	switch kind := apm.ServerKind(config.Str(attrKind)); kind {
	case apm.KindWAS:
		servers, err = c.ListWASContainerServers(ctx)
	case apm.KindWeb:
		servers, err = c.ListWebContainerServers(ctx)
	default:
		return nil, fmt.Errorf("containers have no %q servers (kind is was or web)", kind)
	}
	if err != nil {
		return nil, err
	}
	slices.SortFunc(servers, func(a, b apm.ContainerServer) int { return strings.Compare(a.ServerID, b.ServerID) })
	return servers, nil
}
