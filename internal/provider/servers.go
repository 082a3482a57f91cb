package provider

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
)

// WAS, web and session servers are one resource type declared three times: the kinds
// differ only in their ports and a few WAS settings (serverKind), as in the client. A
// server belongs to a node, which it refers to by the node's id (<system_id>/<node>): a
// rename of the system changes no server.

// serverObject is a server with the id of its system, which the server's reads lack.
type serverObject struct {
	apm.Server
	SystemID string
}

// serverKind is what differs between the kinds of server.
type serverKind struct {
	kind  apm.ServerKind
	name  string // "was_server", for apm_was_server
	label string // "WAS server"
	// ports are the kind's port fields; the first is required, the others default to the
	// manager's value.
	ports []serverPort
	// settings are the kind's own fields, after the ports.
	settings []engine.Field[serverObject]
	// was marks the WAS kind: java_home is applied after an install, and force_stop
	// decides how it is stopped.
	was bool
	// example is an import ID in the docs.
	example string
}

// serverPort is one port field of a kind, and where it sits in the client's types.
type serverPort struct {
	attr, description string
	views             engine.View
	get               func(*apm.Server) int64
	set               func(spec *apm.ServerSpec, settings *apm.ServerSettings, port int64)
}

// httpPort is the first port of WAS and web servers.
var httpPort = serverPort{"http_port", "HTTP port of the server, 1 to 65535.", engine.Everywhere,
	func(s *apm.Server) int64 { return s.HTTPPort },
	func(spec *apm.ServerSpec, set *apm.ServerSettings, p int64) { spec.HTTPPort, set.HTTPPort = p, p }}

// Desired running states, the values of the state attribute.
const (
	stateRunning = "running"
	stateStopped = "stopped"
)

// Modes of a server's create and delete.
const (
	modeInstall  = "install"
	modeRegister = "register"
)

var serverIDPattern = regexp.MustCompile(`^[A-Za-z0-9._-]{1,63}$`)

func serverIDValidators() []validator.String {
	return []validator.String{
		stringvalidator.RegexMatches(serverIDPattern, "must be 1 to 63 characters, each a letter, a digit, '.', '-' or '_'"),
		stringvalidator.NoneOf(".", "..", "register"),
	}
}

// fields is the kind's field table, shared by its resource and data sources.
func (k *serverKind) fields() []engine.Field[serverObject] {
	fs := []engine.Field[serverObject]{
		engine.StringField("id", "`<system_id>/<node>/<server_id>`. It stays the same when the system is renamed; parts of the server refer to it.",
			func(s *serverObject) string { return s.SystemID + "/" + s.NodeName + "/" + s.ServerID }).DerivedFrom(engine.Joined("node_id", "server_id")),
		engine.StringField("node_id", "The `id` of the server's node, such as `apm_node.example.id` (`<system_id>/<node>`).",
			func(s *serverObject) string { return s.SystemID + "/" + s.NodeName }).Replacing().Validate(nodeRefValidator{}),
		engine.StringField("system_name", "Name of the server's system.", func(s *serverObject) string { return s.SystemName }).In(engine.Observed),
		engine.StringField("node_name", "Name of the server's node.", func(s *serverObject) string { return s.NodeName }).In(engine.Observed),
		engine.StringField("server_id", "The manager's `serverId` of the server, unique on its node: 1 to 63 letters, digits, `.`, `-` or `_`.",
			func(s *serverObject) string { return s.ServerID }).Replacing().Validate(serverIDValidators()...),
		// The manager does not report how a server came to be, so an imported server's
		// configuration (one that plan -generate-config-out writes) has no mode: left out, it
		// means the choice that keeps the server's files, register.
		engine.InputField[serverObject]("mode", "`install` to install a new server on the node, or `register` to register one the node already has "+
			"(`apm_registerable_servers` lists them). Destroy uninstalls or deregisters accordingly; a deregistered server can be registered again. "+
			"Left out, it means `register`: create registers the server, destroy deregisters it and leaves its files on the node, as for a server "+
			"imported from a configuration that `plan -generate-config-out` wrote; setting `register` then, or leaving out a `register` that was set, "+
			"changes nothing. The manager does not report it: after an import, setting it is only recorded.", tftypes.String).
			OptionalInput().AbsentMeans(modeRegister).Replacing().Validate(stringvalidator.OneOf(modeInstall, modeRegister)),
	}
	for i, p := range k.ports {
		f := engine.Int64Field(p.attr, p.description, func(s *serverObject) int64 { return p.get(&s.Server) }).
			In(p.views).Input().ValidateInt64(portValidators()...).ZeroIsNull()
		if i > 0 {
			f = f.DefaultedInput()
		}
		fs = append(fs, f)
	}
	fs = append(fs, k.settings...)
	fs = append(fs,
		engine.StringField("state", "Desired running state: `running` or `stopped`. Apply starts or stops the server and waits until it gets there; "+
			"a server started or stopped outside Terraform shows in the next plan. Left out, the running state is not managed.",
			func(s *serverObject) string { return desiredState(s.Status) }).In(engine.InResource).OptionalInput().AppliedBySettle().
			Validate(stringvalidator.OneOf(stateRunning, stateStopped)),
		engine.StringField("status", "Status of the server as the manager reports it: `running`, `stopped`, `starting` or `stopping`.",
			func(s *serverObject) string { return s.Status }).In(engine.Observed),
	)
	if k.was {
		fs = append(fs, engine.InputField[serverObject]("force_stop", "Stop the server at once, without waiting for requests in progress, "+
			"when apply or destroy stops it. Defaults to `false`.", tftypes.Bool).OptionalInput().WithDefault(false))
	}
	return fs
}

func (k *serverKind) resource() func() resource.Resource {
	return engine.NewResource(k.resourceType())
}

// resourceType is the kind's resource type.
func (k *serverKind) resourceType() resourceType[serverObject] {
	return resourceType[serverObject]{
		Name: k.name,
		Noun: k.label,
		Description: fmt.Sprintf("A %s on a node. Creating it installs a new server or registers one the node has (`mode`); destroying it stops it, "+
			"then uninstalls or deregisters it. With `state`, apply starts or stops it and waits for the manager (within `timeouts`). "+
			"Its node is referred to by id, so renaming the system leaves the server alone.", k.label),
		Fields:        k.fields(),
		ImportID:      importID{Parts: []idPart{serverNodePart, {Attr: "server_id", Form: "<server_id>"}}, Example: k.example, Noun: "server"},
		DeleteTimeout: engine.DefaultDeleteTimeout * 2,
		Describe:      k.describe,
		Create:        k.create,
		Read:          k.read,
		Update:        k.update,
		Settle:        k.settle,
		BeforeDelete:  k.beforeDelete,
		Delete:        k.delete,
		Blockers:      k.blockers,
		CheckPlan:     k.checkPlan,
		Validators:    []resource.ConfigValidator{distinctPorts{k}},
		Exclusives:    k.portsHeld,
	}
}

// portsHeld are the ports of its node that a server declares. The ports of every kind live
// on the node, so the manager refuses a second server on one of them.
func (k *serverKind) portsHeld(plan engine.Attrs) []engine.Exclusive {
	if !plan.Known("node_id") {
		return nil
	}
	nodeID := plan.Str("node_id")
	_, node, _ := splitNodeRef(nodeID)
	var out []engine.Exclusive
	for _, p := range k.ports {
		if !plan.Known(p.attr) {
			continue
		}
		port := plan.Int64(p.attr)
		out = append(out, engine.Exclusive{
			Key: fmt.Sprintf("port %d of node %s", port, nodeID), Attr: p.attr, What: fmt.Sprintf("port %d on node %q", port, node),
			Advice: "The servers of a node, of every kind, need ports of their own; choose another port for one of them.",
		})
	}
	return out
}

// distinctPorts refuses, at validate, a server whose ports are the same (http_port and
// ajp_port of a WAS server, http_port and https_port of a web server): the manager could
// not open the second.
type distinctPorts struct{ k *serverKind }

func (v distinctPorts) Description(context.Context) string {
	return "the ports of a " + v.k.label + " differ from one another"
}

func (v distinctPorts) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v distinctPorts) ValidateResource(_ context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	config, err := engine.AttrsOf(req.Config.Raw)
	if err != nil {
		return // the framework reports a configuration it cannot decode
	}
	ports := v.k.ports
	for i, first := range ports {
		for _, second := range ports[i+1:] {
			if config.Known(first.attr) && config.Known(second.attr) && config.Int64(first.attr) == config.Int64(second.attr) {
				resp.Diagnostics.AddAttributeError(path.Root(second.attr), "Two ports of one "+v.k.label+" are the same", fmt.Sprintf(
					"%s and %s are both %d, but a %s needs a port of its own for each. Choose another port for one of them.",
					first.attr, second.attr, config.Int64(first.attr), v.k.label))
			}
		}
	}
}

func (k *serverKind) describe(a engine.Attrs) string {
	_, node, _ := splitNodeRef(a.Str("node_id"))
	return fmt.Sprintf("%s %q on node %q", k.label, a.Str("server_id"), node)
}

func (k *serverKind) force(a engine.Attrs) bool { return a.Bool("force_stop") }

// onServer runs call with the reference of the server that a or its plan describes.
func (k *serverKind) onServer(ctx context.Context, m *conn, a engine.Attrs, call func(ref apm.ServerRef) error) error {
	return m.onNodeRef(ctx, a.Str("node_id"), func(systemName, nodeName string) error {
		return call(apm.ServerRef{Kind: k.kind, ServerID: a.Str("server_id"), NodeName: nodeName, SystemName: systemName})
	})
}

func (k *serverKind) read(ctx context.Context, m *conn, a engine.Attrs) (*serverObject, error) {
	systemID, _, _ := splitNodeRef(a.Str("node_id"))
	var srv *apm.Server
	err := k.onServer(ctx, m, a, func(ref apm.ServerRef) (err error) {
		srv, err = m.GetServer(ctx, ref)
		return err
	})
	if err != nil {
		return nil, err
	}
	return &serverObject{Server: *srv, SystemID: systemID}, nil
}

func (k *serverKind) create(ctx context.Context, m *conn, plan engine.Attrs) error {
	return k.onServer(ctx, m, plan, func(ref apm.ServerRef) error {
		spec := apm.ServerSpec{ServerID: ref.ServerID, NodeName: ref.NodeName, SystemName: ref.SystemName,
			Edition: apm.Edition(plan.Str("server_type")), InstallRootPath: plan.Str("install_root_path")}
		var ignored apm.ServerSettings
		for _, p := range k.ports {
			p.set(&spec, &ignored, plan.Int64(p.attr))
		}
		if plan.Str("mode") == modeInstall {
			return m.InstallServer(ctx, k.kind, spec)
		}
		err := m.RegisterServer(ctx, k.kind, spec)
		if apm.IsNotFoundAnswer(err) {
			return k.notRegisterable(ctx, m, ref, err)
		}
		return err
	})
}

// notRegisterable adds to a refused registration what the node does offer.
func (k *serverKind) notRegisterable(ctx context.Context, m *conn, ref apm.ServerRef, err error) error {
	offered, lerr := m.ListRegisterableServers(ctx, k.kind, ref.SystemName, ref.NodeName)
	if lerr != nil {
		return err
	}
	return fmt.Errorf("%w\n\nNode %q offers %s for registration (data source apm_registerable_servers lists them)",
		err, ref.NodeName, registerableIDs(offered, k.label))
}

func registerableIDs(offered []apm.RegisterableServer, label string) string {
	if len(offered) == 0 {
		return "no " + label
	}
	ids := make([]string, len(offered))
	for i, s := range offered {
		ids[i] = fmt.Sprintf("%q", s.ServerID)
	}
	slices.Sort(ids)
	return label + "s " + strings.Join(ids, ", ")
}

// update sends the settings that changed; settle then brings the running state.
func (k *serverKind) update(ctx context.Context, m *conn, plan, state engine.Attrs) error {
	var settings apm.ServerSettings
	var ignored apm.ServerSpec
	changed := false
	for _, p := range k.ports {
		if plan.Known(p.attr) && !plan[p.attr].Equal(state[p.attr]) {
			p.set(&ignored, &settings, plan.Int64(p.attr))
			changed = true
		}
	}
	if k.was && plan.Known("java_home") && !plan["java_home"].Equal(state["java_home"]) {
		settings.JavaHome, changed = plan.Str("java_home"), true
	}
	if !changed {
		return nil
	}
	return k.onServer(ctx, m, state, func(ref apm.ServerRef) error { return m.ModifyServer(ctx, ref, settings) })
}

// settle applies what the install or register body cannot carry (a WAS server's
// java_home), then brings the server to its declared state.
func (k *serverKind) settle(ctx context.Context, m *conn, plan engine.Attrs) error {
	return k.onServer(ctx, m, plan, func(ref apm.ServerRef) error {
		if k.was {
			if err := m.rejoinLoadBalancers(ctx, ref); err != nil {
				return err
			}
		}
		if k.was && plan.Known("java_home") {
			srv, err := m.GetServer(ctx, ref)
			if err != nil {
				return err
			}
			if srv.JavaHome != plan.Str("java_home") {
				if err := m.ModifyServer(ctx, ref, apm.ServerSettings{JavaHome: plan.Str("java_home")}); err != nil {
					return err
				}
			}
		}
		if !plan.Known("state") {
			return nil
		}
		return m.converge(ctx, ref, plan.Str("state"), k.force(plan), nil)
	})
}

func (k *serverKind) delete(ctx context.Context, m *conn, state engine.Attrs) error {
	return k.onServer(ctx, m, state, func(ref apm.ServerRef) error {
		// Without a mode (left out, or imported), deregistering keeps the server's files
		// on the node: the safe choice.
		if state.Str("mode") == modeInstall {
			return m.UninstallServer(ctx, ref)
		}
		return m.DeregisterServer(ctx, ref)
	})
}

// beforeDelete prepares a server's delete. A WAS server first leaves the load balancers
// that forward to it (Terraform deletes a server before it updates the workers that no
// longer name it, so a removal in one commit would otherwise meet a 409 that nothing in
// the run clears), then waits, still running, until its parts are gone (their resources
// are deleted first in the same run). Only then is it stopped: a delete never stops a
// server before it knows the delete can go through.
func (k *serverKind) beforeDelete(ctx context.Context, m *conn, state engine.Attrs) error {
	return k.onServer(ctx, m, state, func(ref apm.ServerRef) error {
		if k.was {
			if err := m.leaveLoadBalancers(ctx, ref); err != nil {
				return err
			}
			if err := k.waitForParts(ctx, m, state); err != nil {
				return err
			}
		}
		return m.converge(ctx, ref, stateStopped, k.force(state), nil)
	})
}

// waitForParts waits until the WAS server has no session clustering, datasources or
// applications, which would make the manager refuse its delete.
func (k *serverKind) waitForParts(ctx context.Context, m *conn, state engine.Attrs) error {
	const free, held = "without parts", "holding parts"
	_, err := apm.Poll[[]string]{
		What:    k.describe(state) + " to have no parts",
		Pending: []string{held},
		Target:  []string{free},
		Refresh: func(ctx context.Context) ([]string, string, error) {
			parts, err := k.blockers(ctx, m, state)
			switch {
			case err != nil:
				return nil, "", err
			case len(parts) > 0:
				return parts, held, nil
			}
			return nil, free, nil
		},
	}.Wait(ctx)
	var timedOut *apm.TimeoutError
	if errors.As(err, &timedOut) {
		parts, _ := k.blockers(context.WithoutCancel(ctx), m, state)
		return fmt.Errorf("%s still has %s, which the manager would refuse to delete it with; it was left running. "+
			"Remove those first (their resources, or in the manager), or raise timeouts.delete: %w", k.describe(state), strings.Join(parts, ", "), err)
	}
	return err
}

// leaveLoadBalancers takes the WAS server out of the workers of every web server that
// forwards to it: the web servers are listed, and each one read (one GET each). A web
// server that is gone by the time it is read forwards to nobody: the same run may be
// deleting it, its node or its system (a 404 for any of them, as the manager names the
// first part of the path it does not find).
func (m *conn) leaveLoadBalancers(ctx context.Context, ref apm.ServerRef) error {
	webs, err := m.ListServers(ctx, apm.KindWeb)
	if err != nil {
		return fmt.Errorf("listing the web servers that may forward to WAS server %q: %w", ref.ServerID, err)
	}
	for _, w := range webs {
		web := apm.ServerRef{Kind: apm.KindWeb, ServerID: w.ServerID, NodeName: w.NodeName, SystemName: w.SystemName}
		if err := m.leaveLoadBalancer(ctx, ref, web); err != nil {
			return err
		}
	}
	return nil
}

// leaveLoadBalancer takes the WAS server out of one web server's workers: a read and a
// write of the whole list, which no other write of the list may come between (two WAS
// servers scaled in at once would each write back the other).
func (m *conn) leaveLoadBalancer(ctx context.Context, ref, web apm.ServerRef) error {
	defer m.balancers.lock(web)()
	detail, err := m.GetServer(ctx, web)
	if engine.GoneWithParent(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("reading the workers of web server %q on node %q: %w", web.ServerID, web.NodeName, err)
	}
	kept := slices.DeleteFunc(slices.Clone(detail.Workers), func(wk apm.Worker) bool { return sameWAS(wk, ref) })
	if len(kept) == len(detail.Workers) {
		return nil
	}
	if err := m.SetWorkers(ctx, web, kept); err != nil {
		return fmt.Errorf("taking WAS server %q out of the workers of web server %q on node %q: %w", ref.ServerID, web.ServerID, web.NodeName, err)
	}
	m.seats.left(ref, web, detail.Workers)
	return nil
}

// rejoinLoadBalancers puts a WAS server created in place of one that left load balancers
// earlier in this run (a replacement: the same server id on the same node) back into
// them, where it stood, with the worker settings it had. The worker list that names it
// cannot: its ids read the same before and after, so Terraform sends it no update.
func (m *conn) rejoinLoadBalancers(ctx context.Context, ref apm.ServerRef) error {
	for _, seat := range m.seats.take(ref) {
		if err := m.rejoinLoadBalancer(ctx, ref, seat); err != nil {
			return err
		}
	}
	return nil
}

// rejoinLoadBalancer puts the WAS server back into the workers of the seat's web server,
// with the list's read and write kept together as in leaveLoadBalancer.
func (m *conn) rejoinLoadBalancer(ctx context.Context, ref apm.ServerRef, seat seat) error {
	defer m.balancers.lock(seat.web)()
	detail, err := m.GetServer(ctx, seat.web)
	if err != nil {
		return fmt.Errorf("reading the workers of web server %q on node %q to put WAS server %q back: %w", seat.web.ServerID, seat.web.NodeName, ref.ServerID, err)
	}
	if slices.ContainsFunc(detail.Workers, func(w apm.Worker) bool { return sameWAS(w, ref) }) {
		return nil
	}
	workers := slices.Insert(slices.Clone(detail.Workers), min(seat.index, len(detail.Workers)), seat.worker)
	if err := m.SetWorkers(ctx, seat.web, workers); err != nil {
		return fmt.Errorf("putting WAS server %q back into the workers of web server %q on node %q: %w", ref.ServerID, seat.web.ServerID, seat.web.NodeName, err)
	}
	return nil
}

// balancerLocks hold one lock per web server, around each read-and-write of its workers
// in this provider process: the interface only writes the whole list. Other web servers'
// requests are not held up.
type balancerLocks struct {
	mu    sync.Mutex
	byWeb map[apm.ServerRef]*sync.Mutex
}

// lock locks web's workers and returns the unlock.
func (b *balancerLocks) lock(web apm.ServerRef) func() {
	b.mu.Lock()
	if b.byWeb == nil {
		b.byWeb = map[apm.ServerRef]*sync.Mutex{}
	}
	l, ok := b.byWeb[web]
	if !ok {
		l = &sync.Mutex{}
		b.byWeb[web] = l
	}
	b.mu.Unlock()
	l.Lock()
	return l.Unlock
}

func sameWAS(w apm.Worker, ref apm.ServerRef) bool {
	return w.ServerID == ref.ServerID && w.NodeName == ref.NodeName && w.SystemName == ref.SystemName
}

// seats remembers, for one provider process (one run), the load balancers that WAS
// servers left when deleted, so that a server created in place of one rejoins them.
type seats struct {
	mu    sync.Mutex
	byWAS map[apm.ServerRef][]seat
}

// seat is a WAS server's place in a web server's workers.
type seat struct {
	web    apm.ServerRef
	index  int
	worker apm.Worker
}

// left records that ref was taken out of web's workers, which were before.
func (s *seats) left(ref, web apm.ServerRef, before []apm.Worker) {
	i := slices.IndexFunc(before, func(w apm.Worker) bool { return sameWAS(w, ref) })
	if i < 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.byWAS == nil {
		s.byWAS = map[apm.ServerRef][]seat{}
	}
	s.byWAS[ref] = append(s.byWAS[ref], seat{web: web, index: i, worker: before[i]})
}

// take returns and forgets the seats ref left.
func (s *seats) take(ref apm.ServerRef) []seat {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.byWAS[ref]
	delete(s.byWAS, ref)
	return out
}

// blockers names the parts that hold a WAS server; other kinds have none.
func (k *serverKind) blockers(ctx context.Context, m *conn, state engine.Attrs) ([]string, error) {
	if !k.was {
		return nil, nil
	}
	var names []string
	err := k.onServer(ctx, m, state, func(ref apm.ServerRef) error {
		srv, err := m.GetServer(ctx, ref)
		if err != nil {
			return err
		}
		if srv.SessionCluster != nil {
			names = append(names, "its session clustering (apm_was_session_cluster)")
		}
		for _, ds := range srv.Datasources {
			names = append(names, fmt.Sprintf("datasource %q (apm_was_datasource)", ds))
		}
		apps, err := m.ApplicationStatuses(ctx, ref)
		if err != nil {
			return err
		}
		for _, a := range apps {
			names = append(names, fmt.Sprintf("application %q (apm_was_application)", a.ContextPath))
		}
		return nil
	})
	return names, err
}

// checkPlan refuses at plan what cannot work: install_root_path with register, and a
// registration of a server that an existing node does not offer.
func (k *serverKind) checkPlan(ctx context.Context, m *conn, plan, prior engine.Attrs, diags *diag.Diagnostics) {
	// A server is registered unless its mode says install; an unknown mode tells nothing yet.
	register := plan["mode"].IsKnown() && plan.Str("mode") != modeInstall
	if register && plan.Known("install_root_path") && len(prior) == 0 {
		diags.AddAttributeError(path.Root("install_root_path"), "install_root_path needs mode = \"install\"",
			"A registered server (mode = \"register\", or mode left out) stays where it is installed; leave install_root_path out, or set mode = \"install\".")
	}
	if len(prior) > 0 || !register || !plan.Known("node_id") || !plan.Known("server_id") {
		return
	}
	err := k.onServer(ctx, m, plan, func(ref apm.ServerRef) error {
		offered, err := m.ListRegisterableServers(ctx, k.kind, ref.SystemName, ref.NodeName)
		if err != nil {
			return err
		}
		if !slices.ContainsFunc(offered, func(s apm.RegisterableServer) bool { return s.ServerID == ref.ServerID }) {
			diags.AddAttributeError(path.Root("server_id"), "No such registerable "+k.label, fmt.Sprintf(
				"Node %q of system %q offers no registerable %s %q; it offers %s. Use one of those (data source apm_registerable_servers lists them), or mode = \"install\".",
				ref.NodeName, ref.SystemName, k.label, ref.ServerID, registerableIDs(offered, k.label)))
		}
		return nil
	})
	if err != nil && !engine.IsGone(err) && !apm.IsNotFoundAnswer(err) {
		diags.AddWarning("Could not check the registration of "+k.describe(plan), engine.Explain(err)+"\n\nApply will tell whether the node offers it.")
	}
}

// converge brings a server to the running state want, waiting through the transitional
// states. It acts on what it reads, so that a server already there costs one GET. progress
// hears what it finds and does (nil for resources; the day-two actions pass Terraform's).
func (m *conn) converge(ctx context.Context, ref apm.ServerRef, want string, force bool, progress engine.Progress) error {
	what := serverNamed(ref)
	for attempt := 0; ; attempt++ {
		srv, err := m.GetServer(ctx, ref)
		if err != nil {
			return err
		}
		switch status := strings.ToLower(srv.Status); status {
		case want:
			if attempt == 0 {
				progress.Say("%s is already %s: nothing to do.", what, want)
			}
			return nil
		case "starting", "stopping":
			// Someone else's start or stop is under way: let it finish, then decide.
			progress.Say("%s is %s: waiting for that to finish first.", what, status)
			if _, err := m.waitServer(ctx, ref, []string{"starting", "stopping"}, []string{stateRunning, stateStopped}, progress); err != nil {
				return err
			}
			continue
		}
		act := m.move(ctx, ref, want, force, progress)
		if (apm.IsActionFailed(act) || apm.OutcomeUnknown(act)) && attempt < 2 {
			// The state changed under us ("already running", "is stopping"), or the answer
			// was lost and the action may have been carried out: look again, and act on what
			// the manager says.
			continue
		}
		if act != nil {
			return act
		}
		// A manager may report the former state for a moment after accepting the action.
		pending := []string{"starting", stateStopped}
		if want == stateStopped {
			pending = []string{"stopping", stateRunning}
		}
		_, err = m.waitServer(ctx, ref, pending, []string{want}, progress)
		return err
	}
}

// move sends the start or stop that leads to want.
func (m *conn) move(ctx context.Context, ref apm.ServerRef, want string, force bool, progress engine.Progress) error {
	if want == stateRunning {
		progress.Say("Starting %s.", serverNamed(ref))
		return m.StartServer(ctx, ref)
	}
	force = force && ref.Kind == apm.KindWAS
	if force {
		progress.Say("Stopping %s at once (force), without waiting for requests in progress.", serverNamed(ref))
	} else {
		progress.Say("Stopping %s.", serverNamed(ref))
	}
	return m.StopServer(ctx, ref, force)
}

// waitServer polls the server's detail until its status is a target, telling progress
// each status it sees and, while one lasts, every progressEvery.
func (m *conn) waitServer(ctx context.Context, ref apm.ServerRef, pending, target []string, progress engine.Progress) (*apm.Server, error) {
	w := watch{progress: progress, what: serverNamed(ref), start: time.Now()}
	return apm.Poll[*apm.Server]{
		What: w.what, Pending: pending, Target: target,
		Refresh: func(ctx context.Context) (*apm.Server, string, error) {
			s, err := m.GetServer(ctx, ref)
			if err != nil {
				return nil, "", err
			}
			w.saw(s.Status)
			return s, s.Status, nil
		},
	}.Wait(ctx)
}

// progressEvery is how often a wait says that the state it sees lasts: often enough that
// a long start does not look hung, seldom enough not to flood the CLI.
const progressEvery = 30 * time.Second

// watch tells progress what a wait sees.
type watch struct {
	progress engine.Progress
	what     string
	start    time.Time
	last     string
	said     time.Time
}

// saw reports a look that found state: when it changed, or when the same one has lasted
// progressEvery since it was last said.
func (w *watch) saw(state string) {
	now := time.Now()
	if state == w.last && now.Sub(w.said) < progressEvery {
		return
	}
	w.last, w.said = state, now
	w.progress.Say("%s is %s (%s elapsed).", w.what, state, now.Sub(w.start).Round(time.Second))
}

// serverNamed names a server in errors and progress: `WAS server "was-1" on node
// "app-01" of system "shop"`.
func serverNamed(ref apm.ServerRef) string {
	return fmt.Sprintf("%s %q on node %q of system %q", serverLabel(ref.Kind), ref.ServerID, ref.NodeName, ref.SystemName)
}

func serverLabel(kind apm.ServerKind) string {
	for _, k := range serverKinds {
		if k.kind == kind {
			return k.label
		}
	}
	return string(kind) + " server"
}

// serverKinds are the kinds in the order the docs list them.
var serverKinds = []*serverKind{wasServerKind, webServerKind, sessionServerKind}

func (k *serverKind) dataSource() func() datasource.DataSource {
	return engine.NewDataSource(dataSourceType[serverObject]{
		Name:        k.name,
		Description: fmt.Sprintf("Reads one %s by system, node and server id, with its status.", k.label),
		Fields:      k.fields(),
		Keys:        []string{"system_name", "node_name", "server_id"},
		Read: func(ctx context.Context, m *conn, config engine.Attrs) (*serverObject, error) {
			system, err := m.systemNamed(ctx, config.Str("system_name"))
			if err != nil {
				return nil, err
			}
			srv, err := m.GetServer(ctx, apm.ServerRef{Kind: k.kind, ServerID: config.Str("server_id"), NodeName: config.Str("node_name"), SystemName: system.SystemName})
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
			"system_name": optionalString("Only list the servers of this system.", systemNameValidators()...),
			"node_name":   optionalString("Only list the servers of nodes with this name.", nodeNameValidators()...),
		},
		List:    k.list,
		Imports: k.resourceType().Target(),
	})
}

// list lists the kind's servers (one GET) with their systems' ids (one more).
func (k *serverKind) list(ctx context.Context, m *conn, config engine.Attrs) ([]serverObject, error) {
	system, node := config.Str("system_name"), config.Str("node_name")
	ids, err := m.systemIDs(ctx, system)
	if err != nil {
		return nil, err
	}
	servers, err := m.ListServers(ctx, k.kind)
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

// requiredString is a required argument of a data source.
func requiredString(description string, rules ...validator.String) dschema.Attribute {
	return dschema.StringAttribute{MarkdownDescription: description, Required: true, Validators: rules}
}

// desiredState is the running state that a server of the manager's status is in, or on
// its way to: `starting` reads as running and `stopping` as stopped. Read as they are,
// they would be values that `state` refuses, in the state and in the configuration
// generated from it for a server adopted while it starts; apply waits out the transition
// (converge) where the state is managed.
func desiredState(status string) string {
	switch s := strings.ToLower(status); s {
	case "starting":
		return stateRunning
	case "stopping":
		return stateStopped
	default:
		return s
	}
}
