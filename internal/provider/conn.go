package provider

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
)

// conn is what the types' calls talk to: the API client, and what this provider
// process has learned of the conn's systems. Children refer to their system by its
// stable id while the interface addresses them by the system's name, which can change;
// the directory turns one into the other without a request per object.
type conn struct {
	*apm.Client
	systems *systemDirectory
	// seats are the load balancers that WAS servers deleted in this run left.
	seats *seats
	// balancers orders the writes of each web server's workers (load_balancers.go).
	balancers *balancerLocks
	// zone is the time_zone setting: the manager's times carry none, and are read in it.
	zone *time.Location
	// aside is what the deletes of replacements set aside for the creates that follow.
	aside *asideRegistry
	// ports are the ports held on the nodes that plans looked at (server_ports.go).
	ports *nodePorts
}

// timeZone is the zone the manager's times are read in; UTC when none is set.
func (c *conn) timeZone() *time.Location {
	if c.zone == nil {
		return time.UTC
	}
	return c.zone
}

func newConn(client *apm.Client) *conn {
	return &conn{Client: client, systems: newSystemDirectory(), seats: &seats{}, balancers: &balancerLocks{}, aside: newAsideRegistry(), ports: &nodePorts{}}
}

// systemDirectory maps system ids to their current names, as last seen by any read of a
// system in this process. Requests never run under its lock.
type systemDirectory struct {
	mu    sync.RWMutex
	names map[string]string
	// complete is true once a list of all systems was seen: an id missing then names no
	// system (systems created since are remembered by their own reads).
	complete bool
}

func newSystemDirectory() *systemDirectory {
	return &systemDirectory{names: map[string]string{}}
}

// remember records what a read of a system said.
func (d *systemDirectory) remember(id, name string) {
	if id == "" || name == "" {
		return
	}
	d.mu.Lock()
	d.names[id] = name
	d.mu.Unlock()
}

// missing reports whether the directory knows that no system has the id.
func (d *systemDirectory) missing(id string) bool {
	d.mu.RLock()
	defer d.mu.RUnlock()
	_, ok := d.names[id]
	return d.complete && !ok
}

// idOf is the id of the system last seen with the given name.
func (d *systemDirectory) idOf(name string) (string, bool) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	found := ""
	for id, n := range d.names {
		if n == name {
			if found != "" {
				return "", false // renamed since one of them was seen: ask the manager
			}
			found = id
		}
	}
	return found, found != ""
}

func (d *systemDirectory) cached(id string) (string, bool) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	name, ok := d.names[id]
	return name, ok
}

// listSystems lists the systems and remembers every name.
func (c *conn) listSystems(ctx context.Context) ([]apm.System, error) {
	systems, err := c.ListSystems(ctx)
	if err != nil {
		return nil, err
	}
	for _, s := range systems {
		c.systems.remember(s.SystemID, s.SystemName)
	}
	c.systems.mu.Lock()
	c.systems.complete = true
	c.systems.mu.Unlock()
	return systems, nil
}

// systemIDs lists the systems (one GET) and maps their names to their ids. A filter
// naming no system (only, when set) is an error that says so.
func (c *conn) systemIDs(ctx context.Context, only string) (map[string]string, error) {
	systems, err := c.listSystems(ctx)
	if err != nil {
		return nil, err
	}
	ids := make(map[string]string, len(systems))
	for _, s := range systems {
		ids[s.SystemName] = s.SystemID
	}
	if _, ok := ids[only]; only != "" && !ok {
		return nil, fmt.Errorf("no system is named %q (the manager has %d systems; apm_systems lists them): %w", only, len(systems), engine.ErrGone)
	}
	return ids, nil
}

// getSystem reads a system's detail by name and remembers its id.
func (c *conn) getSystem(ctx context.Context, name string) (*apm.System, error) {
	s, err := c.GetSystem(ctx, name)
	if err != nil {
		return nil, err
	}
	c.systems.remember(s.SystemID, s.SystemName)
	return s, nil
}

// systemNamed reads the system that a data source's system_name names. That system is not
// the object the data source reads, so its 404 says that the reference is wrong, naming
// the attribute and its value, rather than that an object is gone.
func (c *conn) systemNamed(ctx context.Context, name string) (*apm.System, error) {
	s, err := c.getSystem(ctx, name)
	if apm.IsNotFound(err) {
		return nil, fmt.Errorf("system_name %q: %w (%w)", name, engine.ErrGone, err)
	}
	return s, err
}

// systemName is the current name of the system with the given id: from the directory,
// else from one list of the systems. A system that does not exist is errGone.
func (c *conn) systemName(ctx context.Context, id string) (string, error) {
	if name, ok := c.systems.cached(id); ok {
		return name, nil
	}
	return c.freshSystemName(ctx, id)
}

// freshSystemName asks the manager, for when the remembered name may be stale.
func (c *conn) freshSystemName(ctx context.Context, id string) (string, error) {
	systems, err := c.listSystems(ctx)
	if err != nil {
		return "", err
	}
	for _, s := range systems {
		if s.SystemID == id {
			return s.SystemName, nil
		}
	}
	return "", fmt.Errorf("no system has the id %q (refer to a system by its id, such as apm_system.example.id, not by its name): %w", id, engine.ErrGone)
}

// resolveSystem takes a system's name or id, as users write it in import IDs, and
// returns its id. A name is tried first: one GET of its detail.
func (c *conn) resolveSystem(ctx context.Context, ref string) (string, error) {
	if systemNamePattern.MatchString(ref) {
		s, err := c.getSystem(ctx, ref)
		if err == nil {
			return s.SystemID, nil
		}
		if !apm.IsNotFound(err) {
			return "", err
		}
	}
	if _, err := c.freshSystemName(ctx, ref); err != nil {
		if engine.IsGone(err) {
			return "", fmt.Errorf("no system has the name or id %q: %w", ref, engine.ErrGone)
		}
		return "", err
	}
	return ref, nil
}

// onSystem runs call with the current name of the system with the given id. When the
// call gets 404 the name may be stale (someone renamed the system since it was seen):
// the name is looked up again, and the call repeated if it changed.
func (c *conn) onSystem(ctx context.Context, id string, call func(systemName string) error) error {
	name, err := c.systemName(ctx, id)
	if err != nil {
		return err
	}
	err = call(name)
	if !apm.IsNotFoundAnswer(err) {
		return err
	}
	fresh, ferr := c.freshSystemName(ctx, id)
	switch {
	case ferr != nil:
		return ferr
	case fresh == name:
		return err
	default:
		return call(fresh)
	}
}

// The engine's declarations, bound to this provider's connection: every type's calls get
// the *conn.
type (
	resourceType[T any]       = engine.ResourceType[T, *conn]
	dataSourceType[T any]     = engine.DataSourceType[T, *conn]
	listDataSourceType[T any] = engine.ListDataSourceType[T, *conn]
	importID                  = engine.ImportID[*conn]
	idPart                    = engine.IDPart[*conn]
	providerData              = engine.Configured[*conn]
	actionType                = engine.ActionType[*conn]
)
