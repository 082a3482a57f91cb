package provider

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
)

// Data sources about servers that the server resources do not manage: the servers a node
// has but the manager does not (yet) manage, which apm_<kind>_server with mode = "register"
// adopts, and the servers of the container groups. The kind is an argument, as in the
// manager's paths, rather than one data source per kind.

func serverDataSources() []func() datasource.DataSource {
	return []func() datasource.DataSource{newRegisterableServersDataSource, newContainerServersDataSource}
}

// registerableObject is a registerable server with the id of its system, which the
// manager's list lacks.
type registerableObject struct {
	apm.RegisterableServer
	SystemID string
}

var registerableFields = []engine.Field[registerableObject]{
	engine.StringField("server_id", "The manager's `serverId` of the server: `server_id` of the `apm_<kind>_server` that registers it.",
		func(s *registerableObject) string { return s.ServerID }),
	engine.StringField("node_id", "The `id` of the server's node (`<system_id>/<node>`), as `node_id` of the `apm_<kind>_server` that registers it takes it.",
		func(s *registerableObject) string { return s.SystemID + "/" + s.NodeName }),
	engine.StringField("server_ip", "IP address of the server (WAS and web servers; empty for session servers).",
		func(s *registerableObject) string { return s.ServerIP }),
	engine.StringField("server_type", "Edition of a WAS server: `Standard` or `Enterprise` (empty for the other kinds).",
		func(s *registerableObject) string { return string(s.Edition) }),
	engine.Int64Field("http_port", "HTTP port of the server (WAS and web servers; `0` for session servers).",
		func(s *registerableObject) int64 { return s.HTTPPort }),
	engine.Int64Field("ajp_port", "AJP port of a WAS server (`0` for the other kinds, or when it has none).",
		func(s *registerableObject) int64 { return s.AJPPort }),
	engine.Int64Field("https_port", "HTTPS port of a web server (`0` for the other kinds, or when it has none).",
		func(s *registerableObject) int64 { return s.HTTPSPort }),
	engine.StringField("server_home", "Directory a session server is installed in (empty for the other kinds).",
		func(s *registerableObject) string { return s.ServerHome }),
	engine.StringField("status", "Status of a session server as the node reports it, such as `available` (empty for the other kinds).",
		func(s *registerableObject) string { return s.Status }),
}

// serverKindNames are the values of the kind argument, in the order of serverKinds.
func serverKindNames() []string {
	names := make([]string, len(serverKinds))
	for i, k := range serverKinds {
		names[i] = string(k.kind)
	}
	return names
}

// requiredString is a required argument of a data source.
func requiredString(description string, rules ...validator.String) dschema.Attribute {
	return dschema.StringAttribute{MarkdownDescription: description, Required: true, Validators: rules}
}

var newRegisterableServersDataSource = engine.NewListDataSource(listDataSourceType[registerableObject]{
	Name: "registerable_servers",
	Description: "Lists the servers of one kind that a node has but the manager does not manage yet, sorted by server id: " +
		"the candidates of `apm_was_server`, `apm_web_server` or `apm_session_server` with `mode = \"register\"`. " +
		"Registering a server takes it off this list (and deregistering puts it back), so a `for_each` over the list alone " +
		"would deregister in the next plan what it registered: see the example. Naming a system or node that does not exist is an error.",
	ListName:        "servers",
	ListDescription: "The registerable servers. Each kind reports only some of the attributes; the others are zero (empty or `0`).",
	Fields:          registerableFields,
	Filters: map[string]dschema.Attribute{
		"kind":        requiredString("Kind of server: `was`, `web` or `session`.", stringvalidator.OneOf(serverKindNames()...)),
		"system_name": requiredString("Name of the node's system.", systemNameValidators()...),
		"node_name":   requiredString("Name of the node.", nodeNameValidators()...),
	},
	List: listRegisterableServers,
})

// listRegisterableServers reads the node's list (one GET), and the system's id where the
// provider has not seen it yet (one more).
func listRegisterableServers(ctx context.Context, m *conn, config engine.Attrs) ([]registerableObject, error) {
	kind, systemName, nodeName := apm.ServerKind(config.Str("kind")), config.Str("system_name"), config.Str("node_name")
	systemID, err := m.systemID(ctx, systemName)
	if err != nil {
		return nil, err
	}
	servers, err := m.ListRegisterableServers(ctx, kind, systemName, nodeName)
	if err != nil {
		return nil, err
	}
	out := make([]registerableObject, 0, len(servers))
	for _, s := range servers {
		out = append(out, registerableObject{RegisterableServer: s, SystemID: systemID})
	}
	slices.SortFunc(out, func(a, b registerableObject) int { return strings.Compare(a.ServerID, b.ServerID) })
	return out, nil
}

var containerServerFields = []engine.Field[apm.ContainerServer]{
	engine.StringField("server_id", "The manager's `serverId` of the server.", func(s *apm.ContainerServer) string { return s.ServerID }),
	engine.StringField("server_name", "Name of the server, which is also its container's host name (the `hostName` of the container metrics).",
		func(s *apm.ContainerServer) string { return s.ServerName }),
	engine.StringField("container_ip", "IP address of the server's container.", func(s *apm.ContainerServer) string { return s.ContainerIP }),
	engine.Int64Field("http_port", "HTTP port of the server.", func(s *apm.ContainerServer) int64 { return s.HTTPPort }),
}

var newContainerServersDataSource = engine.NewListDataSource(listDataSourceType[apm.ContainerServer]{
	Name:            "container_servers",
	Description:     "Lists the WAS or web servers of the manager's container groups, with their container's address, sorted by server id.",
	ListName:        "servers",
	ListDescription: "The servers of the container groups.",
	Fields:          containerServerFields,
	Filters: map[string]dschema.Attribute{
		"kind": requiredString("Kind of server: `was` or `web`.", stringvalidator.OneOf(string(apm.KindWAS), string(apm.KindWeb))),
	},
	List: listContainerServers,
})

func listContainerServers(ctx context.Context, m *conn, config engine.Attrs) ([]apm.ContainerServer, error) {
	var (
		servers []apm.ContainerServer
		err     error
	)
	switch kind := apm.ServerKind(config.Str("kind")); kind {
	case apm.KindWAS:
		servers, err = m.ListWASContainerServers(ctx)
	case apm.KindWeb:
		servers, err = m.ListWebContainerServers(ctx)
	default:
		return nil, fmt.Errorf("containers have no %q servers (kind is was or web)", kind)
	}
	if err != nil {
		return nil, err
	}
	slices.SortFunc(servers, func(a, b apm.ContainerServer) int { return strings.Compare(a.ServerID, b.ServerID) })
	return servers, nil
}
