package provider

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/mapvalidator"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64default"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// webWorker is one load-balancer worker, its WAS server named by the server's id.
type webWorker struct {
	WASServerID, Host string
	AJPPort, LBFactor int64
}

var webWorkerType = tftypes.Object{AttributeTypes: map[string]tftypes.Type{
	attrHost: tftypes.String, attrAJPPort: tftypes.Number, attrLBFactor: tftypes.Number,
}}

var webWorkerMapType = tftypes.Map{ElementType: webWorkerType}

// The workers are a map keyed by their WAS server's id rather than a list or a set of
// objects: a worker is known by its WAS server, so the order they are written in means
// nothing (a list would plan an update for a reordering, and diff by position); a plan
// names the changed worker by its key, down to the attribute, where a set would show a
// changed worker as one object removed and another added; and the defaults the manager
// chose (host, AJP port) stay planned per WAS server with the framework's own plan
// modifier, which finds the prior value at the same key. A set would need a modifier of
// its own for that, and defaults inside set elements are unreliable in the framework. A
// WAS server cannot be a key twice.
var webWorkersFields = []engine.Field[webPart]{
	webPartIDField("worker map"),
	webServerRefField("worker map"),
	engine.CustomField(attrWorkers, rschema.MapNestedAttribute{
		MarkdownDescription: "The web server's load-balancer workers, all of them, keyed by the `id` of the WAS server each forwards to, " +
			"such as `(apm_was_server.example.id) = { lb_factor = 2 }` (`<system_id>/<node>/<server_id>`; the parentheses make the key an expression). " +
			"The order they are written in makes no difference, and a plan names the worker that changes. " +
			"A worker added outside Terraform shows in the next plan and apply removes it; one removed outside is added again. " +
			"An empty map removes every worker. A WAS server can be a key once: a `for` expression that yields it twice is an error, " +
			"but in a map written out, Terraform keeps the last of two equal keys without a word. " +
			"The WAS server cannot be deleted while it is a worker. Updated in place.",
		Required: true,
		NestedObject: rschema.NestedAttributeObject{Attributes: map[string]rschema.Attribute{
			attrHost: rschema.StringAttribute{
				MarkdownDescription: "Host name or IP address the web server reaches the WAS server at. Defaults to the manager's choice, the address of the WAS server's node, " +
					"recorded when the worker is added (leaving it out later keeps the recorded value).",
				Optional: true, Computed: true,
				Validators:    hostValidators(),
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseNonNullStateForUnknown()},
			},
			attrAJPPort: rschema.Int64Attribute{
				MarkdownDescription: "AJP port the web server forwards to, 1 to 65535. Defaults to the WAS server's `ajp_port` when the worker is added " +
					"(leaving it out later keeps the recorded value; set it to `apm_was_server.example.ajp_port` to follow the server). " +
					"A worker on a WAS server without an AJP port needs it: plan refuses the worker otherwise.",
				Optional: true, Computed: true, Validators: portValidators(),
				PlanModifiers: []planmodifier.Int64{int64planmodifier.UseNonNullStateForUnknown()},
			},
			attrLBFactor: rschema.Int64Attribute{
				MarkdownDescription: "Load-balancing weight of the worker, 1 to 100. Defaults to `1`.",
				Optional:            true, Computed: true, Default: int64default.StaticInt64(1),
				Validators: []validator.Int64{int64validator.Between(1, 100)},
			},
		}},
		Validators: []validator.Map{mapvalidator.KeysAre(serverRefValidator("was"))},
	}, webWorkerMapType, func(p *webPart) tftypes.Value { return webWorkersValue(p.Workers) }).
		ReportedWhen(func(p *webPart) bool { return p.workersReported }).WithDataAttribute(webWorkersDataAttribute),
}

var webWorkersType = resourceType[webPart]{
	Noun:             "worker map",
	IdempotentCreate: true,
	Name:             "web_workers",
	Description: "The load-balancer workers of a web server: the WAS servers it forwards requests to over AJP, keyed by the WAS server's `id`. " +
		"A map rather than a list: a worker is known by its WAS server, so reordering the workers in the configuration changes nothing, " +
		"a plan shows the worker that changes by its WAS server's id, and the host and AJP port the manager chose stay recorded per WAS server. " +
		"The map is authoritative: creating it replaces whatever workers the web server has, a worker added outside Terraform shows in the next plan and apply removes it. " +
		"A web server has one such map; destroying it removes every worker.",
	Fields:        webWorkersFields,
	SchemaVersion: webWorkersSchemaVersion,
	UpgradeState:  webWorkersUpgraders,
	References:    []reference{refersTo(attrWebServerID, webServerParent)},
	ImportID:      webPartImportID,
	CheckPlan:     checkWorkerServers,
	Describe:      func(a engine.Attrs) string { return "load-balancer workers of " + webPartServer(a) },
	Create:        setWebWorkers,
	Read:          readWebWorkers,
	Update:        func(ctx context.Context, c *conn, plan, _ engine.Attrs) error { return setWebWorkers(ctx, c, plan) },
	Delete: func(ctx context.Context, c *conn, state engine.Attrs) error {
		return onWebServer(ctx, c, state, func(ref apm.ServerRef) error {
			defer c.balancers.lock(ref)()
			return c.SetWorkers(ctx, ref, nil)
		})
	},
}

// checkWorkerServers fails the plan of a new worker whose WAS server neither this
// configuration declares nor the manager has, or has no AJP port where the worker gives
// none (the manager takes the server's, and refuses a worker without one): the PUT of the
// workers would fail at apply, after the objects it depends on were written. A worker the
// state has was accepted with its server, which cannot be deleted while it is a worker.
// At most one GET per new worker, none for a server planned in this run with a known AJP
// port.
func checkWorkerServers(ctx context.Context, c *conn, plan, prior engine.Attrs, diags *diag.Diagnostics) {
	kept := mapElements(prior[attrWorkers])
	declared := mapElements(plan[attrWorkers])
	for _, id := range slices.Sorted(maps.Keys(declared)) {
		if _, ok := kept[id]; ok {
			continue
		}
		worker := objectAttrs(declared[id])
		server, planned := engine.PlannedObject(ctx, "apm_was_server", id)
		if planned && (worker.Known(attrAJPPort) || server.Known(attrAJPPort)) {
			continue
		}
		if engine.LookupsSkipped(ctx) {
			continue
		}
		at := path.Root(attrWorkers).AtMapKey(id)
		var was *apm.Server
		err := c.onServerRef(ctx, apm.KindWAS, id, func(ref apm.ServerRef) (err error) {
			was, err = c.GetServer(ctx, ref)
			return err
		})
		switch {
		case err == nil:
			if was.AJPPort == 0 && !worker.Known(attrAJPPort) {
				diags.AddAttributeError(at, "WAS server without an AJP port", fmt.Sprintf(
					"The worker %q forwards to WAS server %q on node %q of system %q over AJP, but that server has no AJP port and the worker sets no ajp_port: "+
						"the manager would refuse the worker. Give the WAS server an ajp_port (in its apm_was_server), or set ajp_port in this worker.",
					id, was.ServerID, was.NodeName, was.SystemName))
			}
		case planned && engine.GoneWithParent(err):
			// Created in this run, with the AJP port the manager gives it.
		case engine.GoneWithParent(err):
			diags.AddAttributeError(at, "Unknown WAS server", fmt.Sprintf(
				"The worker %q names a WAS server that the manager does not have (%v), and this configuration declares none that the workers refer to. "+
					"Declare the WAS server in this configuration and key the worker by its id, as in (apm_was_server.example.id) = {}, "+
					"which also makes Terraform create the server before the workers (a literal key does not); or correct the key, "+
					"<system_id>/<node>/<server_id> (the data source apm_was_servers lists the manager's WAS servers).", id, err))
		default:
			diags.AddAttributeWarning(at, "Could not check the WAS server of worker "+id,
				engine.Explain(err)+"\n\nApply sends the workers all the same; should the WAS server not exist, it fails naming it.")
		}
	}
}

// webWorkersValue is the workers as a value of the workers attribute.
func webWorkersValue(workers []webWorker) tftypes.Value {
	out := make(map[string]tftypes.Value, len(workers))
	for _, w := range workers {
		out[w.WASServerID] = tftypes.NewValue(webWorkerType, map[string]tftypes.Value{
			attrHost:     tftypes.NewValue(tftypes.String, w.Host),
			attrAJPPort:  engine.Int64Value(w.AJPPort),
			attrLBFactor: engine.Int64Value(w.LBFactor),
		})
	}
	return tftypes.NewValue(webWorkerMapType, out)
}

// workersOf is the workers a plan or state declares, by WAS server id: the values not
// known yet (a default the manager fills in) are zero.
func workersOf(a engine.Attrs) []webWorker {
	elems := mapElements(a[attrWorkers])
	out := make([]webWorker, 0, len(elems))
	for _, id := range slices.Sorted(maps.Keys(elems)) {
		w := objectAttrs(elems[id])
		out = append(out, webWorker{WASServerID: id, Host: w.Str(attrHost), AJPPort: w.Int64(attrAJPPort), LBFactor: w.Int64(attrLBFactor)})
	}
	return out
}

// setWebWorkers sends the plan's whole worker map, in the order of the WAS servers' ids.
// A value the plan leaves unknown (the user left it out and the worker is new) is left
// out of the request: the manager fills in its default, and the read back records it.
func setWebWorkers(ctx context.Context, c *conn, plan engine.Attrs) error {
	declared := workersOf(plan)
	workers := make([]apm.Worker, 0, len(declared))
	for _, w := range declared {
		err := c.onServerRef(ctx, apm.KindWAS, w.WASServerID, func(ref apm.ServerRef) error {
			workers = append(workers, apm.Worker{ServerID: ref.ServerID, NodeName: ref.NodeName, SystemName: ref.SystemName,
				Host: w.Host, AJPPort: w.AJPPort, LBFactor: w.LBFactor})
			return nil
		})
		if err != nil {
			return fmt.Errorf("worker %s: %w", w.WASServerID, err)
		}
	}
	return onWebServer(ctx, c, plan, func(ref apm.ServerRef) error {
		defer c.balancers.lock(ref)()
		return missingWorkerError(c.SetWorkers(ctx, ref, workers), workers)
	})
}

// missingWorkerError explains the manager's 404 "WAS server not found: <id>" for a worker:
// the reference is wrong, not the endpoint (which the client's advice for a 404 that does
// not name the web server suspects).
func missingWorkerError(err error, workers []apm.Worker) error {
	var apiErr *apm.Error
	if !apm.IsNotFoundAnswer(err) || apm.IsNotFound(err) || !errors.As(err, &apiErr) {
		return err
	}
	for _, w := range workers {
		if strings.HasSuffix(strings.TrimSpace(apiErr.Message), "not found: "+w.ServerID) {
			return fmt.Errorf("%s %s: the manager has no WAS server %q on node %q of system %q to use as a worker (%s): %w",
				apiErr.Method, apiErr.Path, w.ServerID, w.NodeName, w.SystemName, apiErr.Message, engine.ErrGone)
		}
	}
	return err
}

// readWebWorkers reads the web server's workers, naming each WAS server by its id. A
// manager that does not report workers leaves the applied map, whose defaults (unknown
// right after the write that let the manager choose them) are the manager's documented
// ones: the address of the WAS server's node and the WAS server's AJP port.
func readWebWorkers(ctx context.Context, c *conn, a engine.Attrs) (*webPart, error) {
	p, err := readWebPart(ctx, c, a)
	if err != nil {
		return nil, err
	}
	if !p.Reported.Workers {
		return p, c.fillWorkerDefaults(ctx, p, a[attrWorkers])
	}
	p.workersReported = true
	for _, w := range p.Server.Workers {
		id, err := c.serverID(ctx, w.SystemName, w.NodeName, w.ServerID)
		if err != nil {
			return nil, fmt.Errorf("worker %s on node %s of system %s: %w", w.ServerID, w.NodeName, w.SystemName, err)
		}
		p.Workers = append(p.Workers, webWorker{WASServerID: id, Host: w.Host, AJPPort: w.AJPPort, LBFactor: w.LBFactor})
	}
	return p, nil
}

// fillWorkerDefaults records the applied workers where the manager does not report any,
// with the defaults the plan left unknown looked up. Without an applied map (an import),
// nothing is known.
func (c *conn) fillWorkerDefaults(ctx context.Context, p *webPart, applied tftypes.Value) error {
	if applied.Type() == nil || !applied.IsKnown() || applied.IsNull() {
		return nil
	}
	elems := mapElements(applied)
	for _, id := range slices.Sorted(maps.Keys(elems)) {
		w := objectAttrs(elems[id])
		worker := webWorker{WASServerID: id, Host: w.Str(attrHost), AJPPort: w.Int64(attrAJPPort), LBFactor: w.Int64(attrLBFactor)}
		if !w.Known(attrHost) || !w.Known(attrAJPPort) {
			err := c.onServerRef(ctx, apm.KindWAS, worker.WASServerID, func(ref apm.ServerRef) error {
				if !w.Known(attrHost) {
					node, err := c.GetNode(ctx, ref.SystemName, ref.NodeName)
					if err != nil {
						return err
					}
					worker.Host = node.HostIP
				}
				if !w.Known(attrAJPPort) {
					was, err := c.GetServer(ctx, ref)
					if err != nil {
						return err
					}
					worker.AJPPort = was.AJPPort
				}
				return nil
			})
			if err != nil {
				return fmt.Errorf("looking up the defaults of worker %s: %w", worker.WASServerID, err)
			}
		}
		if !w.Known(attrLBFactor) {
			worker.LBFactor = 1
		}
		p.Workers = append(p.Workers, worker)
	}
	p.workersReported = true
	return nil
}

// webWorkersDataAttribute is the workers attribute of the items of apm_web_workers.
var webWorkersDataAttribute = dschema.MapNestedAttribute{
	MarkdownDescription: "The web server's load-balancer workers, keyed by the `id` of the WAS server each forwards to (`<system_id>/<node>/<server_id>`).",
	Computed:            true,
	NestedObject: dschema.NestedAttributeObject{Attributes: map[string]dschema.Attribute{
		attrHost:     dschema.StringAttribute{MarkdownDescription: "Host name or IP address the web server reaches the WAS server at.", Computed: true},
		attrAJPPort:  dschema.Int64Attribute{MarkdownDescription: "AJP port the web server forwards to.", Computed: true},
		attrLBFactor: dschema.Int64Attribute{MarkdownDescription: "Load-balancing weight of the worker.", Computed: true},
	}},
}

// webWorkersList lists the worker map of a web server: one when it has workers.
var webWorkersList = webPartList{
	read:     readWebWorkers,
	reported: func(p *webPart) bool { return p.workersReported },
	present:  func(p *webPart) bool { return len(p.Workers) > 0 },
	what:     "load-balancer workers", typeName: "apm_web_workers",
}

var newWebWorkersDataSource = engine.NewListDataSource(listDataSourceType[webPart]{
	Name: "web_workers",
	Description: "Lists the load-balancer workers of one web server as the worker map that `apm_web_workers` manages, with the ID to import it: " +
		"one item when the web server has workers, none when it has not.",
	ListName:        "worker_maps",
	ListDescription: "The web server's worker map: at most one.",
	Fields:          webWorkersFields,
	Filters:         webServerFilter("load-balancer workers"),
	List: func(ctx context.Context, c *conn, config engine.Attrs) ([]webPart, error) {
		return webWorkersList.list(ctx, c, config.Str(attrWebServerID))
	},
	Imports: webWorkersType.Target(),
})
