package apmsim

import (
	"cmp"
	"encoding/json"
	"hash/fnv"
	"net/http"
	"slices"
	"strings"
	"time"
)

// WAS-only parts of the servers area (spec 4.2): the list and detail bodies, the delete
// guard for a server with parts, session clustering, datasources, applications and
// resource import.

// WAS editions: "S"/"E" in bodies and details, Standard/Enterprise in the registerable
// list (api/decisions.md).
const (
	wasStandard   = "S"
	wasEnterprise = "E"
)

// parseWASServerType accepts S, E, Standard or Enterprise in any case.
func parseWASServerType(v string) (string, error) {
	switch strings.ToLower(v) {
	case "s", "standard":
		return wasStandard, nil
	case "e", "enterprise":
		return wasEnterprise, nil
	}
	return "", badRequest("Invalid serverType: %s (allowed: S, E, Standard, Enterprise)", v)
}

func wasEditionName(code string) string {
	if code == wasEnterprise {
		return "Enterprise"
	}
	return "Standard"
}

type wasSessionCluster struct {
	PrimaryHost   string `json:"primaryHost"`
	PrimaryPort   int    `json:"primaryPort"`
	SecondaryHost string `json:"secondaryHost,omitempty"`
	SecondaryPort int    `json:"secondaryPort,omitempty"`
}

type wasApplication struct {
	ContextPath string `json:"contextPath"`
	SourcePath  string `json:"sourcePath"`
	Name        string `json:"applicationName"`
	// DeployedAt is when it was deployed: it deploys for the transition delay after
	// that, and after every start of its server (applicationState).
	DeployedAt time.Time `json:"deployedAt,omitzero"`
}

// applicationState is the status of app on sv at now: its server's status, except that
// an application is "deploying" for the transition delay after its server has started
// and after it was deployed, as a real manager's applications are not serving the
// moment their server runs.
func (a serversArea) applicationState(sv *simServer, app wasApplication, now time.Time) string {
	status := sv.statusAt(now)
	if status != srvRunning {
		return status
	}
	since := sv.TransitionEnd
	if app.DeployedAt.After(since) {
		since = app.DeployedAt
	}
	if now.Before(since.Add(a.s.transitionDelay)) {
		return "deploying"
	}
	return status
}

// wasListItemJSON is an element of GET /rest/was/servers (api/decisions.md).
type wasListItemJSON struct {
	ServerID   string `json:"serverId"`
	NodeName   string `json:"nodeName"`
	SystemName string `json:"systemName"`
	HTTPPort   int    `json:"httpPort"`
	ServerType string `json:"serverType"`
	Status     string `json:"status"`
}

func wasListJSON(v serverView) any {
	return wasListItemJSON{v.sv.ServerID, v.node.Name, v.system, v.sv.Ports["httpPort"], v.sv.ServerType, v.status}
}

// wasServerDetailJSON is the WAS detail (api/decisions.md); ajpPort 0 means none. The
// assumption fields are left out, not null, when optional fields are omitted. What was
// imported with POST .../resource is not shown: the decisions give the detail no such
// field, and an imported datasource shows under datasources.
type wasServerDetailJSON struct {
	ServerID        string `json:"serverId"`
	NodeName        string `json:"nodeName"`
	SystemName      string `json:"systemName"`
	HTTPPort        int    `json:"httpPort"`
	AJPPort         int    `json:"ajpPort"`
	ServerType      string `json:"serverType"`
	Status          string `json:"status"`
	JavaHome        string `json:"javaHome"`
	InstallRootPath string `json:"installRootPath"`
	*wasAssumedJSON
}

// wasAssumedJSON holds the WAS detail fields that api/decisions.md marks as assumptions.
type wasAssumedJSON struct {
	SessionCluster *wasSessionCluster `json:"sessionCluster"`
	Datasources    []string           `json:"datasources"`
}

func wasDetailJSON(v serverView) any {
	sv := v.sv
	out := wasServerDetailJSON{
		ServerID: sv.ServerID, NodeName: v.node.Name, SystemName: v.system,
		HTTPPort: sv.Ports["httpPort"], AJPPort: sv.Ports["ajpPort"], ServerType: sv.ServerType,
		Status: v.status, JavaHome: sv.JavaHome, InstallRootPath: sv.Home,
	}
	if !v.omitOptional {
		out.wasAssumedJSON = &wasAssumedJSON{SessionCluster: sv.Cluster, Datasources: append([]string{}, sv.Datasources...)}
	}
	return out
}

func (a serversArea) registerWAS(r *router, one string) {
	r.handle("POST "+one+"/session", a.setCluster)
	r.handle("DELETE "+one+"/session", a.removeCluster)
	r.handle("POST "+one+"/datasource", a.attachDatasource)
	r.handle("DELETE "+one+"/datasource", a.detachDatasource)
	r.handle("POST "+one+"/application", a.deploy)
	r.handle("DELETE "+one+"/application", a.undeploy)
	r.handle("GET "+one+"/applications/status", a.applicationStatus)
	r.handle("POST "+one+"/resource", a.importResource)
}

// ---- delete guard ----

// wasPartsConflict is the 409 for deleting a WAS server that still has parts, nil when it
// has none: "Server <id> still has session clustering, datasource(s) a, b,
// application(s) /x; remove them first", naming only the kinds present, in that order,
// each list sorted.
func wasPartsConflict(sv *simServer) error {
	var parts []string
	if sv.Cluster != nil {
		parts = append(parts, "session clustering")
	}
	if len(sv.Datasources) > 0 {
		parts = append(parts, "datasource(s) "+strings.Join(slices.Sorted(slices.Values(sv.Datasources)), ", "))
	}
	if len(sv.Apps) > 0 {
		paths := make([]string, 0, len(sv.Apps))
		for _, app := range sv.Apps {
			paths = append(paths, app.ContextPath)
		}
		slices.Sort(paths)
		parts = append(parts, "application(s) "+strings.Join(paths, ", "))
	}
	if len(parts) == 0 {
		return nil
	}
	return conflict("Server %s still has %s; remove them first", sv.ServerID, strings.Join(parts, ", "))
}

// ---- session clustering ----

type wasSessionBody struct {
	PrimaryHost   string          `json:"primaryHost"`
	PrimaryPort   json.RawMessage `json:"primaryPort"`
	SecondaryHost string          `json:"secondaryHost"`
	SecondaryPort json.RawMessage `json:"secondaryPort"`
	cluster       wasSessionCluster
}

func (b *wasSessionBody) check() error {
	primary, havePrimary, err := intField("primaryPort", b.PrimaryPort)
	switch {
	case b.PrimaryHost == "":
		return badRequest("primaryHost is required")
	case err == nil && !havePrimary:
		return badRequest("primaryPort is required")
	case err != nil:
		return err
	}
	if err := validPort("primaryPort", primary); err != nil {
		return err
	}
	secondary, haveSecondary, err := intField("secondaryPort", b.SecondaryPort)
	switch {
	case err != nil:
		return err
	case haveSecondary && b.SecondaryHost == "":
		return badRequest("secondaryHost is required with secondaryPort")
	case !haveSecondary && b.SecondaryHost != "":
		return badRequest("secondaryPort is required with secondaryHost")
	case haveSecondary:
		if err := validPort("secondaryPort", secondary); err != nil {
			return err
		}
	}
	b.cluster = wasSessionCluster{b.PrimaryHost, primary, b.SecondaryHost, secondary}
	return nil
}

// setCluster sets or replaces the session clustering.
func (a serversArea) setCluster(w http.ResponseWriter, r *http.Request) {
	var body wasSessionBody
	if !decodeServerBody(w, r, &body, (*wasSessionBody).check) {
		return
	}
	a.change(w, r, wasKind, func(_ *world, sv *simServer) error {
		c := body.cluster
		sv.Cluster = &c
		return nil
	})
}

// removeCluster removes the session clustering; a server without one is a 404, so that
// a retried DELETE reads as "already gone".
func (a serversArea) removeCluster(w http.ResponseWriter, r *http.Request) {
	a.change(w, r, wasKind, func(_ *world, sv *simServer) error {
		if sv.Cluster == nil {
			return notFound("Session clustering not found: %s", sv.ServerID)
		}
		sv.Cluster = nil
		return nil
	})
}

// ---- datasources ----

type wasDatasourceBody struct {
	ResourceName string `json:"resourceName"`
}

func (b *wasDatasourceBody) check() error {
	if b.ResourceName == "" {
		return badRequest("resourceName is required")
	}
	return nil
}

func (a serversArea) attachDatasource(w http.ResponseWriter, r *http.Request) {
	var body wasDatasourceBody
	if !decodeServerBody(w, r, &body, (*wasDatasourceBody).check) {
		return
	}
	a.change(w, r, wasKind, func(wd *world, sv *simServer) error {
		if !a.s.datasourceExists(wd, body.ResourceName) {
			return notFound("Datasource not found: %s", body.ResourceName)
		}
		if slices.Contains(sv.Datasources, body.ResourceName) {
			return conflict("Datasource already attached: %s", body.ResourceName)
		}
		attachDatasourceTo(sv, body.ResourceName)
		return nil
	})
}

func attachDatasourceTo(sv *simServer, name string) {
	if !slices.Contains(sv.Datasources, name) {
		sv.Datasources = append(sv.Datasources, name)
		slices.Sort(sv.Datasources)
	}
}

// datasourceHolders implements datasourceHolder: the WAS servers the datasource is
// attached to, each as "<serverId> (<nodeName>/<systemName>)", sorted by serverId, then
// node name, then system name.
func (a serversArea) datasourceHolders(wd *world, name string) []string {
	type holder struct{ server, node, system string }
	var hs []holder
	for _, sv := range serversState.of(wd).Servers {
		if sv.Kind != serverKindWAS || !slices.Contains(sv.Datasources, name) {
			continue
		}
		n := wd.nodes[sv.NodeID]
		hs = append(hs, holder{sv.ServerID, n.Name, wd.systems[n.SystemID].Name})
	}
	slices.SortFunc(hs, func(x, y holder) int {
		return cmp.Or(cmp.Compare(x.server, y.server), cmp.Compare(x.node, y.node), cmp.Compare(x.system, y.system))
	})
	out := make([]string, len(hs))
	for i, h := range hs {
		out[i] = h.server + " (" + h.node + "/" + h.system + ")"
	}
	return out
}

func (a serversArea) detachDatasource(w http.ResponseWriter, r *http.Request) {
	name, ok := serverQuery(w, r, "resourceName")
	if !ok {
		return
	}
	a.change(w, r, wasKind, func(_ *world, sv *simServer) error {
		i := slices.Index(sv.Datasources, name)
		if i < 0 {
			return notFound("Datasource not attached: %s", name)
		}
		sv.Datasources = slices.Delete(sv.Datasources, i, i+1)
		return nil
	})
}

// ---- applications ----

type wasDeployBody struct {
	ContextPath     string `json:"contextPath"`
	SourcePath      string `json:"sourcePath"`
	ApplicationName string `json:"applicationName"`
}

func (b *wasDeployBody) check() error {
	switch {
	case b.ContextPath == "":
		return badRequest("contextPath is required")
	case b.SourcePath == "":
		return badRequest("sourcePath is required")
	case !strings.HasPrefix(b.ContextPath, "/"):
		return badRequest("Invalid contextPath: %s (must start with '/')", b.ContextPath)
	}
	if err := checkAbsPath("sourcePath", b.SourcePath); err != nil {
		return err
	}
	if b.ApplicationName == "" {
		b.ApplicationName = defaultApplicationName(b.ContextPath)
	}
	return nil
}

// defaultApplicationName is the context path without slashes, "ROOT" for "/".
func defaultApplicationName(contextPath string) string {
	if name := strings.Trim(contextPath, "/"); name != "" {
		return name
	}
	return "ROOT"
}

func (a serversArea) deploy(w http.ResponseWriter, r *http.Request) {
	var body wasDeployBody
	if !decodeServerBody(w, r, &body, (*wasDeployBody).check) {
		return
	}
	a.change(w, r, wasKind, func(_ *world, sv *simServer) error {
		if slices.ContainsFunc(sv.Apps, func(app wasApplication) bool { return app.ContextPath == body.ContextPath }) {
			return conflict("Application already deployed: %s", body.ContextPath)
		}
		sv.Apps = append(sv.Apps, wasApplication{body.ContextPath, body.SourcePath, body.ApplicationName, a.s.now().UTC()})
		slices.SortFunc(sv.Apps, func(x, y wasApplication) int { return cmp.Compare(x.ContextPath, y.ContextPath) })
		return nil
	})
}

func (a serversArea) undeploy(w http.ResponseWriter, r *http.Request) {
	contextPath, ok := serverQuery(w, r, "contextPath")
	if !ok {
		return
	}
	a.change(w, r, wasKind, func(_ *world, sv *simServer) error {
		i := slices.IndexFunc(sv.Apps, func(app wasApplication) bool { return app.ContextPath == contextPath })
		if i < 0 {
			return notFound("Application not found: %s", contextPath)
		}
		sv.Apps = slices.Delete(sv.Apps, i, i+1)
		return nil
	})
}

type wasAppStatusJSON struct {
	ContextPath string `json:"contextPath"`
	Status      string `json:"status"`
	Sessions    int    `json:"sessions"`
}

// applicationStatus lists the deployed applications by context path, each with its
// state (applicationState); while it runs it has a session count derived from the
// server and context path (stable, so tests can rely on it), otherwise 0.
func (a serversArea) applicationStatus(w http.ResponseWriter, r *http.Request) {
	var out []wasAppStatusJSON
	var err error
	a.s.read(func(wd *world) {
		var sv *simServer
		if sv, err = a.locate(wd, wasKind, r); err != nil {
			return
		}
		now := a.s.now()
		out = make([]wasAppStatusJSON, 0, len(sv.Apps))
		for _, app := range sv.Apps {
			status := a.applicationState(sv, app, now)
			out = append(out, wasAppStatusJSON{app.ContextPath, status, appSessions(sv, app, status)})
		}
	})
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"applications": out})
}

// appSessions is 1..50 for a running server, else 0.
func appSessions(sv *simServer, app wasApplication, status string) int {
	if status != srvRunning {
		return 0
	}
	h := fnv.New32a()
	_, _ = h.Write([]byte(sv.ServerID + "\x00" + app.ContextPath))
	return int(h.Sum32()%50) + 1
}

// ---- resource import ----

var wasResourceTypes = []string{"datasource", "application", "jms", "jta"}

type wasImportBody struct {
	ResourceType string `json:"resourceType"`
	ResourceName string `json:"resourceName"`
}

func (b *wasImportBody) check() error {
	switch {
	case b.ResourceType == "":
		return badRequest("resourceType is required")
	case b.ResourceName == "":
		return badRequest("resourceName is required")
	}
	t := strings.ToLower(b.ResourceType)
	if !slices.Contains(wasResourceTypes, t) {
		return badRequest("Invalid resourceType: %s (allowed: %s)", b.ResourceType, strings.Join(wasResourceTypes, ", "))
	}
	b.ResourceType = t
	return nil
}

// importResource imports a resource into the server. A datasource must exist and is
// attached (a repeat changes nothing); the other types name nothing the sim keeps, so any
// name is accepted, and since no answer shows imports, nothing is recorded for them.
func (a serversArea) importResource(w http.ResponseWriter, r *http.Request) {
	var body wasImportBody
	if !decodeServerBody(w, r, &body, (*wasImportBody).check) {
		return
	}
	a.change(w, r, wasKind, func(wd *world, sv *simServer) error {
		isDatasource := body.ResourceType == "datasource"
		if isDatasource && !a.s.datasourceExists(wd, body.ResourceName) {
			return notFound("Datasource not found: %s", body.ResourceName)
		}
		if isDatasource {
			attachDatasourceTo(sv, body.ResourceName)
		}
		return nil
	})
}
