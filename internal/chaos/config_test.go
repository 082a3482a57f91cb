//go:build chaos

package chaos

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"strings"
	"testing"
	"time"
)

// The fleet: 10 systems of 9 nodes each, and on every system a WAS server (running) on its
// first node and a session server on its second. Nodes depend on their system and servers
// on their node, so an apply creates the systems first, then up to ten nodes and servers
// at a time, as real fleets do. A WAS server's create installs it and starts it (POST
// .../action, then polling through "starting"); its destroy stops it, then uninstalls it.
// Outside the topologies, the session servers of odd systems declare state = "stopped"
// (they are installed stopped, so that costs a look); those of even systems leave the
// running state unmanaged.
//
// The first fleetTopologies systems also carry a topology that uses every resource type:
// a web server balancing over two WAS servers (apm_web_workers, keyed by the WAS servers'
// ids), with URI patterns and SSL; session clustering of each WAS server over two session
// servers; a database, a datasource on it attached to each WAS server, an application on
// each; and a user granted a role. Every server of a topology declares state = "running".
// A day-two configuration takes a topology's second WAS server away (scale-in), or
// replaces its first one (another server_type).
const (
	fleetSystems        = 10
	fleetNodesPerSystem = 9
	fleetTopologies     = 3
)

// The servers' ids. Their ports differ between systems (see the port functions below), so
// that a server found on another system's node, or recorded with another's port, cannot
// pass the census.
const (
	wasServerID      = "was-1"
	was2ServerID     = "was-2"
	sessionServerID  = "session-1"
	session2ServerID = "session-2"
	webServerID      = "web-1"
)

func wasHTTPPort(system, n int) int { return 8000 + 100*n + system }
func wasAJPPort(system, n int) int  { return 8500 + 100*n + system }
func sessionPort(system, n int) int { return 15100 + 100*n + system }
func webHTTPPort(system int) int    { return 7900 + system }
func webHTTPSPort(system int) int   { return 8400 + system }

// The files the SSL set-ups read their certificate and key from, in the workspace.
const (
	certFile = "web.crt"
	keyFile  = "web.key"
)

// fleet is one configuration of the fleet.
type fleet struct {
	scaledIn bool   // the topologies have no second WAS server (and no worker or parts for it)
	edition  string // server_type of the topologies' first WAS server
}

// The configurations of the scenarios: the fleet as first applied, after the day-two
// scale-in, and after the replacement that follows it.
var (
	initialFleet  = fleet{edition: "Standard"}
	scaledInFleet = fleet{scaledIn: true, edition: "Standard"}
	replacedFleet = fleet{scaledIn: true, edition: "Enterprise"}
)

func isTopology(system int) bool { return system <= fleetTopologies }

// wasServers is how many WAS servers a topology has.
func (f fleet) wasServers() int {
	if f.scaledIn {
		return 1
	}
	return 2
}

// topologyObjects counts a topology's objects beyond the system's own WAS and session
// server: the second WAS server (w-1), the second session server and the web server, its
// workers, URI patterns and SSL, each WAS server's session clustering, datasource
// attachment and application (3w), and the database, datasource, user, role and grant.
func (f fleet) topologyObjects() int {
	w := f.wasServers()
	return (w - 1) + 2 + 3 + 3*w + 5
}

// objects is how many objects (and resources) the configuration has: per system the
// system, its nodes, its WAS and session server, and the topologies' objects.
func (f fleet) objects() int {
	return fleetSystems*(1+fleetNodesPerSystem+2) + fleetTopologies*f.topologyObjects()
}

// servers is how many servers the configuration has.
func (f fleet) servers() int {
	return 2*fleetSystems + fleetTopologies*(f.wasServers()+1)
}

// running is how many servers run: every WAS server, and in the topologies every server.
func (f fleet) running() int {
	return fleetSystems + fleetTopologies*(f.wasServers()+2)
}

// sessionState is the state the session server of a system declares: "running" in a
// topology, otherwise "stopped" on odd systems and none ("") on even ones.
func sessionState(system int) string {
	switch {
	case isTopology(system):
		return "running"
	case system%2 == 1:
		return "stopped"
	}
	return ""
}

// config is the configuration of the fleet. The provider block is empty: endpoint, key
// and CA come from the environment, so no secret is written to the workspace.
func (f fleet) config() string {
	var b strings.Builder
	b.WriteString(`terraform {
  required_providers {
    apm = {
      source = "hashicorp/apm"
    }
  }
}

provider "apm" {}
`)
	for s := 1; s <= fleetSystems; s++ {
		fmt.Fprintf(&b, "\nresource \"apm_system\" \"s%d\" {\n  name = \"chaos-s%d\"\n}\n", s, s)
		for n := 1; n <= fleetNodesPerSystem; n++ {
			fmt.Fprintf(&b, `
resource "apm_node" "s%[1]dn%[2]d" {
  system_id  = apm_system.s%[1]d.id
  name       = "s%[1]d-n%[2]d"
  host_ip    = "10.0.%[1]d.%[2]d"
  agent_port = %[3]d
}
`, s, n, 7700+n)
		}
		f.writeWAS(&b, s, "was", wasServerID, 1, 1, f.edition)
		writeSession(&b, s, "session", sessionServerID, 2, 1)
		if isTopology(s) {
			f.writeTopology(&b, s)
		}
	}
	return b.String()
}

// writeWAS writes WAS server number n of a system, on node `node`. Outside the topologies
// it has no AJP port and no server_type, as the fleet always had.
func (f fleet) writeWAS(b *strings.Builder, s int, name, id string, node, n int, edition string) {
	extra := ""
	if isTopology(s) {
		extra = fmt.Sprintf("  ajp_port    = %d\n  server_type = %q\n", wasAJPPort(s, n), edition)
	}
	fmt.Fprintf(b, `
resource "apm_was_server" "s%[1]d%[2]s" {
  node_id     = apm_node.s%[1]dn%[3]d.id
  server_id   = %[4]q
  mode        = "install"
  http_port   = %[5]d
%[6]s  state       = "running"
}
`, s, name, node, id, wasHTTPPort(s, n), extra)
}

// writeSession writes session server number n of a system, on node `node`.
func writeSession(b *strings.Builder, s int, name, id string, node, n int) {
	state := ""
	if st := sessionState(s); st != "" {
		state = fmt.Sprintf("  state       = %q\n", st)
	}
	fmt.Fprintf(b, `
resource "apm_session_server" "s%[1]d%[2]s" {
  node_id     = apm_node.s%[1]dn%[3]d.id
  server_id   = %[4]q
  mode        = "install"
  server_port = %[5]d
%[6]s}
`, s, name, node, id, sessionPort(s, n), state)
}

// writeTopology writes the rest of a system's topology: the second WAS server on node 3
// (unless scaled in), the second session server on node 4, the web server on node 5, and
// the parts, the database, datasource, user and role.
func (f fleet) writeTopology(b *strings.Builder, s int) {
	was := []string{"was"}
	if !f.scaledIn {
		f.writeWAS(b, s, "was2", was2ServerID, 3, 2, "Standard")
		was = append(was, "was2")
	}
	writeSession(b, s, "session2", session2ServerID, 4, 2)
	var workers strings.Builder
	for _, w := range was {
		fmt.Fprintf(&workers, "    (apm_was_server.s%d%s.id) = {}\n", s, w)
	}
	fmt.Fprintf(b, `
resource "apm_web_server" "s%[1]dweb" {
  node_id    = apm_node.s%[1]dn5.id
  server_id  = %[2]q
  mode       = "install"
  http_port  = %[3]d
  https_port = %[4]d
  state      = "running"
}

resource "apm_web_workers" "s%[1]d" {
  web_server_id = apm_web_server.s%[1]dweb.id
  workers = {
%[5]s  }
}

resource "apm_web_uri_patterns" "s%[1]d" {
  web_server_id = apm_web_server.s%[1]dweb.id
  patterns      = ["/s%[1]d/*", "/api/*"]
}

resource "apm_web_ssl" "s%[1]d" {
  web_server_id   = apm_web_server.s%[1]dweb.id
  https_port      = apm_web_server.s%[1]dweb.https_port
  certificate_pem = file("${path.module}/%[6]s")
  private_key_pem = file("${path.module}/%[7]s")
}

resource "apm_database" "s%[1]d" {
  resource_name = "chaos-s%[1]d-db"
  database_type = "PostgreSQL"
  host          = "10.0.%[1]d.100"
  port          = 5432
  database_name = "orders"
  user_name     = "app"
  password      = "Chaos-db-%[1]d!"
}

resource "apm_datasource" "s%[1]d" {
  resource_name = "chaos-s%[1]d-ds"
  database_id   = apm_database.s%[1]d.id
}

resource "apm_user" "s%[1]d" {
  user_id   = "chaos-s%[1]d"
  user_name = "Chaos operator %[1]d"
  password  = "Chaos-user-%[1]d!"
}

resource "apm_role" "s%[1]d" {
  role_id      = "chaos-s%[1]d-ops"
  name         = "Chaos operators %[1]d"
  action_types = ["READ", "EXECUTE"]
}

resource "apm_user_role" "s%[1]d" {
  user_id = apm_user.s%[1]d.id
  role_id = apm_role.s%[1]d.id
}
`, s, webServerID, webHTTPPort(s), webHTTPSPort(s), workers.String(), certFile, keyFile)
	for _, w := range was {
		fmt.Fprintf(b, `
resource "apm_was_session_cluster" "s%[1]d%[2]s" {
  was_server_id  = apm_was_server.s%[1]d%[2]s.id
  primary_host   = apm_node.s%[1]dn2.host_ip
  primary_port   = apm_session_server.s%[1]dsession.server_port
  secondary_host = apm_node.s%[1]dn4.host_ip
  secondary_port = apm_session_server.s%[1]dsession2.server_port
}

resource "apm_was_datasource" "s%[1]d%[2]s" {
  was_server_id   = apm_was_server.s%[1]d%[2]s.id
  datasource_name = apm_datasource.s%[1]d.id
}

resource "apm_was_application" "s%[1]d%[2]s" {
  was_server_id = apm_was_server.s%[1]d%[2]s.id
  context_path  = "/shop"
  source_path   = "/opt/apps/shop.war"
}
`, s, w)
	}
}

// testCert makes a self-signed certificate and its key, PEM-encoded, for the web servers'
// SSL set-ups (apmsim parses both and checks that they belong together).
func testCert(t *testing.T) (certPEM, keyPEM string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatalf("harness: certificate key: %v", err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(time.Now().UnixNano()), Subject: pkix.Name{CommonName: "chaos.example"}, DNSNames: []string{"chaos.example"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour), KeyUsage: x509.KeyUsageDigitalSignature,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatalf("harness: certificate: %v", err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatalf("harness: certificate key: %v", err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})),
		string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}))
}
