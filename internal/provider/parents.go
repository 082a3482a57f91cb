package provider

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
)

// The objects that others name by their id, and how plan finds one (engine.Parent): each
// with one GET, saying, when the manager has none, what it has instead by the names users
// know it by. A type declares its references with them (engine.Reference).

type (
	parent    = engine.Parent[*conn]
	reference = engine.Reference[*conn]
)

// refersTo is the reference of attr to p.
func refersTo(attr string, p parent) reference { return reference{Attr: attr, To: p} }

// systemParent is a system by its id, which is not its import ID (the name).
var systemParent = parent{
	Noun: "system", Refer: "apm_system.example.id", List: "apm_systems",
	Find: func(ctx context.Context, c *conn, id string) (string, error) {
		missing := fmt.Sprintf("the manager has no system with the id %q (refer to a system by its id, such as apm_system.example.id, not by its name)", id)
		if c.systems.missing(id) {
			return missing, nil // the list of all systems, read at start, says so
		}
		_, err := c.systemName(ctx, id)
		return notFoundAs(err, missing)
	},
}

var nodeParent = parent{
	Type: "apm_node", Noun: "node", Refer: "apm_node.example.id", List: "apm_nodes",
	Find: func(ctx context.Context, c *conn, id string) (string, error) {
		err := c.onNodeRef(ctx, id, func(systemName, nodeName string) error {
			_, err := c.GetNode(ctx, systemName, nodeName)
			if engine.GoneWithParent(err) {
				return fmt.Errorf("the manager has no node %q in system %q: %w", nodeName, systemName, engine.ErrGone)
			}
			return err
		})
		return missingOrError(err)
	},
}

var (
	wasServerParent = serverParent(apm.KindWAS, apm.KindWeb)
	webServerParent = serverParent(apm.KindWeb, apm.KindWAS)
)

// serverParent is the server of kind; a miss also asks whether the id is a server of the
// other kind, the usual mix-up (a web server's id given to a WAS server's part).
func serverParent(kind, other apm.ServerKind) parent {
	return parent{
		Type: "apm_" + string(kind) + "_server", Noun: serverLabel(kind), Refer: "apm_" + string(kind) + "_server.example.id", List: "apm_" + string(kind) + "_servers",
		Find: func(ctx context.Context, c *conn, id string) (string, error) {
			err := c.onServerRef(ctx, kind, id, func(ref apm.ServerRef) error {
				_, err := c.GetServer(ctx, ref)
				if !engine.GoneWithParent(err) {
					return err
				}
				return fmt.Errorf("%s: %w", serverMissing(ctx, c, ref, other, err), engine.ErrGone)
			})
			return missingOrError(err)
		},
	}
}

// serverMissing says that the manager has no server ref, and what it has there instead:
// a server of the other kind with the id, or no node at all (err, the manager's answer).
func serverMissing(ctx context.Context, c *conn, ref apm.ServerRef, other apm.ServerKind, err error) string {
	says := "the manager has no " + serverNamed(ref)
	if !apm.IsNotFound(err) {
		// Not the server's own 404: its node (or system) is what is missing.
		return fmt.Sprintf("%s (it answers: %s)", says, apmMessage(err))
	}
	twin := ref
	twin.Kind = other
	if _, oerr := c.GetServer(ctx, twin); oerr == nil {
		return fmt.Sprintf("%s; %q there is a %s, which this attribute cannot name", says, ref.ServerID, serverLabel(other))
	}
	return says
}

// apmMessage is the manager's own message in err, else the whole error.
func apmMessage(err error) string {
	var e *apm.Error
	if errors.As(err, &e) && e.Message != "" {
		return e.Message
	}
	return err.Error()
}

var (
	userParent = parent{
		Type: "apm_user", Noun: "user", Refer: "apm_user.example.id", List: "apm_users",
		Find: func(ctx context.Context, c *conn, id string) (string, error) {
			_, err := c.GetUser(ctx, id)
			return notFoundAs(err, fmt.Sprintf("the manager has no user with the user_id %q", id))
		},
	}
	roleParent = parent{
		Type: "apm_role", Noun: "role", Refer: "apm_role.example.id", List: "apm_roles",
		Find: func(ctx context.Context, c *conn, id string) (string, error) {
			_, err := c.GetRole(ctx, id)
			return notFoundAs(err, fmt.Sprintf("the manager has no role with the role_id %q", id))
		},
	}
	databaseParent = parent{
		Type: "apm_database", Noun: "database", Refer: "apm_database.example.id", List: "apm_databases",
		Find: func(ctx context.Context, c *conn, id string) (string, error) {
			_, err := c.GetDatabase(ctx, id)
			return notFoundAs(err, fmt.Sprintf("the manager has no database with the resource_name %q", id))
		},
	}
	datasourceParent = parent{
		Type: "apm_datasource", Noun: "datasource", Refer: "apm_datasource.example.id", List: "apm_datasources",
		Find: func(ctx context.Context, c *conn, id string) (string, error) {
			_, err := c.GetDatasource(ctx, id)
			return notFoundAs(err, fmt.Sprintf("the manager has no datasource with the resource_name %q", id))
		},
	}
)

// notFoundAs is what a Find returns for the read err: missing when the manager said that
// the object does not exist, the error when the read failed otherwise.
func notFoundAs(err error, missing string) (string, error) {
	switch {
	case err == nil:
		return "", nil
	case engine.GoneWithParent(err):
		return missing, nil
	default:
		return "", err
	}
}

// missingOrError splits what a Find's read gave: a sentence of its own wrapped with
// ErrGone (or the provider's finding that no system has the id) is the object missing.
func missingOrError(err error) (string, error) {
	if err == nil {
		return "", nil
	}
	if engine.GoneWithParent(err) {
		return trimGone(err.Error()), nil
	}
	return "", err
}

// trimGone is the text of a miss without the ErrGone it was wrapped with.
func trimGone(text string) string {
	return strings.TrimSuffix(text, ": "+engine.ErrGone.Error())
}
