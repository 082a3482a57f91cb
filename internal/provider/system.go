package provider

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
)

// A system is a named group of nodes. The manager addresses it by name, which can change
// (PUT renames it); its systemId does not, so Terraform and children hold on to the id.

var systemFields = []engine.Field[apm.System]{
	engine.StringField(attrID, "The manager's `systemId`. It stays the same when the system is renamed: refer to a system by it, as in `system_id = apm_system.example.id`.",
		func(s *apm.System) string { return s.SystemID }),
	engine.StringField(attrName, "Name of the system: 1 to 20 letters, digits, `-` or `_`.",
		func(s *apm.System) string { return s.SystemName }).Input().Validate(systemNameValidators()...),
	engine.Int64Field("node_count", "Number of nodes in the system.", systemNodeCount).In(engine.Observed),
	engine.Int64Field("web_count", "Number of web servers in the system.", func(s *apm.System) int64 { return s.WebCount }).In(engine.InList),
	engine.Int64Field("app_count", "Number of WAS (application) servers in the system.", func(s *apm.System) int64 { return s.AppCount }).In(engine.InList),
	engine.Int64Field("session_count", "Number of session servers in the system.", func(s *apm.System) int64 { return s.SessionCount }).In(engine.InList),
	engine.Int64Field("cache_count", "Number of cache servers in the system.", func(s *apm.System) int64 { return s.CacheCount }).In(engine.InList),
	engine.ListField("nodes", "The nodes of the system, sorted by name.", systemNodeFields, sortedSystemNodes).In(engine.InDetail),
}

var systemNodeFields = []engine.Field[apm.SystemNode]{
	engine.StringField(attrName, "Name of the node.", func(n *apm.SystemNode) string { return n.NodeName }),
	engine.StringField(attrHostIP, "IP address of the node's host.", func(n *apm.SystemNode) string { return n.HostIP }),
	engine.StringField(attrStatus, "Status of the node, for example `running`.", func(n *apm.SystemNode) string { return n.Status }),
}

// systemNodeCount counts the nodes of a detail read; the list read reports the count.
func systemNodeCount(s *apm.System) int64 {
	if s.Nodes != nil {
		return int64(len(s.Nodes))
	}
	return s.NodeCount
}

// sortedSystemNodes orders the nodes by name, so that the manager's order makes no diff.
func sortedSystemNodes(s *apm.System) []apm.SystemNode {
	return slices.SortedFunc(slices.Values(s.Nodes), func(a, b apm.SystemNode) int { return strings.Compare(a.NodeName, b.NodeName) })
}

var systemImportID = importID{
	Parts: []idPart{{
		Attr: attrID, Form: "<system>", Accepts: "the system's name or id", FromPlan: attrName,
		Resolve: func(ctx context.Context, c *conn, ref string) (string, error) { return c.resolveSystem(ctx, ref) },
	}},
	Example: "shop",
}

var newSystemResource = engine.NewResource(systemType)

var systemType = resourceType[apm.System]{
	Name:          "system",
	Description:   "A system: a named group of nodes and the servers on them. Changing `name` renames the system in place; nodes refer to it by `id`, which a rename keeps, so they are not touched. Deleting a system waits until its nodes are gone.",
	Fields:        systemFields,
	ImportID:      systemImportID,
	REST:          &engine.RESTObject{Path: "/rest/systems/{systemName}", ImportID: "{systemName}"},
	DeleteTimeout: 10 * time.Minute,
	Describe:      func(a engine.Attrs) string { return fmt.Sprintf("system %q", a.Str(attrName)) },
	Create: func(ctx context.Context, c *conn, plan engine.Attrs) error {
		return c.CreateSystem(ctx, plan.Str(attrName))
	},
	Read: readSystem,
	Update: func(ctx context.Context, c *conn, plan, state engine.Attrs) error {
		return c.RenameSystem(ctx, state.Str(attrName), plan.Str(attrName))
	},
	Delete: func(ctx context.Context, c *conn, state engine.Attrs) error {
		return c.DeleteSystem(ctx, state.Str(attrName))
	},
	Blockers: func(ctx context.Context, c *conn, state engine.Attrs) ([]engine.Blocker, error) {
		s, err := c.getSystem(ctx, state.Str(attrName))
		if err != nil {
			return nil, err
		}
		held := make([]engine.Blocker, 0, len(s.Nodes))
		for _, n := range sortedSystemNodes(s) {
			held = append(held, engine.HeldBy(fmt.Sprintf("node %q", n.NodeName), s.SystemID+"/"+n.NodeName, "apm_node"))
		}
		return held, nil
	},
}

// readSystem reads the system by its name (one GET). When that name is gone, the system
// may have been renamed by someone else: it is looked up by its id in one list, so the
// plan renames it back instead of creating a second system.
func readSystem(ctx context.Context, c *conn, state engine.Attrs) (*apm.System, error) {
	id := state.Str(attrID)
	if state.Known(attrName) {
		s, err := c.getSystem(ctx, state.Str(attrName))
		switch {
		case err == nil && (id == "" || s.SystemID == id):
			return s, nil
		case err != nil && !apm.IsNotFound(err):
			return nil, err
		}
	}
	if id == "" {
		return nil, engine.ErrGone
	}
	systems, err := c.listSystems(ctx)
	if err != nil {
		return nil, err
	}
	for i := range systems {
		if systems[i].SystemID == id {
			return &systems[i], nil
		}
	}
	return nil, engine.ErrGone
}

var newSystemDataSource = engine.NewDataSource(dataSourceType[apm.System]{
	Name:        "system",
	Description: "Reads one system by name, with its nodes.",
	Fields:      systemFields,
	Keys:        []string{attrName},
	Read: func(ctx context.Context, c *conn, config engine.Attrs) (*apm.System, error) {
		return c.getSystem(ctx, config.Str(attrName))
	},
})

var newSystemsDataSource = engine.NewListDataSource(listDataSourceType[apm.System]{
	Name:            "systems",
	Description:     "Lists every system of the manager, sorted by name, with its node and server counts.",
	ListName:        "systems",
	ListDescription: "The systems.",
	Fields:          systemFields,
	SortBy:          func(s *apm.System) string { return s.SystemName },
	List:            func(ctx context.Context, c *conn, _ engine.Attrs) ([]apm.System, error) { return c.listSystems(ctx) },
	Imports:         systemType.Target(),
})
