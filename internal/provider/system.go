package provider

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
)

// A system is a named group of nodes. The manager addresses it by name, which can change
// (PUT renames it); its systemId does not, so Terraform and children hold on to the id.

var systemFields = []field[apm.System]{
	stringField("id", "The manager's `systemId`. It stays the same when the system is renamed: refer to a system by it, as in `system_id = apm_system.example.id`.",
		func(s *apm.System) string { return s.SystemID }),
	stringField("name", "Name of the system: 1 to 20 letters, digits, `-` or `_`.",
		func(s *apm.System) string { return s.SystemName }).input().validate(systemNameValidators()...),
	int64Field("node_count", "Number of nodes in the system.", systemNodeCount).in(observed),
	int64Field("web_count", "Number of web servers in the system.", func(s *apm.System) int64 { return s.WebCount }).in(inList),
	int64Field("app_count", "Number of WAS (application) servers in the system.", func(s *apm.System) int64 { return s.AppCount }).in(inList),
	int64Field("session_count", "Number of session servers in the system.", func(s *apm.System) int64 { return s.SessionCount }).in(inList),
	int64Field("cache_count", "Number of cache servers in the system.", func(s *apm.System) int64 { return s.CacheCount }).in(inList),
	listField("nodes", "The nodes of the system, sorted by name.", systemNodeFields, sortedSystemNodes).in(inDetail),
}

var systemNodeFields = []field[apm.SystemNode]{
	stringField("name", "Name of the node.", func(n *apm.SystemNode) string { return n.NodeName }),
	stringField("host_ip", "IP address of the node's host.", func(n *apm.SystemNode) string { return n.HostIP }),
	stringField("status", "Status of the node, for example `running`.", func(n *apm.SystemNode) string { return n.Status }),
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

var systemIdentity = importID{
	parts: []idPart{{
		attr: "id", form: "<system>", accepts: "the system's name or id", fromPlan: "name",
		resolve: func(ctx context.Context, m *manager, ref string) (string, error) { return m.resolveSystem(ctx, ref) },
	}},
	example: "shop",
}

var newSystemResource = NewResource(resourceType[apm.System]{
	name:          "system",
	description:   "A system: a named group of nodes and the servers on them. Changing `name` renames the system in place; nodes refer to it by `id`, which a rename keeps, so they are not touched. Deleting a system waits until its nodes are gone.",
	fields:        systemFields,
	importID:      systemIdentity,
	deleteTimeout: 10 * time.Minute,
	describe:      func(a attrs) string { return fmt.Sprintf("system %q", a.str("name")) },
	create: func(ctx context.Context, m *manager, plan attrs) error {
		return m.CreateSystem(ctx, plan.str("name"))
	},
	read: readSystem,
	update: func(ctx context.Context, m *manager, plan, state attrs) error {
		return m.RenameSystem(ctx, state.str("name"), plan.str("name"))
	},
	delete: func(ctx context.Context, m *manager, state attrs) error {
		return m.DeleteSystem(ctx, state.str("name"))
	},
	blockers: func(ctx context.Context, m *manager, state attrs) ([]string, error) {
		s, err := m.getSystem(ctx, state.str("name"))
		if err != nil {
			return nil, err
		}
		names := make([]string, 0, len(s.Nodes))
		for _, n := range sortedSystemNodes(s) {
			names = append(names, fmt.Sprintf("node %q", n.NodeName))
		}
		return names, nil
	},
})

// readSystem reads the system by its name (one GET). When that name is gone, the system
// may have been renamed by someone else: it is looked up by its id in one list, so the
// plan renames it back instead of creating a second system.
func readSystem(ctx context.Context, m *manager, state attrs) (*apm.System, error) {
	id := state.str("id")
	if state.known("name") {
		s, err := m.getSystem(ctx, state.str("name"))
		switch {
		case err == nil && (id == "" || s.SystemID == id):
			return s, nil
		case err != nil && !apm.IsNotFound(err):
			return nil, err
		}
	}
	if id == "" {
		return nil, errGone
	}
	systems, err := m.listSystems(ctx)
	if err != nil {
		return nil, err
	}
	for i := range systems {
		if systems[i].SystemID == id {
			return &systems[i], nil
		}
	}
	return nil, errGone
}

var newSystemDataSource = NewDataSource(dataSourceType[apm.System]{
	name:        "system",
	description: "Reads one system by name, with its nodes. Fails when the system does not exist.",
	fields:      systemFields,
	keys:        []string{"name"},
	read: func(ctx context.Context, m *manager, config attrs) (*apm.System, error) {
		return m.getSystem(ctx, config.str("name"))
	},
})

var newSystemsDataSource = NewListDataSource(listDataSourceType[apm.System]{
	name:        "systems",
	description: "Lists every system of the manager, sorted by name, with its node and server counts.",
	listName:    "systems",
	listDesc:    "The systems.",
	fields:      systemFields,
	list: func(ctx context.Context, m *manager, _ attrs) ([]apm.System, error) {
		systems, err := m.listSystems(ctx)
		slices.SortFunc(systems, func(a, b apm.System) int { return strings.Compare(a.SystemName, b.SystemName) })
		return systems, err
	},
})
