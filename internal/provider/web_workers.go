package provider

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64default"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// webWorker is one load-balancer worker, its WAS server named by the server's id.
type webWorker struct {
	WASServerID, Host string
	AJPPort, LBFactor int64
}

// The workers attribute, and the attributes of a worker.
const (
	webWorkersAttr = "workers"

	workerWASServer = "was_server_id"
	workerHost      = "host"
	workerAJPPort   = "ajp_port"
	workerLBFactor  = "lb_factor"
)

var webWorkerType = tftypes.Object{AttributeTypes: map[string]tftypes.Type{
	workerWASServer: tftypes.String, workerHost: tftypes.String, workerAJPPort: tftypes.Number, workerLBFactor: tftypes.Number,
}}

var webWorkerListType = tftypes.List{ElementType: webWorkerType}

var webWorkersFields = []engine.Field[webPart]{
	webPartIDField("worker list"),
	webServerRefField("worker list"),
	engine.CustomField(webWorkersAttr, rschema.ListNestedAttribute{
		MarkdownDescription: "The web server's load-balancer workers, all of them: a worker added outside Terraform shows in the next plan, and apply removes it. " +
			"The manager's order makes no difference; an empty list removes every worker. Updated in place.",
		Required: true,
		NestedObject: rschema.NestedAttributeObject{Attributes: map[string]rschema.Attribute{
			workerWASServer: rschema.StringAttribute{
				MarkdownDescription: "The `id` of the WAS server the worker forwards to, such as `apm_was_server.example.id` (`<system_id>/<node>/<server_id>`). " +
					"The WAS server cannot be deleted while it is a worker.",
				Required: true, Validators: []validator.String{serverRefValidator{kind: "was"}},
			},
			workerHost: rschema.StringAttribute{
				MarkdownDescription: "Host name or IP address the web server reaches the WAS server at. Defaults to the manager's choice, the address of the WAS server's node, " +
					"recorded when the worker is added (leaving it out later keeps the recorded value).",
				Optional: true, Computed: true,
				Validators: hostValidators(),
			},
			workerAJPPort: rschema.Int64Attribute{
				MarkdownDescription: "AJP port the web server forwards to, 1 to 65535. Defaults to the WAS server's `ajp_port` when the worker is added " +
					"(leaving it out later keeps the recorded value; set it to `apm_was_server.example.ajp_port` to follow the server).",
				Optional: true, Computed: true, Validators: portValidators(),
			},
			workerLBFactor: rschema.Int64Attribute{
				MarkdownDescription: "Load-balancing weight of the worker, 1 to 100. Defaults to `1`.",
				Optional:            true, Computed: true, Default: int64default.StaticInt64(1),
				Validators: []validator.Int64{int64validator.Between(1, 100)},
			},
		}},
		Validators:    []validator.List{uniqueWorkersValidator{}},
		PlanModifiers: []planmodifier.List{workersKeepRecordedDefaults{}},
	}, webWorkerListType, func(p *webPart) tftypes.Value { return webWorkersValue(p.Workers) }).
		ReportedWhen(func(p *webPart) bool { return p.workersReported }).
		Aligned(alignWorkers),
}

var webWorkersType = resourceType[webPart]{
	Noun:             "worker list",
	IdempotentCreate: true,
	Name:             "web_workers",
	Description: "The load-balancer workers of a web server: the WAS servers it forwards requests to over AJP. The list is authoritative: " +
		"creating it replaces whatever workers the web server has, a worker added outside Terraform shows in the next plan and apply removes it. " +
		"A web server has one such list; destroying it removes every worker.",
	Fields:   webWorkersFields,
	ImportID: webPartIdentity,
	Describe: func(a engine.Attrs) string { return "load-balancer workers of " + webPartServer(a) },
	Create:   setWebWorkers,
	Read:     readWebWorkers,
	Update:   func(ctx context.Context, m *conn, plan, _ engine.Attrs) error { return setWebWorkers(ctx, m, plan) },
	Delete: func(ctx context.Context, m *conn, state engine.Attrs) error {
		return onWebServer(ctx, m, state, func(ref apm.ServerRef) error { return m.SetWorkers(ctx, ref, nil) })
	},
}

// webWorkersValue is the workers as a value of the workers attribute.
func webWorkersValue(workers []webWorker) tftypes.Value {
	out := make([]tftypes.Value, 0, len(workers))
	for _, w := range workers {
		out = append(out, tftypes.NewValue(webWorkerType, map[string]tftypes.Value{
			workerWASServer: tftypes.NewValue(tftypes.String, w.WASServerID),
			workerHost:      tftypes.NewValue(tftypes.String, w.Host),
			workerAJPPort:   engine.Int64Value(w.AJPPort),
			workerLBFactor:  engine.Int64Value(w.LBFactor),
		}))
	}
	return tftypes.NewValue(webWorkerListType, out)
}

// alignWorkers orders the manager's workers after the prior list, matched by WAS server:
// the manager's order makes no diff. Workers that the prior list lacks go last, in the
// manager's order.
func alignWorkers(prior, fresh tftypes.Value) tftypes.Value {
	order := map[string]int{}
	for i, e := range listElements(prior) {
		if id, ok := engine.StringOf(objectAttrs(e)[workerWASServer]); ok {
			if _, dup := order[id]; !dup {
				order[id] = i
			}
		}
	}
	elems := listElements(fresh)
	if len(order) == 0 || len(elems) == 0 {
		return fresh
	}
	rank := make(map[int]int, len(elems))
	for i, e := range elems {
		rank[i] = len(order)
		if id, ok := engine.StringOf(objectAttrs(e)[workerWASServer]); ok {
			if at, ok := order[id]; ok {
				rank[i] = at
			}
		}
	}
	index := make([]int, len(elems))
	for i := range index {
		index[i] = i
	}
	slices.SortStableFunc(index, func(a, b int) int { return rank[a] - rank[b] })
	sorted := make([]tftypes.Value, len(elems))
	for i, at := range index {
		sorted[i] = elems[at]
	}
	return tftypes.NewValue(fresh.Type(), sorted)
}

// workersOf is the workers a plan or state declares: the values not known yet (a
// default the manager fills in) are zero.
func workersOf(a engine.Attrs) []webWorker {
	var out []webWorker
	for _, e := range listElements(a[webWorkersAttr]) {
		w := objectAttrs(e)
		out = append(out, webWorker{WASServerID: w.Str(workerWASServer), Host: w.Str(workerHost),
			AJPPort: w.Int64(workerAJPPort), LBFactor: w.Int64(workerLBFactor)})
	}
	return out
}

// setWebWorkers sends the plan's whole worker list. A value the plan leaves unknown (the
// user left it out and the worker is new) is left out of the request: the manager fills
// in its default, and the read back records it.
func setWebWorkers(ctx context.Context, m *conn, plan engine.Attrs) error {
	declared := workersOf(plan)
	workers := make([]apm.Worker, 0, len(declared))
	for _, w := range declared {
		err := m.onServerRef(ctx, apm.KindWAS, w.WASServerID, func(ref apm.ServerRef) error {
			workers = append(workers, apm.Worker{ServerID: ref.ServerID, NodeName: ref.NodeName, SystemName: ref.SystemName,
				Host: w.Host, AJPPort: w.AJPPort, LBFactor: w.LBFactor})
			return nil
		})
		if err != nil {
			return fmt.Errorf("worker %s: %w", w.WASServerID, err)
		}
	}
	return onWebServer(ctx, m, plan, func(ref apm.ServerRef) error {
		return missingWorkerError(m.SetWorkers(ctx, ref, workers), workers)
	})
}

// missingWorkerError explains the manager's 404 "WAS server not found: <id>" for a worker:
// the reference is wrong, not the endpoint (which the client's advice for a 404 that does
// not name the web server suspects).
func missingWorkerError(err error, workers []apm.Worker) error {
	var apiErr *apm.Error
	if !apm.HasStatus(err, 404) || apm.IsNotFound(err) || !errors.As(err, &apiErr) {
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
// manager that does not report workers leaves the applied list, whose defaults (unknown
// right after the write that let the manager choose them) are the manager's documented
// ones: the address of the WAS server's node and the WAS server's AJP port.
func readWebWorkers(ctx context.Context, m *conn, a engine.Attrs) (*webPart, error) {
	p, err := readWebPart(ctx, m, a)
	if err != nil {
		return nil, err
	}
	if !p.Reported.Workers {
		return p, m.fillWorkerDefaults(ctx, p, a[webWorkersAttr])
	}
	p.workersReported = true
	for _, w := range p.Server.Workers {
		id, err := m.serverID(ctx, w.SystemName, w.NodeName, w.ServerID)
		if err != nil {
			return nil, fmt.Errorf("worker %s on node %s of system %s: %w", w.ServerID, w.NodeName, w.SystemName, err)
		}
		p.Workers = append(p.Workers, webWorker{WASServerID: id, Host: w.Host, AJPPort: w.AJPPort, LBFactor: w.LBFactor})
	}
	return p, nil
}

// fillWorkerDefaults records the applied workers where the manager does not report any,
// with the defaults the plan left unknown looked up. Without an applied list (an import),
// nothing is known.
func (m *conn) fillWorkerDefaults(ctx context.Context, p *webPart, applied tftypes.Value) error {
	if applied.Type() == nil || !applied.IsKnown() || applied.IsNull() {
		return nil
	}
	for _, e := range listElements(applied) {
		w := objectAttrs(e)
		worker := webWorker{WASServerID: w.Str(workerWASServer), Host: w.Str(workerHost), AJPPort: w.Int64(workerAJPPort), LBFactor: w.Int64(workerLBFactor)}
		if !w.Known(workerHost) || !w.Known(workerAJPPort) {
			err := m.onServerRef(ctx, apm.KindWAS, worker.WASServerID, func(ref apm.ServerRef) error {
				if !w.Known(workerHost) {
					node, err := m.GetNode(ctx, ref.SystemName, ref.NodeName)
					if err != nil {
						return err
					}
					worker.Host = node.HostIP
				}
				if !w.Known(workerAJPPort) {
					was, err := m.GetServer(ctx, ref)
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
		if !w.Known(workerLBFactor) {
			worker.LBFactor = 1
		}
		p.Workers = append(p.Workers, worker)
	}
	p.workersReported = true
	return nil
}

// workersKeepRecordedDefaults plans the defaults the manager chose for a worker (host,
// AJP port), which the user left out, as recorded for the same WAS server, whatever its
// position in the list. The framework marks such values unknown on every change of the
// resource, and the common remedy, UseStateForUnknown, works by list index: a worker
// inserted before others would get its neighbour's values. A new worker's defaults stay
// unknown until the manager chooses them.
type workersKeepRecordedDefaults struct{}

func (workersKeepRecordedDefaults) Description(context.Context) string {
	return "A worker's host and AJP port, when left out, keep the values recorded for the same WAS server."
}

func (v workersKeepRecordedDefaults) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (workersKeepRecordedDefaults) PlanModifyList(ctx context.Context, req planmodifier.ListRequest, resp *planmodifier.ListResponse) {
	if req.PlanValue.IsNull() || req.PlanValue.IsUnknown() || req.StateValue.IsNull() || req.StateValue.IsUnknown() {
		return
	}
	planTF, err1 := req.PlanValue.ToTerraformValue(ctx)
	stateTF, err2 := req.StateValue.ToTerraformValue(ctx)
	configTF, err3 := req.ConfigValue.ToTerraformValue(ctx)
	if err := errors.Join(err1, err2, err3); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid workers", err.Error())
		return
	}
	recorded := map[string]engine.Attrs{}
	for _, e := range listElements(stateTF) {
		w := objectAttrs(e)
		if id, ok := engine.StringOf(w[workerWASServer]); ok {
			recorded[id] = w
		}
	}
	config := listElements(configTF)
	planned := listElements(planTF)
	changed := false
	for i, e := range planned {
		w := objectAttrs(e)
		id, ok := engine.StringOf(w[workerWASServer])
		prior, found := recorded[id]
		if !ok || !found || i >= len(config) {
			continue
		}
		cfg := objectAttrs(config[i])
		for _, name := range []string{workerHost, workerAJPPort} {
			if !w[name].IsKnown() && cfg[name].IsNull() && prior.Known(name) {
				w, changed = w.With(name, prior[name]), true
			}
		}
		planned[i] = tftypes.NewValue(webWorkerType, map[string]tftypes.Value(w))
	}
	if !changed {
		return
	}
	value, err := req.PlanValue.Type(ctx).ValueFromTerraform(ctx, tftypes.NewValue(planTF.Type(), planned))
	if err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid workers", err.Error())
		return
	}
	list, ok := value.(basetypes.ListValue)
	if !ok {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid workers", fmt.Sprintf("unexpected value type %T", value))
		return
	}
	resp.PlanValue = list
}

// uniqueWorkersValidator refuses a WAS server listed twice, which the manager refuses.
type uniqueWorkersValidator struct{}

func (uniqueWorkersValidator) Description(context.Context) string {
	return "each WAS server may be listed once"
}

func (v uniqueWorkersValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (uniqueWorkersValidator) ValidateList(ctx context.Context, req validator.ListRequest, resp *validator.ListResponse) {
	v, err := req.ConfigValue.ToTerraformValue(ctx)
	if err != nil {
		return
	}
	seen := map[string]int{}
	for i, e := range listElements(v) {
		id, ok := engine.StringOf(objectAttrs(e)[workerWASServer])
		if !ok {
			continue
		}
		if first, dup := seen[id]; dup {
			resp.Diagnostics.AddAttributeError(req.Path.AtListIndex(i).AtName(workerWASServer), "Duplicate worker", fmt.Sprintf(
				"WAS server %q is listed as workers[%d] and workers[%d]; a web server has one worker per WAS server. Remove one of them, or set lb_factor to weigh it.",
				id, first, i))
			continue
		}
		seen[id] = i
	}
}
