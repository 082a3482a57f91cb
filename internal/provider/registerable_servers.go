package provider

import (
	"context"
	"slices"
	"strings"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
)

// registerableObject is a registerable server with the id of its system, which the
// manager's list lacks.
type registerableObject struct {
	apm.RegisterableServer
	SystemID string
}

var registerableFields = []engine.Field[registerableObject]{
	engine.StringField(attrServerID, "The manager's `serverId` of the server: `server_id` of the `apm_<kind>_server` that registers it.",
		func(s *registerableObject) string { return s.ServerID }),
	engine.StringField(attrNodeID, "The `id` of the server's node (`<system_id>/<node>`), as `node_id` of the `apm_<kind>_server` that registers it takes it.",
		func(s *registerableObject) string { return s.SystemID + "/" + s.NodeName }),
	engine.StringField("server_ip", "IP address of the server (WAS and web servers; null for session servers).",
		func(s *registerableObject) string { return s.ServerIP }).ZeroIsNull(),
	engine.StringField(attrServerType, "Edition of a WAS server: `Standard` or `Enterprise` (null for the other kinds).",
		func(s *registerableObject) string { return string(s.Edition) }).ZeroIsNull(),
	engine.Int64Field(attrHTTPPort, "HTTP port of the server (WAS and web servers; null for session servers).",
		func(s *registerableObject) int64 { return s.HTTPPort }).ZeroIsNull(),
	engine.Int64Field(attrAJPPort, "AJP port of a WAS server (null for the other kinds, or when it has none).",
		func(s *registerableObject) int64 { return s.AJPPort }).ZeroIsNull(),
	engine.Int64Field(attrHTTPSPort, "HTTPS port of a web server (null for the other kinds, or when it has none).",
		func(s *registerableObject) int64 { return s.HTTPSPort }).ZeroIsNull(),
	engine.StringField("server_home", "Directory a session server is installed in (null for the other kinds).",
		func(s *registerableObject) string { return s.ServerHome }).ZeroIsNull(),
	engine.StringField(attrStatus, "Status of a session server as the node reports it, such as `available` (null for the other kinds).",
		func(s *registerableObject) string { return s.Status }).ZeroIsNull(),
}

var newRegisterableServersDataSource = engine.NewListDataSource(listDataSourceType[registerableObject]{
	Name: "registerable_servers",
	Description: "Lists the servers of one kind that a node has but the manager does not manage yet, sorted by server id: " +
		"the candidates of `apm_was_server`, `apm_web_server` or `apm_session_server` with `mode = \"register\"`. " +
		"Registering a server takes it off this list (and deregistering puts it back), so a `for_each` over the list alone " +
		"would deregister in the next plan what it registered: see the example. Naming a system or node that does not exist is an error.",
	ListName:        "servers",
	ListDescription: "The registerable servers. Each kind reports only some of the attributes; the others are null.",
	Fields:          registerableFields,
	Filters: map[string]dschema.Attribute{
		attrKind:       requiredString("Kind of server: `was`, `web` or `session`.", stringvalidator.OneOf(serverKindNames()...)),
		attrSystemName: requiredString("Name of the node's system.", systemNameValidators()...),
		attrNodeName:   requiredString("Name of the node.", nodeNameValidators()...),
	},
	List: listRegisterableServers,
})

// listRegisterableServers reads the node's list (one GET), and the system's id where the
// provider has not seen it yet (one more).
func listRegisterableServers(ctx context.Context, c *conn, config engine.Attrs) ([]registerableObject, error) {
	kind, systemName, nodeName := apm.ServerKind(config.Str(attrKind)), config.Str(attrSystemName), config.Str(attrNodeName)
	systemID, err := c.systemID(ctx, systemName)
	if err != nil {
		return nil, err
	}
	servers, err := c.ListRegisterableServers(ctx, kind, systemName, nodeName)
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
