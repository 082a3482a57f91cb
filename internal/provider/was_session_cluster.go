package provider

import (
	"context"
	"fmt"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
	"github.com/hashicorp/terraform-plugin-framework-validators/resourcevalidator"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// wasSessionCluster is the session clustering of the WAS server ServerID.
type wasSessionCluster struct {
	ServerID string // <system_id>/<node>/<server_id>
	apm.SessionCluster
	// reported is false when the manager's detail left sessionCluster out (a terse
	// manager, api/decisions.md rule 2): state keeps what was applied.
	reported bool
}

func clusterReported(c *wasSessionCluster) bool { return c.reported }

var wasSessionClusterFields = []engine.Field[wasSessionCluster]{
	engine.StringField(attrID, "The WAS server's id, `<system_id>/<node>/<server_id>`: a server has at most one session clustering.",
		func(c *wasSessionCluster) string { return c.ServerID }),
	wasServerRefField(func(c *wasSessionCluster) string { return c.ServerID }),
	engine.StringField(attrPrimaryHost, "Host name or IP address of the primary session server.",
		func(c *wasSessionCluster) string { return c.PrimaryHost }).Input().Validate(hostValidators()...).ReportedWhen(clusterReported),
	engine.Int64Field(attrPrimaryPort, "Port of the primary session server, 1 to 65535.",
		func(c *wasSessionCluster) int64 { return c.PrimaryPort }).Input().ValidateInt64(portValidators()...).ReportedWhen(clusterReported),
	// The manager replaces the whole set-up on every write, so a secondary server left out
	// of the configuration means none: unlike an optional input of the engine (unmanaged
	// when left out), a secondary server added outside Terraform shows as drift.
	engine.CustomField(attrSecondaryHost, rschema.StringAttribute{
		MarkdownDescription: "Host name or IP address of the secondary session server; set it together with `secondary_port`. " +
			"Left out, the clustering has no secondary server (one added outside Terraform shows in the next plan). Updated in place.",
		Optional: true, Validators: hostValidators(),
	}, tftypes.String, func(c *wasSessionCluster) tftypes.Value {
		if c.SecondaryHost == "" {
			return tftypes.NewValue(tftypes.String, nil)
		}
		return tftypes.NewValue(tftypes.String, c.SecondaryHost)
	}).ReportedWhen(clusterReported).
		WithDataAttribute(dschema.StringAttribute{MarkdownDescription: "Host name or IP address of the secondary session server; null when there is none.", Computed: true}),
	engine.CustomField(attrSecondaryPort, rschema.Int64Attribute{
		MarkdownDescription: "Port of the secondary session server, 1 to 65535; set it together with `secondary_host`. Updated in place.",
		Optional:            true, Validators: portValidators(),
	}, tftypes.Number, func(c *wasSessionCluster) tftypes.Value {
		if c.SecondaryPort == 0 {
			return tftypes.NewValue(tftypes.Number, nil)
		}
		return engine.Int64Value(c.SecondaryPort)
	}).ReportedWhen(clusterReported).
		WithDataAttribute(dschema.Int64Attribute{MarkdownDescription: "Port of the secondary session server; null when there is none.", Computed: true}),
}

var wasSessionClusterType = resourceType[wasSessionCluster]{
	Noun:             "session clustering",
	IdempotentCreate: true,
	Name:             "was_session_cluster",
	Description: "The session clustering of a WAS server: the session servers that hold its HTTP sessions, so that another server of the cluster can take them over. " +
		"A server has at most one; every change is applied in place, as the manager replaces the whole set-up. " +
		"Creating it where the server has session clustering already fails (import it instead); destroying it removes the session clustering.",
	Fields:     wasSessionClusterFields,
	References: []reference{refersTo(attrWASServerID, wasServerParent)},
	ImportID: importID{
		Parts:   []idPart{serverRefPart(attrWASServerID)},
		Example: "shop/app-01/was-1",
		Noun:    "server",
	},
	Describe: func(a engine.Attrs) string { return "session clustering of " + wasPartServer(a) },
	Validators: []resource.ConfigValidator{
		resourcevalidator.RequiredTogether(path.MatchRoot(attrSecondaryHost), path.MatchRoot(attrSecondaryPort)),
	},
	Create: createWASSessionCluster,
	Read:   readWASSessionCluster,
	Update: func(ctx context.Context, c *conn, plan, _ engine.Attrs) error {
		return c.onServerRef(ctx, apm.KindWAS, plan.Str(attrWASServerID), func(ref apm.ServerRef) error {
			return c.SetSessionCluster(ctx, ref, sessionClusterOf(plan))
		})
	},
	// A server without session clustering answers 404 "Session clustering not found:
	// <server>", which means gone: done.
	Delete: func(ctx context.Context, c *conn, state engine.Attrs) error {
		return c.onServerRef(ctx, apm.KindWAS, state.Str(attrWASServerID), func(ref apm.ServerRef) error {
			return c.RemoveSessionCluster(ctx, ref)
		})
	},
}

func sessionClusterOf(a engine.Attrs) apm.SessionCluster {
	return apm.SessionCluster{
		PrimaryHost: a.Str(attrPrimaryHost), PrimaryPort: a.Int64(attrPrimaryPort),
		SecondaryHost: a.Str(attrSecondaryHost), SecondaryPort: a.Int64(attrSecondaryPort),
	}
}

// createWASSessionCluster sets the session clustering up. The manager's POST replaces
// whatever the server has, so that a create would silently take over a set-up that
// someone else made: the server is read first, and one that has session clustering is a
// conflict, for which the engine offers import (or adopts it with adopt_existing).
func createWASSessionCluster(ctx context.Context, c *conn, plan engine.Attrs) error {
	return c.onServerRef(ctx, apm.KindWAS, plan.Str(attrWASServerID), func(ref apm.ServerRef) error {
		srv, err := c.GetServer(ctx, ref)
		if err != nil {
			return err
		}
		if srv.SessionCluster != nil {
			return clusterExistsError{ref: ref, cluster: *srv.SessionCluster}
		}
		return c.SetSessionCluster(ctx, ref, sessionClusterOf(plan))
	})
}

// clusterExistsError is a create of session clustering that found one there already. It
// is a conflict (apm.IsConflict) like the manager's own 409s, so that the engine treats it
// as an object that exists already.
type clusterExistsError struct {
	ref     apm.ServerRef
	cluster apm.SessionCluster
}

func (e clusterExistsError) Error() string {
	return fmt.Sprintf("WAS server %q on node %q of system %q already has session clustering (primary %s:%d), and setting it up would replace it; nothing was sent",
		e.ref.ServerID, e.ref.NodeName, e.ref.SystemName, e.cluster.PrimaryHost, e.cluster.PrimaryPort)
}

func (e clusterExistsError) Unwrap() error {
	return apm.NewConflict(e.Error())
}

// readWASSessionCluster reads the server's detail: a server that reports no session
// clustering has none (gone); one that does not report the field keeps the state.
func readWASSessionCluster(ctx context.Context, c *conn, a engine.Attrs) (*wasSessionCluster, error) {
	id := a.Str(attrWASServerID)
	srv, err := getWASPartServer(ctx, c, id)
	if err != nil {
		return nil, err
	}
	cluster := &wasSessionCluster{ServerID: id, reported: srv.Reported.SessionCluster}
	if !cluster.reported {
		return cluster, nil
	}
	if srv.SessionCluster == nil {
		return nil, fmt.Errorf("%s has no session clustering: %w", wasPartServer(a), engine.ErrGone)
	}
	cluster.SessionCluster = *srv.SessionCluster
	return cluster, nil
}

// listWASSessionClusters is the session clustering of the WAS server whose id is
// serverID, as a list of at most one: one read of its detail.
func listWASSessionClusters(ctx context.Context, c *conn, serverID string) ([]wasSessionCluster, error) {
	srv, err := getWASPartServer(ctx, c, serverID)
	if err != nil {
		return nil, err
	}
	if !srv.Reported.SessionCluster {
		return nil, notReportedError(wasServerNamed(serverID), "session clustering", "apm_was_session_cluster", serverID)
	}
	if srv.SessionCluster == nil {
		return nil, nil
	}
	return []wasSessionCluster{{ServerID: serverID, SessionCluster: *srv.SessionCluster, reported: true}}, nil
}

var newWASSessionClustersDataSource = engine.NewListDataSource(listDataSourceType[wasSessionCluster]{
	Name: "was_session_clusters",
	Description: "Lists the session clustering of one WAS server, with the ID to import it as `apm_was_session_cluster`: " +
		"one item when the server has session clustering, none when it has not.",
	ListName:        "session_clusters",
	ListDescription: "The server's session clustering: at most one.",
	Fields:          wasSessionClusterFields,
	Filters:         wasServerFilter("session clustering"),
	List: func(ctx context.Context, c *conn, config engine.Attrs) ([]wasSessionCluster, error) {
		return listWASSessionClusters(ctx, c, config.Str(attrWASServerID))
	},
	Imports: wasSessionClusterType.Target(),
})
