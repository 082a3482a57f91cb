package provider

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
)

// Ports that servers outside this configuration hold. Two servers of one configuration on
// one port fail at plan through the engine's Exclusives; a server that the manager has and
// this configuration does not declare is found here, with the lists of the three kinds and
// the details of the node's servers (the lists leave out ajpPort and httpsPort), once per
// node in a walk. Without it the manager's 409 would come at apply, after other writes.

// nodePorts remembers, for one walk (a conn), the ports held on each node looked at.
type nodePorts struct {
	mu    sync.Mutex
	nodes map[string]*heldPorts
}

// heldPorts are the servers of one node by the ports they hold.
type heldPorts struct {
	once    sync.Once
	holders map[int64]apm.Server
	err     error
}

// on is the entry of a node, made on first use.
func (n *nodePorts) on(systemName, nodeName string) *heldPorts {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.nodes == nil {
		n.nodes = map[string]*heldPorts{}
	}
	key := systemName + "/" + nodeName
	if n.nodes[key] == nil {
		n.nodes[key] = &heldPorts{}
	}
	return n.nodes[key]
}

// portsHeldOn maps each port used on the node to the server that holds it.
func (c *conn) portsHeldOn(ctx context.Context, systemName, nodeName string) (map[int64]apm.Server, error) {
	h := c.ports.on(systemName, nodeName)
	h.once.Do(func() { h.holders, h.err = c.readPortsHeldOn(ctx, systemName, nodeName) })
	return h.holders, h.err
}

func (c *conn) readPortsHeldOn(ctx context.Context, systemName, nodeName string) (map[int64]apm.Server, error) {
	held := map[int64]apm.Server{}
	for _, k := range serverKinds {
		listed, err := c.ListServers(ctx, k.kind)
		if err != nil {
			return nil, err
		}
		for _, s := range listed {
			if s.NodeName != nodeName || s.SystemName != systemName {
				continue
			}
			detail, err := c.GetServer(ctx, apm.ServerRef{Kind: k.kind, ServerID: s.ServerID, NodeName: nodeName, SystemName: systemName})
			if err != nil {
				return nil, err
			}
			for _, p := range k.ports {
				if port := p.get(detail); port != 0 {
					held[port] = *detail
				}
			}
		}
	}
	return held, nil
}

// checkPortsFree fails the plan of a server that takes a port which another server of its
// node holds in the manager, unless this configuration declares that server (its ports are
// then compared as Exclusives). Only ports that the plan sets anew are looked at.
func (k *serverKind) checkPortsFree(ctx context.Context, c *conn, plan, prior engine.Attrs, diags *diag.Diagnostics) {
	var fresh []serverPort
	for _, p := range k.ports {
		if plan.Known(p.attr) && (len(prior) == 0 || !prior.Known(p.attr) || prior.Int64(p.attr) != plan.Int64(p.attr)) {
			fresh = append(fresh, p)
		}
	}
	if len(fresh) == 0 || !plan.Known(attrNodeID) || !plan.Known(attrServerID) || engine.LookupsSkipped(ctx) {
		return
	}
	err := k.onServer(ctx, c, plan, func(ref apm.ServerRef) error {
		held, err := c.portsHeldOn(ctx, ref.SystemName, ref.NodeName)
		if err != nil {
			return err
		}
		for _, p := range fresh {
			port := plan.Int64(p.attr)
			other, taken := held[port]
			if !taken || k.isItself(ctx, other, plan, prior) || declaredServer(ctx, plan.Str(attrNodeID), other) {
				continue
			}
			diags.AddAttributeError(path.Root(p.attr), fmt.Sprintf("Port %d on node %q is taken", port, ref.NodeName), fmt.Sprintf(
				"%s is %d, but the manager's %s holds port %d, and this configuration does not declare that server: the manager would refuse %s. "+
					"Choose a port that no server of the node uses (they use %s); or, if this configuration changes that server's port in this run, "+
					"declare it here and make this server depend on it.",
				p.attr, port, serverNamed(apm.ServerRef{Kind: other.Kind, ServerID: other.ServerID, NodeName: ref.NodeName, SystemName: ref.SystemName}), port, k.describe(plan), portList(held)))
		}
		return nil
	})
	if err != nil && !engine.GoneWithParent(err) {
		diags.AddWarning("Could not check the ports of "+k.describe(plan), engine.Explain(err)+
			"\n\nApply sends the server all the same; should a port be taken, the manager refuses it naming the server that holds it.")
	}
}

// isItself reports whether the server s of the plan's node is the one planned, or the one
// it replaces (prior, or the object of the replacement's second planning), which is gone
// before the replacement is created.
func (k *serverKind) isItself(ctx context.Context, s apm.Server, plan, prior engine.Attrs) bool {
	if s.Kind != k.kind {
		return false
	}
	id := plan.Str(attrNodeID) + "/" + s.ServerID
	if replaced, ok := engine.Replaces(ctx, "apm_"+k.name); ok && replaced == id {
		return true
	}
	for _, a := range []engine.Attrs{plan, prior} {
		if len(a) > 0 && s.ServerID == a.Str(attrServerID) && a.Str(attrNodeID) == plan.Str(attrNodeID) {
			return true
		}
	}
	return false
}

// declaredServer reports whether a server of this walk's configuration is s, on the node nodeID.
func declaredServer(ctx context.Context, nodeID string, s apm.Server) bool {
	_, ok := engine.PlannedObject(ctx, "apm_"+string(s.Kind)+"_server", nodeID+"/"+s.ServerID)
	return ok
}

// portList is the ports held, in order: "8009, 8080".
func portList(held map[int64]apm.Server) string {
	ports := slices.Sorted(maps.Keys(held))
	out := make([]string, len(ports))
	for i, p := range ports {
		out[i] = fmt.Sprint(p)
	}
	return strings.Join(out, ", ")
}
