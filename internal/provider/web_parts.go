package provider

import (
	"context"
	"fmt"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// The parts of a web server: its load-balancer workers, its URI patterns and its SSL
// set-up. Each is a resource of its own that refers to its web server by the server's
// id (<system_id>/<node>/<server_id>), which a rename of the system leaves alone; a web
// server has at most one of each, so a part's id is its web server's id. The manager
// reports the workers and URIs in the web server's detail (assumption fields: a terse
// manager may leave them out, and then state keeps what was applied, api/decisions.md
// rule 2); it never echoes the SSL certificate or key.

// webPart is the detail of the web server whose id is ServerID, as the parts read it.
type webPart struct {
	ServerID string // <system_id>/<node>/<server_id>
	apm.Server
	// Workers are the manager's workers with their WAS servers' ids (or, when the manager
	// did not report them, what was applied).
	Workers []webWorker
	// workersReported is false when neither the manager nor the prior state tells the
	// workers: state keeps what it has.
	workersReported bool
}

// webServerRefField is the web_server_id of a part.
func webServerRefField(noun string) engine.Field[webPart] {
	return engine.StringField(attrWebServerID, fmt.Sprintf("The `id` of the web server, such as `apm_web_server.example.id` (`<system_id>/<node>/<server_id>`). "+
		"It stays the same when the system is renamed. Moving the %s to another web server replaces it.", noun),
		func(p *webPart) string { return p.ServerID }).Replacing().Validate(serverRefValidator("web"))
}

// webPartIDField is the id of a part: its web server's id.
func webPartIDField(noun string) engine.Field[webPart] {
	return engine.StringField(attrID, fmt.Sprintf("The web server's id, `<system_id>/<node>/<server_id>`: a web server has one %s.", noun),
		func(p *webPart) string { return p.ServerID })
}

// webPartImportID is the import ID of every part: the web server's.
var webPartImportID = importID{Parts: []idPart{serverRefPart(attrWebServerID)}, Example: "shop/web-01/web-1", Noun: "server"}

// webPartServer describes the web server of a part in diagnostics: `web server "web-1"
// on node "web-01"`.
func webPartServer(a engine.Attrs) string {
	nodeRef, serverID, _ := splitServerRef(a.Str(attrWebServerID))
	_, node, _ := splitNodeRef(nodeRef)
	return fmt.Sprintf("web server %q on node %q", serverID, node)
}

// onWebServer runs call with the reference of the part's web server.
func onWebServer(ctx context.Context, c *conn, a engine.Attrs, call func(apm.ServerRef) error) error {
	return c.onServerRef(ctx, apm.KindWeb, a.Str(attrWebServerID), call)
}

// readWebPart reads the detail of the part's web server. A web server that no longer
// exists is gone, and so is its part.
func readWebPart(ctx context.Context, c *conn, a engine.Attrs) (*webPart, error) {
	var srv *apm.Server
	err := onWebServer(ctx, c, a, func(ref apm.ServerRef) (err error) {
		srv, err = c.GetServer(ctx, ref)
		return err
	})
	if err != nil {
		return nil, err
	}
	return &webPart{ServerID: a.Str(attrWebServerID), Server: *srv}, nil
}

// webServerFilter is the argument of the data sources that list a part of one web server.
func webServerFilter(part string) map[string]dschema.Attribute {
	return map[string]dschema.Attribute{attrWebServerID: requiredString(fmt.Sprintf("The `id` of the web server whose %s to list, such as `apm_web_server.example.id` "+
		"or the `id` of an item of `apm_web_servers` (`<system_id>/<node>/<server_id>`).", part), serverRefValidator("web"))}
}

// webPartList is how the list of one part of a web server reads it: what the read finds
// (read), whether the manager reported it, whether the web server has it, and how
// diagnostics and the advice to import name it.
type webPartList struct {
	read              func(ctx context.Context, c *conn, a engine.Attrs) (*webPart, error)
	reported, present func(p *webPart) bool
	what, typeName    string
}

// list is the part of the web server whose id is serverID, as a list of at most one: one
// read of its detail.
func (l webPartList) list(ctx context.Context, c *conn, serverID string) ([]webPart, error) {
	a := engine.Attrs{attrWebServerID: tftypes.NewValue(tftypes.String, serverID)}
	p, err := l.read(ctx, c, a)
	if err != nil {
		return nil, err
	}
	if !l.reported(p) {
		return nil, notReportedError(webPartServer(a), l.what, l.typeName, serverID)
	}
	if !l.present(p) {
		return nil, nil
	}
	return []webPart{*p}, nil
}
