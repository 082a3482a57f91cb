package provider

import (
	"context"
	"fmt"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
)

// The parts of a WAS server: its session clustering, the datasources attached to it and
// the applications deployed on it. Each is a resource of its own, so that teams can split
// ownership (the platform team owns the server, an application team its deployments).
// Each refers to its server by the server's id, <system_id>/<node>/<server_id>, which a
// rename of the system leaves alone; the manager addresses them under the server's path.

// wasServerRefField is the was_server_id of a part: its server's id.
func wasServerRefField[T any](get func(*T) string) engine.Field[T] {
	return engine.StringField(attrWASServerID, "The `id` of the WAS server, such as `apm_was_server.example.id` (`<system_id>/<node>/<server_id>`). "+
		"It stays the same when the system is renamed.", get).
		Replacing().Validate(serverRefValidator("was"))
}

// wasPartServer describes the server of a part in diagnostics: `WAS server "was-1" on
// node "app-01"`.
func wasPartServer(a engine.Attrs) string { return wasServerNamed(a.Str(attrWASServerID)) }

// wasServerNamed describes the WAS server whose id is ref in diagnostics.
func wasServerNamed(ref string) string { return wasServerKind.named(ref) }

// getWASPartServer reads the detail of the WAS server whose id is serverRef.
func getWASPartServer(ctx context.Context, c *conn, serverRef string) (*apm.Server, error) {
	var srv *apm.Server
	err := c.onServerRef(ctx, apm.KindWAS, serverRef, func(ref apm.ServerRef) (err error) {
		srv, err = c.GetServer(ctx, ref)
		return err
	})
	return srv, err
}

// noUpdate is the update of a part whose every input replaces it: the engine calls it
// only for what it records without sending (timeouts).
func noUpdate(context.Context, *conn, engine.Attrs, engine.Attrs) error { return nil }

// wasServerFilter is the argument of the data sources that list a part of one WAS server.
func wasServerFilter(parts string) map[string]dschema.Attribute {
	return map[string]dschema.Attribute{attrWASServerID: requiredString(fmt.Sprintf("The `id` of the WAS server whose %s to list, such as `apm_was_server.example.id` "+
		"or the `id` of an item of `apm_was_servers` (`<system_id>/<node>/<server_id>`).", parts), serverRefValidator("was"))}
}

// notReportedError says that a server's detail leaves out the parts a data source lists
// (an assumption field that a real manager may not send, api/decisions.md): they cannot
// be listed, but an object whose ID is known can still be imported.
func notReportedError(server, parts, resourceType, example string) error {
	return fmt.Errorf("the manager's detail of %s does not report its %s (a field the interface leaves optional, api/decisions.md), "+
		"so they cannot be listed; import %s with the ID you know, such as %s", server, parts, resourceType, example)
}
