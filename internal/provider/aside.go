package provider

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
)

// A database has no modify endpoint, so a new password replaces it, and with it the
// datasources on it; the manager refuses to delete a datasource attached to a WAS server,
// or a database that datasources use. Terraform replaces the holders it sees refer to
// the replaced object by its id first, but not an attachment or a datasource that names
// it literally, by its resource_name, or from outside the configuration. For those, the
// delete of the replacement (engine/recreate.go) sets them aside here and the create of
// the new object takes them back: a datasource is detached from its WAS servers and
// attached again; the datasources of a database are deleted, as they were, and created
// again with their attachments. One provider process serves the whole apply, so memory
// is enough; what a failed apply cannot take back is reported with how to.

// asideRegistry is what the deletes of this provider process set aside for the creates
// that follow them.
type asideRegistry struct {
	mu sync.Mutex
	// attachments are, by datasource name, the WAS servers it was detached from, by their
	// ids (<system_id>/<node>/<server_id>), which survive a rename of their system.
	attachments map[string][]string
	// datasources are, by database name, the datasources deleted from it, as they were.
	datasources map[string][]apm.DatasourceSpec
}

func newAsideRegistry() *asideRegistry {
	return &asideRegistry{attachments: map[string][]string{}, datasources: map[string][]apm.DatasourceSpec{}}
}

func (r *asideRegistry) addAttachment(datasource, serverID string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !slices.Contains(r.attachments[datasource], serverID) {
		r.attachments[datasource] = append(r.attachments[datasource], serverID)
	}
}

// forgetAttachment drops an attachment that is not to be taken back: its own resource
// detached it, or the detach that set it aside did not happen.
func (r *asideRegistry) forgetAttachment(datasource, serverID string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.attachments[datasource] = slices.DeleteFunc(r.attachments[datasource], func(id string) bool { return id == serverID })
}

func (r *asideRegistry) takeAttachments(datasource string) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	ids := r.attachments[datasource]
	delete(r.attachments, datasource)
	return ids
}

func (r *asideRegistry) addDatasource(spec apm.DatasourceSpec) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.datasources[spec.DatabaseResourceName] = append(r.datasources[spec.DatabaseResourceName], spec)
}

// forgetDatasource drops a datasource that is not to be created again: its own resource
// deleted it, or the delete that set it aside did not happen.
func (r *asideRegistry) forgetDatasource(name string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for db, specs := range r.datasources {
		r.datasources[db] = slices.DeleteFunc(specs, func(s apm.DatasourceSpec) bool { return s.ResourceName == name })
	}
}

func (r *asideRegistry) takeDatasources(database string) []apm.DatasourceSpec {
	r.mu.Lock()
	defer r.mu.Unlock()
	specs := r.datasources[database]
	delete(r.datasources, database)
	return specs
}

// detachForReplacement detaches the datasource from every WAS server that has it,
// remembers each and names them. An attachment is remembered before its detach and kept
// only when that detach succeeds: an apm_was_datasource destroyed meanwhile forgets it
// after its own detach, so that an attachment the configuration removes is never taken
// back.
func detachForReplacement(ctx context.Context, c *conn, name string) ([]string, error) {
	holders, err := wasServersHolding(ctx, c, name)
	if err != nil {
		return nil, err
	}
	var detached []string
	for _, s := range holders {
		id, err := c.serverID(ctx, s.SystemName, s.NodeName, s.ServerID)
		if err != nil {
			return detached, fmt.Errorf("looking up the system of %s: %w", describeWAS(s.Ref()), err)
		}
		c.aside.addAttachment(name, id)
		err = c.DetachDatasource(ctx, s.Ref(), name)
		switch {
		case err == nil:
			detached = append(detached, describeWAS(s.Ref()))
		case apm.IsNotFoundAnswer(err):
			c.aside.forgetAttachment(name, id) // detached meanwhile, or the server is gone
		default:
			c.aside.forgetAttachment(name, id)
			return detached, fmt.Errorf("detaching datasource %q from %s: %w", name, describeWAS(s.Ref()), err)
		}
	}
	return detached, nil
}

// attachAgain attaches the datasource again to the WAS servers it was detached from for
// its replacement. A server that is gone is skipped; the error names each server that
// did not get it back.
func attachAgain(ctx context.Context, c *conn, name string) error {
	var failed []string
	for _, id := range c.aside.takeAttachments(name) {
		var where string
		err := c.onServerRef(ctx, apm.KindWAS, id, func(ref apm.ServerRef) error {
			where = describeWAS(ref)
			return c.AttachDatasource(ctx, ref, name)
		})
		switch {
		case err == nil, apm.ConflictOf(err) == apm.ConflictExists, engine.IsGone(err):
		default:
			if where == "" {
				where = fmt.Sprintf("the WAS server %q", id)
			}
			failed = append(failed, fmt.Sprintf("%s: %v", where, err))
		}
	}
	if len(failed) == 0 {
		return nil
	}
	return fmt.Errorf("datasource %q was detached for its replacement and could not be attached again to %s. "+
		"An apm_was_datasource that declares such an attachment makes it again on the next apply (the next plan shows it to be created); "+
		"attach the others again in the manager", name, strings.Join(failed, "; "))
}

// deleteDatasourcesForReplacement deletes the datasources on the database, after
// detaching each from its WAS servers, remembers them as they were, and names them.
func deleteDatasourcesForReplacement(ctx context.Context, c *conn, database string) ([]string, error) {
	all, err := c.ListDatasources(ctx)
	if err != nil {
		return nil, err
	}
	var deleted []string
	for _, ds := range all {
		if ds.DatabaseResourceName != database {
			continue
		}
		d, err := c.GetDatasource(ctx, ds.ResourceName)
		if engine.IsGone(err) {
			continue
		}
		if err != nil {
			return deleted, err
		}
		c.aside.addDatasource(apm.DatasourceSpec{ResourceName: d.ResourceName, DatabaseResourceName: database,
			MinPoolSize: &d.MinPoolSize, MaxPoolSize: &d.MaxPoolSize, InitialPoolSize: &d.InitialPoolSize, MaxWait: &d.MaxWait})
		// On an error, the engine's Restore creates what is remembered (one that still
		// exists is a conflict, which it takes as done) and attaches it again.
		detached, err := detachForReplacement(ctx, c, d.ResourceName)
		if err != nil {
			return deleted, err
		}
		if err := c.DeleteDatasource(ctx, d.ResourceName); err != nil {
			if !engine.IsGone(err) {
				return deleted, fmt.Errorf("deleting datasource %q: %w", d.ResourceName, err)
			}
			// Deleted meanwhile, by its own resource: neither it nor its attachments come back.
			c.aside.forgetDatasource(d.ResourceName)
			c.aside.takeAttachments(d.ResourceName)
			continue
		}
		what := fmt.Sprintf("datasource %q (deleted", d.ResourceName)
		if len(detached) > 0 {
			what += "; detached from " + strings.Join(detached, ", ")
		}
		deleted = append(deleted, what+")")
	}
	return deleted, nil
}

// createDatasourcesAgain creates the datasources deleted for the database's replacement
// as they were, and attaches them again.
func createDatasourcesAgain(ctx context.Context, c *conn, database string) error {
	var errs []error
	for _, spec := range c.aside.takeDatasources(database) {
		err := c.CreateDatasource(ctx, spec)
		if err != nil && apm.ConflictOf(err) != apm.ConflictExists {
			errs = append(errs, fmt.Errorf("datasource %q was deleted for the replacement of database %q and could not be created again: %w. "+
				"Its apm_datasource, if any, creates it on the next apply; otherwise create it again in the manager "+
				"(min_pool_size %d, max_pool_size %d, initial_pool_size %d, max_wait %d)%s",
				spec.ResourceName, database, err, *spec.MinPoolSize, *spec.MaxPoolSize, *spec.InitialPoolSize, *spec.MaxWait,
				attachedTo(c.aside.takeAttachments(spec.ResourceName))))
			continue
		}
		errs = append(errs, attachAgain(ctx, c, spec.ResourceName))
	}
	return errors.Join(errs...)
}

// attachedTo says which WAS servers a datasource that could not be created again must be
// attached to.
func attachedTo(serverIDs []string) string {
	if len(serverIDs) == 0 {
		return ""
	}
	return fmt.Sprintf(", and attach it to the WAS servers %s (<system_id>/<node>/<server_id>)", strings.Join(serverIDs, ", "))
}

// wasServersHolding lists the WAS servers that have the datasource attached, as far as
// their details report it, by system, node and server id.
func wasServersHolding(ctx context.Context, c *conn, name string) ([]apm.Server, error) {
	servers, err := c.ListServers(ctx, apm.KindWAS)
	if err != nil {
		return nil, err
	}
	var out []apm.Server
	for _, s := range servers {
		detail, err := c.GetServer(ctx, s.Ref())
		if err != nil {
			if engine.IsGone(err) {
				continue
			}
			return nil, err
		}
		if slices.Contains(detail.Datasources, name) {
			out = append(out, s)
		}
	}
	slices.SortFunc(out, func(a, b apm.Server) int {
		return cmp.Or(cmp.Compare(a.SystemName, b.SystemName), cmp.Compare(a.NodeName, b.NodeName), cmp.Compare(a.ServerID, b.ServerID))
	})
	return out, nil
}

func describeWAS(ref apm.ServerRef) string {
	return fmt.Sprintf("WAS server %q on node %q of system %q", ref.ServerID, ref.NodeName, ref.SystemName)
}
