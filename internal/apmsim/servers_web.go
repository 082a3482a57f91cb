package apmsim

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"net/http"
	"slices"
	"strings"
)

// Web-only parts of the servers area (spec 4.3): the list and detail bodies,
// load-balancer workers, SSL and URI patterns.

// webWorker is a load-balancer worker: a WAS server, kept by node ID so that the names
// shown follow renames.
type webWorker struct {
	NodeID   string `json:"nodeId"`
	ServerID string `json:"serverId"`
	Host     string `json:"host"`
	AJPPort  int    `json:"ajpPort"`
	LBFactor int    `json:"lbFactor"`
}

type webWorkerJSON struct {
	ServerID   string `json:"serverId"`
	NodeName   string `json:"nodeName"`
	SystemName string `json:"systemName"`
	Host       string `json:"host"`
	AJPPort    int    `json:"ajpPort"`
	LBFactor   int    `json:"lbFactor"`
}

// webListItemJSON is an element of GET /rest/web/servers (api/decisions.md).
type webListItemJSON struct {
	ServerID   string `json:"serverId"`
	NodeName   string `json:"nodeName"`
	SystemName string `json:"systemName"`
	HTTPPort   int    `json:"httpPort"`
	Status     string `json:"status"`
}

func webListJSON(v serverView) any {
	return webListItemJSON{v.sv.ServerID, v.node.Name, v.system, v.sv.Ports["httpPort"], v.status}
}

// webServerDetailJSON is the web detail (api/decisions.md); httpsPort 0 means none. The
// SSL certificate and key are never returned, only sslEnabled. The assumption fields are
// left out when optional fields are omitted.
type webServerDetailJSON struct {
	ServerID        string `json:"serverId"`
	NodeName        string `json:"nodeName"`
	SystemName      string `json:"systemName"`
	HTTPPort        int    `json:"httpPort"`
	HTTPSPort       int    `json:"httpsPort"`
	Status          string `json:"status"`
	InstallRootPath string `json:"installRootPath"`
	*webAssumedJSON
}

// webAssumedJSON holds the web detail fields that api/decisions.md marks as assumptions.
// A worker has the fields of the PUT .../worker body that set it.
type webAssumedJSON struct {
	Workers    []webWorkerJSON `json:"workers"`
	URIs       []string        `json:"uris"`
	SSLEnabled bool            `json:"sslEnabled"`
}

func webDetailJSON(v serverView) any {
	sv := v.sv
	out := webServerDetailJSON{
		ServerID: sv.ServerID, NodeName: v.node.Name, SystemName: v.system,
		HTTPPort: sv.Ports["httpPort"], HTTPSPort: sv.Ports["httpsPort"], Status: v.status,
		InstallRootPath: sv.Home,
	}
	if v.omitOptional {
		return out
	}
	workers := make([]webWorkerJSON, 0, len(sv.Workers))
	for _, wk := range sv.Workers {
		n := v.wd.nodes[wk.NodeID]
		workers = append(workers, webWorkerJSON{wk.ServerID, n.Name, v.wd.systems[n.SystemID].Name, wk.Host, wk.AJPPort, wk.LBFactor})
	}
	out.webAssumedJSON = &webAssumedJSON{Workers: workers, URIs: append([]string{}, sv.URIs...), SSLEnabled: sv.SSL}
	return out
}

func (a serversArea) registerWeb(r *router, one string) {
	r.handle("PUT "+one+"/worker", a.setWorkers)
	r.handle("POST "+one+"/ssl", a.configureSSL)
	r.handle("PUT "+one+"/uri", a.changeURIs)
}

// workerUsers returns the web servers that balance to the WAS server was.
func workerUsers(wd *world, was *simServer) []*simServer {
	var out []*simServer
	for _, web := range (serversArea{}).sortedServers(wd, webKind) {
		if slices.ContainsFunc(web.Workers, func(wk webWorker) bool { return wk.NodeID == was.NodeID && wk.ServerID == was.ServerID }) {
			out = append(out, web)
		}
	}
	return out
}

// ---- workers ----

type webWorkerBody struct {
	ServerID   string          `json:"serverId"`
	NodeName   string          `json:"nodeName"`
	SystemName string          `json:"systemName"`
	Host       string          `json:"host"`
	AJPPort    json.RawMessage `json:"ajpPort"`
	LBFactor   json.RawMessage `json:"lbFactor"`
	ajpPort    int             // parsed; 0 = take the WAS server's
	lbFactor   int
}

type webWorkersBody struct {
	Workers *[]webWorkerBody `json:"workers"` // nil when absent or null
}

// check validates the workers: identity fields required, ports and factors in range, no
// WAS server twice. An empty list is valid (it removes all workers).
func (b *webWorkersBody) check() error {
	if b.Workers == nil {
		return badRequest("workers is required")
	}
	seen := map[[3]string]bool{}
	for i := range *b.Workers {
		wk := &(*b.Workers)[i]
		if err := wk.check(fmt.Sprintf("workers[%d].", i)); err != nil {
			return err
		}
		id := [3]string{wk.SystemName, wk.NodeName, wk.ServerID}
		if seen[id] {
			return badRequest("Duplicate worker: %s on node %s", wk.ServerID, wk.NodeName)
		}
		seen[id] = true
	}
	return nil
}

func (wk *webWorkerBody) check(prefix string) error {
	for _, f := range []struct{ name, v string }{{"serverId", wk.ServerID}, {"nodeName", wk.NodeName}, {"systemName", wk.SystemName}} {
		if f.v == "" {
			return badRequest("%s%s is required", prefix, f.name)
		}
	}
	port, havePort, err := intField(prefix+"ajpPort", wk.AJPPort)
	if err == nil && havePort {
		err = validPort(prefix+"ajpPort", port)
	}
	if err != nil {
		return err
	}
	factor, haveFactor, err := intField(prefix+"lbFactor", wk.LBFactor)
	if err != nil {
		return err
	}
	if !haveFactor {
		factor = 1
	}
	if factor < 1 || factor > 100 {
		return badRequest("%slbFactor must be between 1 and 100", prefix)
	}
	wk.ajpPort, wk.lbFactor = port, factor
	return nil
}

// setWorkers replaces the workers. Each must name an existing WAS server; host and AJP
// port default to the WAS server's node address and AJP port.
func (a serversArea) setWorkers(w http.ResponseWriter, r *http.Request) {
	var body webWorkersBody
	if !decodeServerBody(w, r, &body, (*webWorkersBody).check) {
		return
	}
	a.change(w, r, webKind, func(wd *world, sv *simServer) error {
		workers := make([]webWorker, 0, len(*body.Workers))
		for i, wk := range *body.Workers {
			resolved, err := resolveWorker(wd, i, wk)
			if err != nil {
				return err
			}
			workers = append(workers, resolved)
		}
		sv.Workers = workers
		return nil
	})
}

func resolveWorker(wd *world, i int, wk webWorkerBody) (webWorker, error) {
	n, err := serverNode(wd, wk.SystemName, wk.NodeName)
	if err != nil {
		return webWorker{}, err
	}
	was := serversState.of(wd).Servers[serverKey(serverKindWAS, n.ID, wk.ServerID)]
	if was == nil {
		return webWorker{}, notFound("WAS server not found: %s", wk.ServerID)
	}
	out := webWorker{NodeID: n.ID, ServerID: was.ServerID, Host: wk.Host, AJPPort: wk.ajpPort, LBFactor: wk.lbFactor}
	if out.Host == "" {
		out.Host = n.HostIP
	}
	if out.AJPPort == 0 {
		out.AJPPort = was.Ports["ajpPort"]
	}
	if out.AJPPort == 0 {
		return webWorker{}, badRequest("workers[%d].ajpPort is required: WAS server %s has no ajpPort", i, was.ServerID)
	}
	return out, nil
}

// ---- SSL ----

type webSSLBody struct {
	HTTPSPort      json.RawMessage `json:"httpsPort"`
	CertificatePEM string          `json:"certificatePem"`
	PrivateKeyPEM  string          `json:"privateKeyPem"`
	CAChainPEM     string          `json:"caChainPem"`
	port           int
}

// check validates the SSL set-up. Messages never quote the PEMs.
func (b *webSSLBody) check() error {
	port, havePort, err := intField("httpsPort", b.HTTPSPort)
	switch {
	case err == nil && !havePort:
		return badRequest("httpsPort is required")
	case b.CertificatePEM == "":
		return badRequest("certificatePem is required")
	case b.PrivateKeyPEM == "":
		return badRequest("privateKeyPem is required")
	case err != nil:
		return err
	}
	if err := validPort("httpsPort", port); err != nil {
		return err
	}
	b.port = port
	return checkPEMs(b.CertificatePEM, b.PrivateKeyPEM, b.CAChainPEM)
}

// checkPEMs checks that the certificate is a PEM CERTIFICATE, the key a PEM private key
// that belongs to it, and the optional chain a series of PEM CERTIFICATEs.
func checkPEMs(certPEM, keyPEM, chainPEM string) error {
	if certs, ok := pemCertificates(certPEM); !ok || len(certs) == 0 {
		return badRequest("Invalid certificatePem: expected a PEM-encoded CERTIFICATE")
	}
	block, _ := pem.Decode([]byte(keyPEM))
	if block == nil || !strings.HasSuffix(block.Type, "PRIVATE KEY") {
		return badRequest("Invalid privateKeyPem: expected a PEM-encoded PRIVATE KEY")
	}
	if !parsablePrivateKey(block.Bytes) {
		return badRequest("Invalid privateKeyPem: the key cannot be parsed (encrypted keys are not supported)")
	}
	if _, err := tls.X509KeyPair([]byte(certPEM), []byte(keyPEM)); err != nil {
		return badRequest("privateKeyPem does not match certificatePem")
	}
	if chain, ok := pemCertificates(chainPEM); chainPEM != "" && (!ok || len(chain) == 0) {
		return badRequest("Invalid caChainPem: expected PEM-encoded CERTIFICATEs")
	}
	return nil
}

// pemCertificates parses every PEM block of s as a certificate; ok is false when a block
// is of another type, does not parse, or non-PEM text remains.
func pemCertificates(s string) (certs []*x509.Certificate, ok bool) {
	rest := []byte(s)
	for {
		var block *pem.Block
		block, rest = pem.Decode(rest)
		if block == nil {
			return certs, strings.TrimSpace(string(rest)) == ""
		}
		cert, err := x509.ParseCertificate(block.Bytes)
		if block.Type != "CERTIFICATE" || err != nil {
			return nil, false
		}
		certs = append(certs, cert)
	}
}

func parsablePrivateKey(der []byte) bool {
	if _, err := x509.ParsePKCS8PrivateKey(der); err == nil {
		return true
	}
	if _, err := x509.ParsePKCS1PrivateKey(der); err == nil {
		return true
	}
	_, err := x509.ParseECPrivateKey(der)
	return err == nil
}

// configureSSL enables HTTPS on httpsPort. Only the port and sslEnabled are kept: the
// PEMs are neither stored (not even in the state file) nor echoed.
func (a serversArea) configureSSL(w http.ResponseWriter, r *http.Request) {
	var body webSSLBody
	if !decodeServerBody(w, r, &body, (*webSSLBody).check) {
		return
	}
	a.change(w, r, webKind, func(wd *world, sv *simServer) error {
		ports := mergePorts(sv.Ports, map[string]int{"httpsPort": body.port})
		if err := checkServerPorts(wd, webKind, sv, ports); err != nil {
			return err
		}
		sv.Ports = ports
		sv.SSL = true
		return nil
	})
}

// ---- URI patterns ----

type webURIsBody struct {
	URIs *[]string `json:"uris"` // nil when absent or null
}

func (b *webURIsBody) check() error {
	switch {
	case b.URIs == nil:
		return badRequest("uris is required")
	case len(*b.URIs) == 0:
		return badRequest("uris must not be empty")
	}
	for _, u := range *b.URIs {
		if !strings.HasPrefix(u, "/") {
			return badRequest("Invalid URI pattern: %s (must start with '/')", u)
		}
	}
	return nil
}

// changeURIs adds (type=create) or removes (type=delete) URI patterns. Both are
// idempotent: adding a present pattern or removing an absent one changes nothing, so a
// retried PUT does no harm. The detail lists the patterns sorted.
func (a serversArea) changeURIs(w http.ResponseWriter, r *http.Request) {
	typ, ok := serverQuery(w, r, "type")
	if !ok {
		return
	}
	if typ != "create" && typ != "delete" {
		writeErr(w, badRequest("Invalid type: %s (allowed: create, delete)", typ))
		return
	}
	var body webURIsBody
	if !decodeServerBody(w, r, &body, (*webURIsBody).check) {
		return
	}
	a.change(w, r, webKind, func(_ *world, sv *simServer) error {
		for _, u := range *body.URIs {
			i := slices.Index(sv.URIs, u)
			switch {
			case typ == "create" && i < 0:
				sv.URIs = append(sv.URIs, u)
			case typ == "delete" && i >= 0:
				sv.URIs = slices.Delete(sv.URIs, i, i+1)
			}
		}
		slices.Sort(sv.URIs)
		return nil
	})
}
