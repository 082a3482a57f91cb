package apm

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// WAS, web and session servers (spec 4.2 to 4.4) share their endpoints under
// /rest/<kind>/servers and differ only in their ports and sub-operations, so the common
// calls are written once here, parameterised by ServerKind. The kind-specific
// sub-operations are in servers_was.go and servers_web.go.

// ServerKind is one of the three server families of the manager.
type ServerKind string

const (
	KindWAS     ServerKind = "was"     // application servers, /rest/was/servers
	KindWeb     ServerKind = "web"     // web servers, /rest/web/servers
	KindSession ServerKind = "session" // session servers, /rest/session/servers
)

// kindInfo is what the client knows about a kind: its name in messages, and which
// optional body fields api/decisions.md gives it on install/register and on modify.
type kindInfo struct {
	label        string   // "WAS server"
	createFields []string // optional ServerSpec fields beyond serverId, nodeName, systemName
	modifyFields []string // ServerSettings fields
}

var kinds = map[ServerKind]kindInfo{
	KindWAS:     {"WAS server", []string{"httpPort", "ajpPort", "serverType", "installRootPath"}, []string{"httpPort", "ajpPort", "javaHome"}},
	KindWeb:     {"web server", []string{"httpPort", "httpsPort"}, []string{"httpPort", "httpsPort"}},
	KindSession: {"session server", []string{"serverPort"}, []string{"serverPort"}},
}

// info returns the kind's description, or an error for a kind the manager does not have
// (the kind becomes a path segment, so it is checked before any request is built).
func (k ServerKind) info() (kindInfo, error) {
	ki, ok := kinds[k]
	if !ok {
		return kindInfo{}, fmt.Errorf("apm: unknown server kind %q (want %q, %q or %q)", string(k), KindWAS, KindWeb, KindSession)
	}
	return ki, nil
}

// Edition is a WAS server's serverType. The manager spells it S/E in bodies and details
// and Standard/Enterprise in the registerable list (api/decisions.md); the client always
// uses the long form.
type Edition string

const (
	EditionStandard   Edition = "Standard"
	EditionEnterprise Edition = "Enterprise"
)

// ParseEdition accepts S, E, Standard or Enterprise in any case; "" is no edition.
func ParseEdition(s string) (Edition, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "":
		return "", nil
	case "s", "standard":
		return EditionStandard, nil
	case "e", "enterprise":
		return EditionEnterprise, nil
	}
	return "", fmt.Errorf("apm: unknown WAS edition %q (want Standard or Enterprise, or S or E)", shorten(s))
}

// lenientEdition reads a serverType from a response: an unknown spelling is kept as sent
// rather than failing the whole read.
func lenientEdition(s string) Edition {
	if e, err := ParseEdition(s); err == nil {
		return e
	}
	return Edition(s)
}

// code is the one-letter spelling the manager takes in request bodies.
func (e Edition) code() string { return string(e)[:1] }

// ServerRef identifies one server: serverId + nodeName + systemName, within its kind.
type ServerRef struct {
	Kind                           ServerKind
	ServerID, NodeName, SystemName string
}

func (r ServerRef) String() string {
	return fmt.Sprintf("%s %s on node %s of system %s", r.Kind, r.ServerID, r.NodeName, r.SystemName)
}

// path is the server's address, with suffix ("", "/action", ...) appended.
func (r ServerRef) path(suffix string) (string, error) {
	if _, err := r.Kind.info(); err != nil {
		return "", err
	}
	return buildPath("/rest/"+string(r.Kind)+"/servers/{}/nodes/{}/systems/{}"+suffix, r.ServerID, r.NodeName, r.SystemName)
}

// subPath is the address of a sub-operation that only servers of kind have (suffix
// "/session", "/uri", ...). An empty ref.Kind means kind; another kind is refused, since
// the manager has no such endpoint for it.
func (r ServerRef) subPath(kind ServerKind, suffix string) (string, error) {
	switch r.Kind {
	case "":
		r.Kind = kind
	case kind:
	default:
		return "", fmt.Errorf("apm: %s: only %ss have %s", r, kinds[kind].label, strings.TrimPrefix(suffix, "/"))
	}
	return r.path(suffix)
}

// subSend sends one sub-operation of kind (see subPath). It is about the server unless
// opts say otherwise.
func (c *Client) subSend(ctx context.Context, kind ServerKind, method string, ref ServerRef, suffix string, query url.Values, body any, opts ...requestOption) error {
	path, err := ref.subPath(kind, suffix)
	if err != nil {
		return err
	}
	return c.send(ctx, method, path, query, body, append([]requestOption{about(ref.ServerID)}, opts...)...)
}

// Server is a WAS, web or session server: the union of the kinds' fields, zero where a
// kind lacks one. The list carries fewer fields than the detail (api/decisions.md).
type Server struct {
	Kind                                   ServerKind
	ServerID, NodeName, SystemName, Status string
	HTTPPort, AJPPort, HTTPSPort           int64 // WAS: http, ajp; web: http, https
	ServerPort                             int64 // session
	Edition                                Edition
	JavaHome, InstallRootPath              string

	// WAS detail.
	SessionCluster    *SessionCluster // nil when none
	Datasources       []string
	ImportedResources []ImportedResource

	// Web detail.
	Workers    []Worker
	URIs       []string
	SSLEnabled bool

	// Reported tells which of the detail fields that api/decisions.md marks as assumptions
	// the manager actually sent; for the others the zero value above means "not reported",
	// and a caller keeps what it last applied (api/decisions.md rule 2).
	Reported ReportedFields
}

// ReportedFields marks the assumption fields present in a server detail.
type ReportedFields struct {
	SessionCluster, Datasources, ImportedResources, Workers, URIs, SSLEnabled bool
}

// Ref returns the server's identity.
func (s Server) Ref() ServerRef {
	return ServerRef{Kind: s.Kind, ServerID: s.ServerID, NodeName: s.NodeName, SystemName: s.SystemName}
}

// ServerSpec is the body of an install or register (POST /rest/<kind>/servers). Which
// optional fields apply depends on the kind (api/decisions.md): WAS httpPort (required),
// ajpPort, Edition, InstallRootPath (install only); web httpPort (required), httpsPort;
// session serverPort (required). A field of another kind is refused before sending; zero
// fields are left out.
type ServerSpec struct {
	ServerID, NodeName, SystemName string
	HTTPPort, AJPPort, HTTPSPort   int64
	ServerPort                     int64
	Edition                        Edition
	InstallRootPath                string
}

// ServerSettings is the body of a modify (PUT); zero fields are left out and keep their
// value. WAS: HTTPPort, AJPPort, JavaHome; web: HTTPPort, HTTPSPort; session: ServerPort.
type ServerSettings struct {
	HTTPPort, AJPPort, HTTPSPort int64
	ServerPort                   int64
	JavaHome                     string
}

// RegisterableServer is a server found on a node but not registered with the manager.
// WAS and web entries carry the node, address and ports; session entries carry
// ServerHome and Status ("available") instead. NodeName and SystemName are always filled.
type RegisterableServer struct {
	Kind                                     ServerKind
	SystemName, NodeName, ServerID, ServerIP string
	Edition                                  Edition
	HTTPPort, AJPPort, HTTPSPort             int64
	ServerHome, Status                       string
}

type wireServer struct {
	ServerID          flexString                   `json:"serverId"`
	NodeName          flexString                   `json:"nodeName"`
	SystemName        flexString                   `json:"systemName"`
	Status            flexString                   `json:"status"`
	HTTPPort          flexInt                      `json:"httpPort"`
	AJPPort           flexInt                      `json:"ajpPort"`
	HTTPSPort         flexInt                      `json:"httpsPort"`
	ServerPort        flexInt                      `json:"serverPort"`
	ServerType        flexString                   `json:"serverType"`
	JavaHome          flexString                   `json:"javaHome"`
	InstallRootPath   flexString                   `json:"installRootPath"`
	SessionCluster    optional[wireSessionCluster] `json:"sessionCluster"`
	Datasources       optional[[]flexName]         `json:"datasources"`
	ImportedResources optional[[]wireImported]     `json:"importedResources"`
	Workers           optional[[]wireWorker]       `json:"workers"`
	URIs              optional[[]flexString]       `json:"uris"`
	SSLEnabled        optional[flexBool]           `json:"sslEnabled"`
}

func (w wireServer) server(kind ServerKind) Server {
	s := Server{
		Kind:            kind,
		ServerID:        string(w.ServerID),
		NodeName:        string(w.NodeName),
		SystemName:      string(w.SystemName),
		Status:          string(w.Status),
		HTTPPort:        int64(w.HTTPPort),
		AJPPort:         int64(w.AJPPort),
		HTTPSPort:       int64(w.HTTPSPort),
		ServerPort:      int64(w.ServerPort),
		Edition:         lenientEdition(string(w.ServerType)),
		JavaHome:        string(w.JavaHome),
		InstallRootPath: string(w.InstallRootPath),
		SSLEnabled:      bool(w.SSLEnabled.v),
		Reported: ReportedFields{
			SessionCluster:    w.SessionCluster.set,
			Datasources:       w.Datasources.set,
			ImportedResources: w.ImportedResources.set,
			Workers:           w.Workers.set,
			URIs:              w.URIs.set,
			SSLEnabled:        w.SSLEnabled.set,
		},
	}
	if w.SessionCluster.set && !w.SessionCluster.null {
		sc := w.SessionCluster.v.cluster()
		s.SessionCluster = &sc
	}
	s.Datasources = mapSlice(w.Datasources, func(n flexName) string { return string(n) })
	s.ImportedResources = mapSlice(w.ImportedResources, wireImported.resource)
	s.Workers = mapSlice(w.Workers, wireWorker.worker)
	s.URIs = mapSlice(w.URIs, func(u flexString) string { return string(u) })
	return s
}

// mapSlice converts a reported array; the result is nil only when the field was absent
// (or null), so that "reported empty" and "not reported" stay apart.
func mapSlice[W, T any](o optional[[]W], f func(W) T) []T {
	if !o.set || o.null {
		return nil
	}
	return mapAll(o.v, f)
}

// optional records whether a field was present in a response, and whether it was null.
// encoding/json calls UnmarshalJSON only for present fields, null included.
type optional[T any] struct {
	set, null bool
	v         T
}

func (o *optional[T]) UnmarshalJSON(b []byte) error {
	o.set = true
	if string(b) == "null" {
		o.null = true
		return nil
	}
	return json.Unmarshal(b, &o.v)
}

// flexName is a name given as a string or as an object carrying resourceName (or name):
// the detail's datasources are documented as names, a real manager may send objects.
type flexName string

func (f *flexName) UnmarshalJSON(b []byte) error {
	var obj struct {
		ResourceName flexString `json:"resourceName"`
		Name         flexString `json:"name"`
	}
	if len(b) > 0 && b[0] == '{' {
		if err := json.Unmarshal(b, &obj); err != nil {
			return err
		}
		*f = flexName(cmp.Or(string(obj.ResourceName), string(obj.Name)))
		return nil
	}
	var s flexString
	err := json.Unmarshal(b, &s)
	*f = flexName(s)
	return err
}

// ListServers returns every server of a kind (GET /rest/<kind>/servers). The result is
// never nil.
func (c *Client) ListServers(ctx context.Context, kind ServerKind) ([]Server, error) {
	if _, err := kind.info(); err != nil {
		return nil, err
	}
	return getList(ctx, c, "/rest/"+string(kind)+"/servers", nil, "servers", func(w wireServer) Server { return w.server(kind) })
}

// GetServer returns one server's detail (GET /rest/<kind>/servers/{serverId}/nodes/{nodeName}/systems/{systemName}).
func (c *Client) GetServer(ctx context.Context, ref ServerRef) (*Server, error) {
	path, err := ref.path("")
	if err != nil {
		return nil, err
	}
	s, err := getDetailAt(ctx, c, path, ref.ServerID, func(w wireServer) (string, string) { return "serverId", string(w.ServerID) },
		func(w wireServer) Server { return w.server(ref.Kind) })
	if err == nil {
		// The path names the node and system; a terse manager may not repeat them.
		s.NodeName = cmp.Or(s.NodeName, ref.NodeName)
		s.SystemName = cmp.Or(s.SystemName, ref.SystemName)
	}
	return s, err
}

type serverBody struct {
	Type            string `json:"type"`
	ServerID        string `json:"serverId"`
	NodeName        string `json:"nodeName"`
	SystemName      string `json:"systemName"`
	HTTPPort        int64  `json:"httpPort,omitempty"`
	AJPPort         int64  `json:"ajpPort,omitempty"`
	HTTPSPort       int64  `json:"httpsPort,omitempty"`
	ServerPort      int64  `json:"serverPort,omitempty"`
	ServerType      string `json:"serverType,omitempty"`
	InstallRootPath string `json:"installRootPath,omitempty"`
}

// InstallServer installs a new server on a node (POST /rest/<kind>/servers, type install).
func (c *Client) InstallServer(ctx context.Context, kind ServerKind, spec ServerSpec) error {
	return c.createServer(ctx, kind, "install", spec)
}

// RegisterServer adopts a server that exists on a node but is not registered yet (POST
// /rest/<kind>/servers, type register); ListRegisterableServers lists the candidates.
func (c *Client) RegisterServer(ctx context.Context, kind ServerKind, spec ServerSpec) error {
	if spec.InstallRootPath != "" {
		return fmt.Errorf("apm: register %s %s: installRootPath applies to install only", kind, spec.ServerID)
	}
	return c.createServer(ctx, kind, "register", spec)
}

func (c *Client) createServer(ctx context.Context, kind ServerKind, typ string, spec ServerSpec) error {
	ki, err := kind.info()
	if err != nil {
		return err
	}
	body := serverBody{
		Type: typ, ServerID: spec.ServerID, NodeName: spec.NodeName, SystemName: spec.SystemName,
		HTTPPort: spec.HTTPPort, AJPPort: spec.AJPPort, HTTPSPort: spec.HTTPSPort, ServerPort: spec.ServerPort,
		InstallRootPath: spec.InstallRootPath,
	}
	if spec.Edition != "" {
		e, err := ParseEdition(string(spec.Edition))
		if err != nil {
			return err
		}
		body.ServerType = e.code()
	}
	err = onlyFields(ki, typ, ki.createFields, map[string]bool{
		"httpPort": spec.HTTPPort != 0, "ajpPort": spec.AJPPort != 0, "httpsPort": spec.HTTPSPort != 0,
		"serverPort": spec.ServerPort != 0, "serverType": spec.Edition != "", "installRootPath": spec.InstallRootPath != "",
	})
	if err != nil {
		return err
	}
	return c.send(ctx, http.MethodPost, "/rest/"+string(kind)+"/servers", nil, body)
}

// onlyFields refuses fields that api/decisions.md does not give the kind: the manager
// would ignore them, and the caller would believe them applied.
func onlyFields(ki kindInfo, op string, allowed []string, set map[string]bool) error {
	var wrong []string
	for name, isSet := range set {
		if isSet && !slices.Contains(allowed, name) {
			wrong = append(wrong, name)
		}
	}
	if len(wrong) == 0 {
		return nil
	}
	slices.Sort(wrong)
	return fmt.Errorf("apm: %s of a %s: %s not applicable (a %s takes %s)",
		op, ki.label, strings.Join(wrong, ", "), ki.label, strings.Join(allowed, ", "))
}

type serverSettingsBody struct {
	HTTPPort   int64  `json:"httpPort,omitempty"`
	AJPPort    int64  `json:"ajpPort,omitempty"`
	HTTPSPort  int64  `json:"httpsPort,omitempty"`
	ServerPort int64  `json:"serverPort,omitempty"`
	JavaHome   string `json:"javaHome,omitempty"`
}

// ModifyServer changes a server's ports (and a WAS server's javaHome) (PUT
// /rest/<kind>/servers/{serverId}/nodes/{nodeName}/systems/{systemName}).
func (c *Client) ModifyServer(ctx context.Context, ref ServerRef, settings ServerSettings) error {
	path, err := ref.path("")
	if err != nil {
		return err
	}
	ki, _ := ref.Kind.info()
	err = onlyFields(ki, "modify", ki.modifyFields, map[string]bool{
		"httpPort": settings.HTTPPort != 0, "ajpPort": settings.AJPPort != 0, "httpsPort": settings.HTTPSPort != 0,
		"serverPort": settings.ServerPort != 0, "javaHome": settings.JavaHome != "",
	})
	if err != nil {
		return err
	}
	return c.send(ctx, http.MethodPut, path, nil, serverSettingsBody(settings), about(ref.ServerID))
}

// UninstallServer removes a server from its node (DELETE ...?type=uninstall). The manager
// refuses (actionResult N) while the server runs.
func (c *Client) UninstallServer(ctx context.Context, ref ServerRef) error {
	return c.deleteServer(ctx, ref, "uninstall")
}

// DeregisterServer forgets a server but leaves it on its node, where it becomes
// registerable again (DELETE ...?type=deregister). Refused while the server runs.
func (c *Client) DeregisterServer(ctx context.Context, ref ServerRef) error {
	return c.deleteServer(ctx, ref, "deregister")
}

func (c *Client) deleteServer(ctx context.Context, ref ServerRef, typ string) error {
	path, err := ref.path("")
	if err != nil {
		return err
	}
	return c.send(ctx, http.MethodDelete, path, url.Values{"type": {typ}}, nil, about(ref.ServerID))
}

type actionBody struct {
	Action string `json:"action"`
	Force  *bool  `json:"force,omitempty"` // WAS stop only
}

// StartServer starts a server (POST .../action {"action":"start"}). The server passes
// through "starting"; a Poll over GetServer waits for "running" (see poll.go).
func (c *Client) StartServer(ctx context.Context, ref ServerRef) error {
	return c.serverAction(ctx, ref, actionBody{Action: "start"})
}

// StopServer stops a server (POST .../action {"action":"stop"}), which passes through
// "stopping" to "stopped". force is sent for WAS servers only, the one kind that takes
// it; for the others it must be false.
func (c *Client) StopServer(ctx context.Context, ref ServerRef, force bool) error {
	body := actionBody{Action: "stop"}
	switch {
	case ref.Kind == KindWAS:
		body.Force = &force
	case force:
		return fmt.Errorf("apm: stop %s: force applies to WAS servers only", ref)
	}
	return c.serverAction(ctx, ref, body)
}

func (c *Client) serverAction(ctx context.Context, ref ServerRef, body actionBody) error {
	path, err := ref.path("/action")
	if err != nil {
		return err
	}
	return c.send(ctx, http.MethodPost, path, nil, body, about(ref.ServerID))
}

type wireRegisterable struct {
	SystemName flexString `json:"systemName"`
	NodeName   flexString `json:"nodeName"`
	ServerID   flexString `json:"serverId"`
	ServerIP   flexString `json:"serverIp"`
	ServerType flexString `json:"serverType"`
	HTTPPort   flexInt    `json:"httpPort"`
	AJPPort    flexInt    `json:"ajpPort"`
	HTTPSPort  flexInt    `json:"httpsPort"`
	ServerHome flexString `json:"serverHome"`
	Status     flexString `json:"status"`
}

// registerableList decodes the registerable list under its documented key (WAS and web:
// "noRegisterdServers", spelled so by the manager; session: "servers") or, leniently,
// under any of the others.
type registerableList struct{ Items []wireRegisterable }

var registerableKeys = []string{"noRegisterdServers", "noRegisteredServers", "servers"}

func (l *registerableList) UnmarshalJSON(b []byte) error {
	for _, key := range registerableKeys {
		one := newList[wireRegisterable](key)
		if err := one.UnmarshalJSON(b); err != nil {
			return err
		}
		if len(one.Items) > 0 {
			l.Items = one.Items
			return nil
		}
	}
	return nil
}

// ListRegisterableServers lists the servers of a kind found on a node that are not
// registered yet (GET /rest/<kind>/servers/register/nodes/{nodeName}/systems/{systemName}).
// The result is never nil.
func (c *Client) ListRegisterableServers(ctx context.Context, kind ServerKind, systemName, nodeName string) ([]RegisterableServer, error) {
	if _, err := kind.info(); err != nil {
		return nil, err
	}
	path, err := buildPath("/rest/"+string(kind)+"/servers/register/nodes/{}/systems/{}", nodeName, systemName)
	if err != nil {
		return nil, err
	}
	var list registerableList
	if err := c.get(ctx, path, nil, &list, about(nodeName)); err != nil {
		return nil, err
	}
	// The path names the node; a terse manager may not repeat the names.
	named := func(w wireRegisterable) RegisterableServer {
		return RegisterableServer{
			Kind:       kind,
			SystemName: cmp.Or(string(w.SystemName), systemName),
			NodeName:   cmp.Or(string(w.NodeName), nodeName),
			ServerID:   string(w.ServerID),
			ServerIP:   string(w.ServerIP),
			Edition:    lenientEdition(string(w.ServerType)),
			HTTPPort:   int64(w.HTTPPort),
			AJPPort:    int64(w.AJPPort),
			HTTPSPort:  int64(w.HTTPSPort),
			ServerHome: string(w.ServerHome),
			Status:     string(w.Status),
		}
	}
	return mapAll(list.Items, named), nil
}
