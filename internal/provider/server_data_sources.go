package provider

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
)

func (k *serverKind) dataSource() func() datasource.DataSource {
	return engine.NewDataSource(dataSourceType[serverObject]{
		Name:        k.name,
		Description: fmt.Sprintf("Reads one %s by system, node and server id, with its status.", k.label),
		Fields:      k.fields(),
		Keys:        []string{attrSystemName, attrNodeName, attrServerID},
		Read: func(ctx context.Context, c *conn, config engine.Attrs) (*serverObject, error) {
			system, err := c.systemNamed(ctx, config.Str(attrSystemName))
			if err != nil {
				return nil, err
			}
			srv, err := c.GetServer(ctx, apm.ServerRef{Kind: k.kind, ServerID: config.Str(attrServerID), NodeName: config.Str(attrNodeName), SystemName: system.SystemName})
			if err != nil {
				return nil, err
			}
			return &serverObject{Server: *srv, SystemID: system.SystemID}, nil
		},
	})
}

func (k *serverKind) listDataSource() func() datasource.DataSource {
	return engine.NewListDataSource(listDataSourceType[serverObject]{
		Name:            k.name + "s",
		Description:     fmt.Sprintf("Lists the %ss of the manager, or of one system or node, sorted by system, node and server id.", k.label),
		ListName:        "servers",
		ListDescription: fmt.Sprintf("The %ss.", k.label),
		Fields:          k.fields(),
		Filters: map[string]dschema.Attribute{
			attrSystemName: optionalString("Only list the servers of this system.", systemNameValidators()...),
			attrNodeName:   optionalString("Only list the servers of nodes with this name.", nodeNameValidators()...),
		},
		List:    k.list,
		Imports: k.resourceType().Target(),
	})
}

// list lists the kind's servers (one GET) with their systems' ids (one more).
func (k *serverKind) list(ctx context.Context, c *conn, config engine.Attrs) ([]serverObject, error) {
	system, node := config.Str(attrSystemName), config.Str(attrNodeName)
	ids, err := c.systemIDs(ctx, system)
	if err != nil {
		return nil, err
	}
	servers, err := c.ListServers(ctx, k.kind)
	if err != nil {
		return nil, err
	}
	out := make([]serverObject, 0, len(servers))
	for _, s := range servers {
		if (system == "" || s.SystemName == system) && (node == "" || s.NodeName == node) {
			out = append(out, serverObject{Server: s, SystemID: ids[s.SystemName]})
		}
	}
	slices.SortFunc(out, func(a, b serverObject) int {
		return strings.Compare(a.SystemName+"/"+a.NodeName+"/"+a.ServerID, b.SystemName+"/"+b.NodeName+"/"+b.ServerID)
	})
	return out, nil
}

// serverKindNames are the values of the kind argument, in the order of serverKinds.
func serverKindNames() []string {
	names := make([]string, len(serverKinds))
	for i, k := range serverKinds {
		names[i] = string(k.kind)
	}
	return names
}
