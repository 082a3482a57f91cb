package provider

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
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
var httpPort = serverPort{attrHTTPPort, "HTTP port of the server, 1 to 65535.", engine.Everywhere,
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
		engine.StringField(attrID, "`<system_id>/<node>/<server_id>`. It stays the same when the system is renamed; parts of the server refer to it.",
			func(s *serverObject) string { return s.SystemID + "/" + s.NodeName + "/" + s.ServerID }).DerivedFrom(engine.Joined(attrNodeID, attrServerID)),
		engine.StringField(attrNodeID, "The `id` of the server's node, such as `apm_node.example.id` (`<system_id>/<node>`).",
			func(s *serverObject) string { return s.SystemID + "/" + s.NodeName }).Replacing().Validate(nodeRefValidator()),
		engine.StringField(attrSystemName, "Name of the server's system.", func(s *serverObject) string { return s.SystemName }).In(engine.Observed),
		engine.StringField(attrNodeName, "Name of the server's node.", func(s *serverObject) string { return s.NodeName }).In(engine.Observed),
		engine.StringField(attrServerID, "The manager's `serverId` of the server, unique on its node: 1 to 63 letters, digits, `.`, `-` or `_`.",
			func(s *serverObject) string { return s.ServerID }).Replacing().Validate(serverIDValidators()...),
		// The manager does not report how a server came to be, so an imported server's
		// configuration (one that plan -generate-config-out writes) has no mode: left out, it
		// means the choice that keeps the server's files, register.
		engine.InputField[serverObject](attrMode, "`install` to install a new server on the node, or `register` to register one the node already has "+
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
		engine.StringField(attrState, "Desired running state: `running` or `stopped`. Apply starts or stops the server and waits until it gets there; "+
			"a server started or stopped outside Terraform shows in the next plan. Left out, the running state is not managed.",
			func(s *serverObject) string { return desiredState(s.Status) }).In(engine.InResource).OptionalInput().AppliedBySettle().
			Validate(stringvalidator.OneOf(stateRunning, stateStopped)),
		engine.StringField(attrStatus, "Status of the server as the manager reports it: `running`, `stopped`, `starting` or `stopping`.",
			func(s *serverObject) string { return s.Status }).In(engine.Observed),
	)
	if k.was {
		fs = append(fs, engine.InputField[serverObject](attrForceStop, "Stop the server at once, without waiting for requests in progress, "+
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
		Fields:   k.fields(),
		ImportID: importID{Parts: []idPart{serverNodePart, {Attr: attrServerID, Form: "<server_id>"}}, Example: k.example, Noun: "server"},
		REST: &engine.RESTObject{
			Path:     "/rest/" + string(k.kind) + "/servers/{serverId}/nodes/{nodeName}/systems/{systemName}",
			ImportID: "{systemName}/{nodeName}/{serverId}",
			Keys:     map[string]string{attrMode: "type"}, // install or register, in the body of the create
		},
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
		References:    []reference{refersTo(attrNodeID, nodeParent)},
		Validators:    []resource.ConfigValidator{distinctPorts{k}},
		Exclusives:    k.portsHeld,
	}
}

// portsHeld are the ports of its node that a server declares. The ports of every kind live
// on the node, so the manager refuses a second server on one of them.
func (k *serverKind) portsHeld(plan engine.Attrs) []engine.Exclusive {
	if !plan.Known(attrNodeID) {
		return nil
	}
	nodeID := plan.Str(attrNodeID)
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
	_, node, _ := splitNodeRef(a.Str(attrNodeID))
	return fmt.Sprintf("%s %q on node %q", k.label, a.Str(attrServerID), node)
}

func (k *serverKind) force(a engine.Attrs) bool { return a.Bool(attrForceStop) }

// onServer runs call with the reference of the server that a or its plan describes.
func (k *serverKind) onServer(ctx context.Context, c *conn, a engine.Attrs, call func(ref apm.ServerRef) error) error {
	return c.onNodeRef(ctx, a.Str(attrNodeID), func(systemName, nodeName string) error {
		return call(apm.ServerRef{Kind: k.kind, ServerID: a.Str(attrServerID), NodeName: nodeName, SystemName: systemName})
	})
}

func (k *serverKind) read(ctx context.Context, c *conn, a engine.Attrs) (*serverObject, error) {
	systemID, _, _ := splitNodeRef(a.Str(attrNodeID))
	var srv *apm.Server
	err := k.onServer(ctx, c, a, func(ref apm.ServerRef) (err error) {
		srv, err = c.GetServer(ctx, ref)
		return err
	})
	if err != nil {
		return nil, err
	}
	return &serverObject{Server: *srv, SystemID: systemID}, nil
}

func (k *serverKind) create(ctx context.Context, c *conn, plan engine.Attrs) error {
	return k.onServer(ctx, c, plan, func(ref apm.ServerRef) error {
		spec := apm.ServerSpec{ServerID: ref.ServerID, NodeName: ref.NodeName, SystemName: ref.SystemName,
			Edition: apm.Edition(plan.Str(attrServerType)), InstallRootPath: plan.Str(attrInstallRootPath)}
		var ignored apm.ServerSettings
		for _, p := range k.ports {
			p.set(&spec, &ignored, plan.Int64(p.attr))
		}
		if plan.Str(attrMode) == modeInstall {
			return c.InstallServer(ctx, k.kind, spec)
		}
		err := c.RegisterServer(ctx, k.kind, spec)
		if apm.IsNotFoundAnswer(err) {
			return k.notRegisterable(ctx, c, ref, err)
		}
		return err
	})
}

// notRegisterable adds to a refused registration what the node does offer.
func (k *serverKind) notRegisterable(ctx context.Context, c *conn, ref apm.ServerRef, err error) error {
	offered, lerr := c.ListRegisterableServers(ctx, k.kind, ref.SystemName, ref.NodeName)
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
func (k *serverKind) update(ctx context.Context, c *conn, plan, state engine.Attrs) error {
	var settings apm.ServerSettings
	var ignored apm.ServerSpec
	changed := false
	for _, p := range k.ports {
		if plan.Known(p.attr) && !plan[p.attr].Equal(state[p.attr]) {
			p.set(&ignored, &settings, plan.Int64(p.attr))
			changed = true
		}
	}
	if k.was && plan.Known(attrJavaHome) && !plan[attrJavaHome].Equal(state[attrJavaHome]) {
		settings.JavaHome, changed = plan.Str(attrJavaHome), true
	}
	if !changed {
		return nil
	}
	return k.onServer(ctx, c, state, func(ref apm.ServerRef) error { return c.ModifyServer(ctx, ref, settings) })
}

// settle applies what the install or register body cannot carry (a WAS server's
// java_home), then brings the server to its declared state.
func (k *serverKind) settle(ctx context.Context, c *conn, plan engine.Attrs) error {
	return k.onServer(ctx, c, plan, func(ref apm.ServerRef) error {
		if k.was {
			if err := c.rejoinLoadBalancers(ctx, ref); err != nil {
				return err
			}
		}
		if k.was && plan.Known(attrJavaHome) {
			srv, err := c.GetServer(ctx, ref)
			if err != nil {
				return err
			}
			if srv.JavaHome != plan.Str(attrJavaHome) {
				if err := c.ModifyServer(ctx, ref, apm.ServerSettings{JavaHome: plan.Str(attrJavaHome)}); err != nil {
					return err
				}
			}
		}
		if !plan.Known(attrState) {
			return nil
		}
		return c.converge(ctx, ref, plan.Str(attrState), k.force(plan), nil)
	})
}

func (k *serverKind) delete(ctx context.Context, c *conn, state engine.Attrs) error {
	return k.onServer(ctx, c, state, func(ref apm.ServerRef) error {
		// Without a mode (left out, or imported), deregistering keeps the server's files
		// on the node: the safe choice.
		if state.Str(attrMode) == modeInstall {
			return c.UninstallServer(ctx, ref)
		}
		return c.DeregisterServer(ctx, ref)
	})
}

// beforeDelete prepares a server's delete. A WAS server first leaves the load balancers
// that forward to it (Terraform deletes a server before it updates the workers that no
// longer name it, so a removal in one commit would otherwise meet a 409 that nothing in
// the run clears), then waits, still running, until its parts are gone (their resources
// are deleted first in the same run). Only then is it stopped: a delete never stops a
// server before it knows the delete can go through.
func (k *serverKind) beforeDelete(ctx context.Context, c *conn, state engine.Attrs) error {
	return k.onServer(ctx, c, state, func(ref apm.ServerRef) error {
		if k.was {
			if err := c.leaveLoadBalancers(ctx, ref); err != nil {
				return err
			}
			if err := k.waitForParts(ctx, c, state); err != nil {
				return err
			}
		}
		return c.converge(ctx, ref, stateStopped, k.force(state), nil)
	})
}

// waitForParts waits until the WAS server has no session clustering, datasources or
// applications, which would make the manager refuse its delete: while this run deletes
// them, and no longer once they stay with nothing here deleting them (engine.WaitWhileHeld).
func (k *serverKind) waitForParts(ctx context.Context, c *conn, state engine.Attrs) error {
	err := engine.WaitWhileHeld(ctx, k.describe(state), func(ctx context.Context) ([]engine.Blocker, error) {
		return k.blockers(ctx, c, state)
	})
	if err != nil {
		return fmt.Errorf("%w\n\nIt was left running: its delete would be refused while those hold it", err)
	}
	return nil
}

// blockers lists the parts that hold a WAS server; other kinds have none.
func (k *serverKind) blockers(ctx context.Context, c *conn, state engine.Attrs) ([]engine.Blocker, error) {
	if !k.was {
		return nil, nil
	}
	var held []engine.Blocker
	id := state.Str(attrID)
	err := k.onServer(ctx, c, state, func(ref apm.ServerRef) error {
		srv, err := c.GetServer(ctx, ref)
		if err != nil {
			return err
		}
		if srv.SessionCluster != nil {
			held = append(held, engine.HeldBy("its session clustering (apm_was_session_cluster)", id, "apm_was_session_cluster"))
		}
		for _, ds := range srv.Datasources {
			held = append(held, engine.HeldBy(fmt.Sprintf("datasource %q (apm_was_datasource)", ds), id+"/"+ds, "apm_was_datasource"))
		}
		apps, err := c.ApplicationStatuses(ctx, ref)
		if err != nil {
			return err
		}
		for _, a := range apps {
			held = append(held, engine.HeldBy(fmt.Sprintf("application %q (apm_was_application)", a.ContextPath), id+a.ContextPath, "apm_was_application"))
		}
		return nil
	})
	return held, err
}

// checkPlan refuses at plan what cannot work: install_root_path with register, a
// registration of a server that an existing node does not offer, and a port that another
// server of the node holds.
func (k *serverKind) checkPlan(ctx context.Context, c *conn, plan, prior engine.Attrs, diags *diag.Diagnostics) {
	k.checkRegistration(ctx, c, plan, prior, diags)
	if !diags.HasError() {
		k.checkPortsFree(ctx, c, plan, prior, diags)
	}
}

// checkRegistration refuses install_root_path with register, and a registration of a
// server that an existing node does not offer.
func (k *serverKind) checkRegistration(ctx context.Context, c *conn, plan, prior engine.Attrs, diags *diag.Diagnostics) {
	// A server is registered unless its mode says install; an unknown mode tells nothing yet.
	register := plan[attrMode].IsKnown() && plan.Str(attrMode) != modeInstall
	if register && plan.Known(attrInstallRootPath) && len(prior) == 0 {
		diags.AddAttributeError(path.Root(attrInstallRootPath), "install_root_path needs mode = \"install\"",
			"A registered server (mode = \"register\", or mode left out) stays where it is installed; leave install_root_path out, or set mode = \"install\".")
	}
	if len(prior) > 0 || !register || !plan.Known(attrNodeID) || !plan.Known(attrServerID) {
		return
	}
	err := k.onServer(ctx, c, plan, func(ref apm.ServerRef) error {
		offered, err := c.ListRegisterableServers(ctx, k.kind, ref.SystemName, ref.NodeName)
		if err != nil {
			return err
		}
		if !slices.ContainsFunc(offered, func(s apm.RegisterableServer) bool { return s.ServerID == ref.ServerID }) {
			diags.AddAttributeError(path.Root(attrServerID), "No such registerable "+k.label, fmt.Sprintf(
				"Node %q of system %q offers no registerable %s %q; it offers %s. Use one of those (data source apm_registerable_servers lists them), or mode = \"install\".",
				ref.NodeName, ref.SystemName, k.label, ref.ServerID, registerableIDs(offered, k.label)))
		}
		return nil
	})
	if err != nil && !engine.IsGone(err) && !apm.IsNotFoundAnswer(err) {
		diags.AddWarning("Could not check the registration of "+k.describe(plan), engine.Explain(err)+"\n\nApply will tell whether the node offers it.")
	}
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
