package provider

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64default"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
)

// The parts of a web server: its load-balancer workers, its URI patterns and its SSL
// set-up. Each is a resource of its own that refers to its web server by the server's
// id (<system_id>/<node>/<server_id>), which a rename of the system leaves alone; a web
// server has at most one of each, so a part's id is its web server's id. The manager
// reports the workers and URIs in the web server's detail (assumption fields: a terse
// manager may leave them out, and then state keeps what was applied, api/decisions.md
// rule 2); it never echoes the SSL certificate or key.

func webPartResources() []func() resource.Resource {
	return []func() resource.Resource{
		engine.NewResource(webWorkersType),
		engine.NewResource(webURIPatternsType),
		engine.NewResource(webSSLType),
	}
}

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

// webWorker is one load-balancer worker, its WAS server named by the server's id.
type webWorker struct {
	WASServerID, Host string
	AJPPort, LBFactor int64
}

// webServerRefField is the web_server_id of a part.
func webServerRefField(noun string) engine.Field[webPart] {
	return engine.StringField("web_server_id", fmt.Sprintf("The `id` of the web server, such as `apm_web_server.example.id` (`<system_id>/<node>/<server_id>`). "+
		"It stays the same when the system is renamed. Moving the %s to another web server replaces it.", noun),
		func(p *webPart) string { return p.ServerID }).In(engine.InResource).Replacing().Validate(serverRefValidator{kind: "web"})
}

// webPartIDField is the id of a part: its web server's id.
func webPartIDField(noun string) engine.Field[webPart] {
	return engine.StringField("id", fmt.Sprintf("The web server's id, `<system_id>/<node>/<server_id>`: a web server has one %s.", noun),
		func(p *webPart) string { return p.ServerID }).In(engine.InResource)
}

// webPartIdentity is the import ID of every part: the web server's.
var webPartIdentity = importID{Parts: []idPart{serverRefPart("web_server_id")}, Example: "shop/web-01/web-1"}

// webPartServer describes the web server of a part in diagnostics: `web server "web-1"
// on node "web-01"`.
func webPartServer(a engine.Attrs) string {
	nodeRef, serverID, _ := splitServerRef(a.Str("web_server_id"))
	_, node, _ := splitNodeRef(nodeRef)
	return fmt.Sprintf("web server %q on node %q", serverID, node)
}

// onWebServer runs call with the reference of the part's web server.
func onWebServer(ctx context.Context, m *conn, a engine.Attrs, call func(apm.ServerRef) error) error {
	return m.onServerRef(ctx, apm.KindWeb, a.Str("web_server_id"), call)
}

// readWebPart reads the detail of the part's web server. A web server that no longer
// exists is gone, and so is its part.
func readWebPart(ctx context.Context, m *conn, a engine.Attrs) (*webPart, error) {
	var srv *apm.Server
	err := onWebServer(ctx, m, a, func(ref apm.ServerRef) (err error) {
		srv, err = m.GetServer(ctx, ref)
		return err
	})
	if err != nil {
		return nil, err
	}
	return &webPart{ServerID: a.Str("web_server_id"), Server: *srv}, nil
}

// ---- load-balancer workers ----

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

// listElements splits a list or set value into its elements; nil when it is null or
// unknown.
func listElements(v tftypes.Value) []tftypes.Value {
	if v.Type() == nil || !v.IsKnown() || v.IsNull() {
		return nil
	}
	var elems []tftypes.Value
	if err := v.As(&elems); err != nil {
		return nil
	}
	return elems
}

// objectAttrs splits an object value into its attributes.
func objectAttrs(v tftypes.Value) engine.Attrs {
	a, err := engine.AttrsOf(v)
	if err != nil {
		return engine.Attrs{}
	}
	return a
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

// ---- URI patterns ----

const webURIPatternsAttr = "patterns"

var stringSetType = tftypes.Set{ElementType: tftypes.String}

var webURIPatternsFields = []engine.Field[webPart]{
	webPartIDField("set of URI patterns"),
	webServerRefField("URI patterns"),
	engine.CustomField(webURIPatternsAttr, rschema.SetAttribute{
		MarkdownDescription: "The URI patterns the web server routes to its workers, such as `/api/*`, all of them: each starts with `/` and has no white space. " +
			"A pattern added outside Terraform shows in the next plan and apply removes it; one removed outside is added again. " +
			"Apply sends only the patterns added and removed. Updated in place.",
		ElementType: types.StringType, Required: true,
		Validators: []validator.Set{setvalidator.ValueStringsAre(
			stringvalidator.RegexMatches(regexp.MustCompile(`^/\S*$`), "must start with / and contain no white space"))},
	}, stringSetType, func(p *webPart) tftypes.Value { return stringSetValue(p.URIs) }).
		ReportedWhen(func(p *webPart) bool { return p.Reported.URIs }),
}

var webURIPatternsType = resourceType[webPart]{
	Noun:             "URI pattern set",
	IdempotentCreate: true,
	Name:             "web_uri_patterns",
	Description: "The URI patterns of a web server, such as `/api/*`: the requests it forwards to its load-balancer workers. The set is authoritative: " +
		"creating it removes the patterns the web server has beyond it, a pattern added outside Terraform shows in the next plan and apply removes it. " +
		"A web server has one such set; destroying it removes its patterns.",
	Fields:   webURIPatternsFields,
	ImportID: webPartIdentity,
	Describe: func(a engine.Attrs) string { return "URI patterns of " + webPartServer(a) },
	Create:   createWebURIPatterns,
	Read:     readWebPart,
	Update: func(ctx context.Context, m *conn, plan, state engine.Attrs) error {
		return changeWebURIPatterns(ctx, m, plan, stringsOf(state[webURIPatternsAttr]), stringsOf(plan[webURIPatternsAttr]))
	},
	Delete: func(ctx context.Context, m *conn, state engine.Attrs) error {
		return changeWebURIPatterns(ctx, m, state, stringsOf(state[webURIPatternsAttr]), nil)
	},
}

func stringSetValue(items []string) tftypes.Value {
	out := make([]tftypes.Value, 0, len(items))
	for _, s := range items {
		out = append(out, tftypes.NewValue(tftypes.String, s))
	}
	return tftypes.NewValue(stringSetType, out)
}

// stringsOf is the known strings of a set or list value.
func stringsOf(v tftypes.Value) []string {
	var out []string
	for _, e := range listElements(v) {
		if s, ok := engine.StringOf(e); ok {
			out = append(out, s)
		}
	}
	return out
}

// createWebURIPatterns makes the web server's patterns the plan's: those it has beyond
// them are removed. A manager that does not report its patterns gets the plan's added.
func createWebURIPatterns(ctx context.Context, m *conn, plan engine.Attrs) error {
	p, err := readWebPart(ctx, m, plan)
	if err != nil {
		return err
	}
	var have []string
	if p.Reported.URIs {
		have = p.URIs
	}
	return changeWebURIPatterns(ctx, m, plan, have, stringsOf(plan[webURIPatternsAttr]))
}

// changeWebURIPatterns sends what turns the patterns have into want: one request with
// the additions and one with the removals, each only when there are some.
func changeWebURIPatterns(ctx context.Context, m *conn, a engine.Attrs, have, want []string) error {
	var add, remove []string
	for _, u := range want {
		if !slices.Contains(have, u) {
			add = append(add, u)
		}
	}
	for _, u := range have {
		if !slices.Contains(want, u) {
			remove = append(remove, u)
		}
	}
	slices.Sort(add)
	slices.Sort(remove)
	return onWebServer(ctx, m, a, func(ref apm.ServerRef) error {
		if len(add) > 0 {
			if err := m.AddURIs(ctx, ref, add); err != nil {
				return err
			}
		}
		if len(remove) > 0 {
			return m.DeleteURIs(ctx, ref, remove)
		}
		return nil
	})
}

// ---- SSL ----

// webSSLKey is the SSL set-up's private key, a secret input.
var webSSLKey = engine.Secret{
	Name: "private_key_pem", What: "the certificate's private key, PEM-encoded (`-----BEGIN PRIVATE KEY-----`)",
	Change: "Sent again with the certificate.", Rules: []validator.String{pemValidator{kind: "PRIVATE KEY"}},
}

var webSSLFields = append([]engine.Field[webPart]{
	webPartIDField("SSL set-up"),
	webServerRefField("SSL set-up"),
	engine.Int64Field("https_port", "HTTPS port the web server serves on, 1 to 65535. The web server's own `https_port` is this port too: "+
		"set both to the same value (or this one to `apm_web_server.example.https_port`), or the two resources undo each other's change.",
		func(p *webPart) int64 { return p.HTTPSPort }).In(engine.InResource).Input().ValidateInt64(portValidators()...),
	engine.InputField[webPart]("certificate_pem", "The server certificate, PEM-encoded (`-----BEGIN CERTIFICATE-----`), for example `file(\"server.crt\")`. "+
		"The manager does not report it: state keeps what was applied.", tftypes.String).Validate(pemValidator{kind: "CERTIFICATE"}),
	engine.InputField[webPart]("ca_chain_pem", "The certificates of the chain above the server certificate, PEM-encoded, one after the other. "+
		"The manager does not report it: state keeps what was applied.", tftypes.String).OptionalInput().Validate(pemValidator{kind: "CERTIFICATE"}),
}, engine.SecretFields[webPart](webSSLKey)...)

// webSSLDeleteWarning is said on every destroy of an apm_web_ssl.
const webSSLDeleteWarning = "The manager has no operation that turns SSL off, so destroying apm_web_ssl only removes it from the Terraform state: " +
	"the web server keeps serving HTTPS on its port, with the certificate last applied, until SSL is configured again " +
	"or the web server is deregistered or uninstalled."

var webSSLType = resourceType[webPart]{
	Noun:             "SSL set-up",
	IdempotentCreate: true,
	Name:             "web_ssl",
	Description: "The SSL set-up of a web server: its HTTPS port, certificate and private key. Every change is applied in place by sending the set-up again. " +
		"The manager never reports the certificate or the key, so state keeps what was applied; give the key as the write-only `private_key_pem_wo` " +
		"where the CLI supports it (Terraform 1.11 or later, OpenTofu), which keeps it out of plan and state. " +
		"The manager cannot turn SSL off: destroying this resource only removes it from the state.",
	Fields:     webSSLFields,
	ImportID:   webPartIdentity,
	Describe:   func(a engine.Attrs) string { return "SSL set-up of " + webPartServer(a) },
	Validators: webSSLKey.Validators(),
	Create:     configureWebSSL,
	Read:       readWebSSL,
	Update: func(ctx context.Context, m *conn, plan, _ engine.Attrs) error {
		return configureWebSSL(ctx, m, plan)
	},
	Delete:        func(context.Context, *conn, engine.Attrs) error { return nil },
	DeleteWarning: webSSLDeleteWarning,
}

// configureWebSSL sends the whole SSL set-up; the key comes from the write-only value
// (the engine adds it from the configuration) or the sensitive one.
func configureWebSSL(ctx context.Context, m *conn, plan engine.Attrs) error {
	cfg := apm.SSLConfig{HTTPSPort: plan.Int64("https_port"), CertificatePEM: plan.Str("certificate_pem"),
		PrivateKeyPEM: webSSLKey.Value(plan), CAChainPEM: plan.Str("ca_chain_pem")}
	return onWebServer(ctx, m, plan, func(ref apm.ServerRef) error { return m.ConfigureSSL(ctx, ref, cfg) })
}

// errSSLOff says that the manager reports SSL off for the web server.
var errSSLOff = fmt.Errorf("SSL is not enabled on the web server: %w", engine.ErrGone)

// readWebSSL reads the web server's HTTPS port; SSL reported off is gone (configured
// again by the next apply).
func readWebSSL(ctx context.Context, m *conn, a engine.Attrs) (*webPart, error) {
	p, err := readWebPart(ctx, m, a)
	if err != nil {
		return nil, err
	}
	if p.Reported.SSLEnabled && !p.SSLEnabled {
		return nil, errSSLOff
	}
	return p, nil
}

// pemValidator checks that a value is PEM of the kind (CERTIFICATE, PRIVATE KEY), so that
// a swapped certificate and key fail at plan. Its messages never quote the value.
type pemValidator struct{ kind string }

func (v pemValidator) Description(context.Context) string {
	return fmt.Sprintf("must be PEM-encoded, with a -----BEGIN ...%s----- line", v.kind)
}

func (v pemValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v pemValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	text := req.ConfigValue.ValueString()
	begin := regexp.MustCompile(`-----BEGIN ([A-Z0-9 ]+)-----`).FindAllStringSubmatch(text, -1)
	ok := len(begin) > 0
	for _, b := range begin {
		if !strings.HasSuffix(b[1], v.kind) {
			ok = false
		}
	}
	if !ok {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid PEM", fmt.Sprintf(
			"%s must be PEM-encoded %s data, starting with a line such as -----BEGIN %s-----, for example file(\"...\"); the value given is not (it is not shown here).",
			req.Path, v.kind, v.kind))
	}
}
