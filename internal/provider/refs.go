package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// serverIdentity is <system>/<node>/<server_id>, the system by name or id.
var serverNodePart = idPart{
	Attr: attrNodeID, Form: "<system>/<node>", Pieces: 2, Accepts: "the system's name or id",
	Resolve: func(ctx context.Context, c *conn, ref string) (string, error) {
		return c.resolveUnderSystem(ctx, ref)
	},
}

// splitNodeRef splits a node's id <system_id>/<node>.
func splitNodeRef(ref string) (systemID, node string, ok bool) {
	systemID, node, ok = strings.Cut(ref, "/")
	return systemID, node, ok && systemID != "" && node != "" && !strings.Contains(node, "/")
}

// onNodeRef runs call with the current system name and the node name of a node id.
func (c *conn) onNodeRef(ctx context.Context, ref string, call func(systemName, nodeName string) error) error {
	systemID, node, ok := splitNodeRef(ref)
	if !ok {
		return fmt.Errorf("%q is not a node id (<system_id>/<node>, such as apm_node.example.id)", ref)
	}
	return c.onSystem(ctx, systemID, func(systemName string) error { return call(systemName, node) })
}

// resolveUnderSystem resolves the system (name or id) that starts an import ID part
// such as <system>/<node>, and keeps the rest.
func (c *conn) resolveUnderSystem(ctx context.Context, ref string) (string, error) {
	system, rest, _ := strings.Cut(ref, "/")
	id, err := c.resolveSystem(ctx, system)
	if err != nil {
		return "", err
	}
	return id + "/" + rest, nil
}

// nodeRefValidator checks the shape of a node id, so that a node's name or its node_id
// (the manager's nodeId) fails at plan with the way out.
func nodeRefValidator() validator.String {
	return engine.StringCheck("must be a node's id, <system_id>/<node>", func(attr path.Path, raw string) (string, string) {
		if _, _, ok := splitNodeRef(raw); ok {
			return "", ""
		}
		return "Invalid node reference", fmt.Sprintf(
			"%s must be the id of a node, <system_id>/<node>, such as apm_node.example.id; got %q. "+
				"(apm_node's node_id attribute is the manager's nodeId, which is not it.)", attr, raw)
	})
}

// serverRefPart is the import ID part of a reference to a server, <system>/<node>/<server_id>,
// stored in attr as the server's id (<system_id>/<node>/<server_id>).
func serverRefPart(attr string) idPart {
	return idPart{
		Attr: attr, Form: "<system>/<node>/<server_id>", Pieces: 3, Accepts: "the system's name or id",
		Resolve: func(ctx context.Context, c *conn, ref string) (string, error) {
			return c.resolveUnderSystem(ctx, ref)
		},
	}
}

// splitServerRef splits a server's id <system_id>/<node>/<server_id>.
func splitServerRef(ref string) (nodeRef, serverID string, ok bool) {
	i := strings.LastIndex(ref, "/")
	if i < 0 {
		return "", "", false
	}
	nodeRef, serverID = ref[:i], ref[i+1:]
	_, _, ok = splitNodeRef(nodeRef)
	return nodeRef, serverID, ok && serverID != ""
}

// onServerRef runs call with the reference of the server of kind whose id is ref
// (<system_id>/<node>/<server_id>), under the system's current name.
func (c *conn) onServerRef(ctx context.Context, kind apm.ServerKind, ref string, call func(apm.ServerRef) error) error {
	nodeRef, serverID, ok := splitServerRef(ref)
	if !ok {
		return fmt.Errorf("%q is not a server id (<system_id>/<node>/<server_id>, such as apm_%s_server.example.id)", ref, kind)
	}
	return c.onNodeRef(ctx, nodeRef, func(systemName, nodeName string) error {
		return call(apm.ServerRef{Kind: kind, ServerID: serverID, NodeName: nodeName, SystemName: systemName})
	})
}

// serverID is the id (<system_id>/<node>/<server_id>) of the server that the manager
// names by its system's name, as a web server's workers do.
func (c *conn) serverID(ctx context.Context, systemName, nodeName, serverID string) (string, error) {
	id, err := c.systemID(ctx, systemName)
	if err != nil {
		return "", err
	}
	return id + "/" + nodeName + "/" + serverID, nil
}

// systemID is the id of the system with the given name: from the directory, else from
// one read of the system.
func (c *conn) systemID(ctx context.Context, name string) (string, error) {
	if id, ok := c.systems.idOf(name); ok {
		return id, nil
	}
	s, err := c.getSystem(ctx, name)
	if err != nil {
		return "", err
	}
	return s.SystemID, nil
}

// serverRefValidator checks the shape of a server id, so that a server_id (the
// manager's serverId) given where the server's id belongs fails at plan.
func serverRefValidator(kind string) validator.String {
	return engine.StringCheck(fmt.Sprintf("must be the id of an apm_%s_server, <system_id>/<node>/<server_id>", kind), func(attr path.Path, raw string) (string, string) {
		if _, _, ok := splitServerRef(raw); ok {
			return "", ""
		}
		return "Invalid server reference", fmt.Sprintf(
			"%s must be the id of a server, <system_id>/<node>/<server_id>, such as apm_%s_server.example.id; got %q. "+
				"(The server_id attribute of apm_%s_server is the manager's serverId, which is not it.)", attr, kind, raw, kind)
	})
}

// systemRefValidator refuses, at validate, a node's id (<system_id>/<node>) where a
// system's id goes: a system id has no "/", and the plan-time look-up would only say
// that no system has it.
func systemRefValidator() validator.String {
	const rule = "must be a system's id, such as apm_system.example.id"
	return engine.StringCheck(rule, func(attr path.Path, raw string) (string, string) {
		if !strings.Contains(raw, "/") {
			return "", ""
		}
		return "Invalid system reference", fmt.Sprintf(
			"Attribute %s %s, got: %q, which has the form of a node's id (<system_id>/<node>). Refer to the system, as in apm_system.example.id.", attr, rule, raw)
	})
}
