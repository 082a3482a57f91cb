package provider

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/apmsim/apmsimtest"
)

// The web server web-1 on shop/app-01 (10.0.0.21), and WAS servers was-<n> on the same
// node (HTTP 8080+n, AJP 8008+n) for its workers.
var webRef = apm.ServerRef{Kind: apm.KindWeb, ServerID: "web-1", NodeName: "app-01", SystemName: "shop"}

// webServerHCL declares apm_web_server.w (web-1) on apm_node.app, with extra lines.
func webServerHCL(lines ...string) string {
	return serverHCL("web", "w", append([]string{`server_id = "web-1"`, `mode = "install"`, `http_port = 80`}, lines...)...)
}

// webWASServersHCL declares apm_was_server.was<n> for each n.
func webWASServersHCL(ns ...int) string {
	var b strings.Builder
	for _, n := range ns {
		b.WriteString(serverHCL("was", fmt.Sprintf("was%d", n), fmt.Sprintf(`server_id = "was-%d"`, n), `mode = "install"`,
			fmt.Sprintf(`http_port = %d`, 8080+n), fmt.Sprintf(`ajp_port = %d`, 8008+n)))
	}
	return b.String()
}

// workersHCL declares apm_web_workers.w on apm_web_server.w with the given worker objects.
func workersHCL(workers ...string) string {
	return fmt.Sprintf(`
resource "apm_web_workers" "w" {
  web_server_id = apm_web_server.w.id
  workers = [%s]
}
`, strings.Join(workers, ",\n    "))
}

// webWorkerOf is a worker on WAS server was-<n>, with the manager's default host and AJP
// port (the node's address and the server's AJP port).
func webWorkerOf(n, lbFactor int64) apm.Worker {
	return apm.Worker{ServerID: fmt.Sprintf("was-%d", n), NodeName: "app-01", SystemName: "shop", Host: "10.0.0.21", AJPPort: 8008 + n, LBFactor: lbFactor}
}

// workersAre compares the web server's workers, in order, with want.
func workersAre(expected ...apm.Worker) func(s *apm.Server) error {
	return func(s *apm.Server) error {
		return want(slices.Equal(s.Workers, expected), "workers %+v, want %+v", s.Workers, expected)
	}
}

func workerPath(i int, attr string) tfjsonpath.Path {
	return tfjsonpath.New("workers").AtSliceIndex(i).AtMapKey(attr)
}

// The worker list: created over workers set outside Terraform (removed: the list is
// authoritative, and may be empty), filled in place with the manager's defaults, imported,
// changed with a worker inserted before others (whose defaults stay planned, by WAS server
// rather than by position), reordered by the manager without a diff, and repaired after a
// worker was added outside Terraform; destroyed, it leaves the web server without workers.
func TestAccWebWorkers_lifecycle(t *testing.T) {
	env := newAccEnv(t)
	servers := shopNodeHCL() + webServerHCL() + webWASServersHCL(1, 2, 3)
	config := func(workers ...string) string { return env.config(servers + workersHCL(workers...)) }
	was1 := `{ was_server_id = apm_was_server.was1.id }`
	was2 := `{ was_server_id = apm_was_server.was2.id, host = "10.0.0.99", lb_factor = 5 }`
	was3 := `{ was_server_id = apm_was_server.was3.id }`
	was1Weighted := `{ was_server_id = apm_was_server.was1.id, lb_factor = 7 }`
	final := config(was3, was1Weighted)
	wasID := func(n int) knownvalue.Check {
		return knownvalue.StringFunc(func(v string) error {
			return want(strings.HasSuffix(v, fmt.Sprintf("/app-01/was-%d", n)) && strings.HasPrefix(v, env.systemID("shop")+"/"), "was_server_id %q", v)
		})
	}
	env.testUntilEmpty([]resource.TestStep{
		{
			Config:           env.config(servers),
			ConfigPlanChecks: applied(),
		},
		{
			// Someone set a worker by hand; the empty list is authoritative.
			PreConfig:        func() { env.must(env.admin.SetWorkers(env.ctx(), webRef, []apm.Worker{webWorkerOf(3, 2)})) },
			Config:           config(),
			ConfigPlanChecks: applied(exactActions{"apm_web_workers.w": plancheck.ResourceActionCreate}),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("apm_web_workers.w", tfjsonpath.New("workers"), knownvalue.ListSizeExact(0)),
				statecheck.CompareValuePairs("apm_web_workers.w", tfjsonpath.New("id"), "apm_web_server.w", tfjsonpath.New("id"), compare.ValuesSame()),
			},
			Check: env.checkServer(webRef, workersAre()),
		},
		{
			Config: config(was1, was2),
			ConfigPlanChecks: applied(
				exactActions{"apm_web_workers.w": plancheck.ResourceActionUpdate},
				plancheck.ExpectUnknownValue("apm_web_workers.w", workerPath(0, "host")),
				plancheck.ExpectKnownValue("apm_web_workers.w", workerPath(0, "lb_factor"), knownvalue.Int64Exact(1)),
			),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("apm_web_workers.w", tfjsonpath.New("workers"), knownvalue.ListExact([]knownvalue.Check{
					knownvalue.ObjectExact(map[string]knownvalue.Check{
						"was_server_id": wasID(1), "host": knownvalue.StringExact("10.0.0.21"), "ajp_port": knownvalue.Int64Exact(8009), "lb_factor": knownvalue.Int64Exact(1),
					}),
					knownvalue.ObjectExact(map[string]knownvalue.Check{
						"was_server_id": wasID(2), "host": knownvalue.StringExact("10.0.0.99"), "ajp_port": knownvalue.Int64Exact(8010), "lb_factor": knownvalue.Int64Exact(5),
					}),
				})),
			},
			Check: env.checkServer(webRef, workersAre(webWorkerOf(1, 1), apm.Worker{ServerID: "was-2", NodeName: "app-01", SystemName: "shop", Host: "10.0.0.99", AJPPort: 8010, LBFactor: 5})),
		},
		{
			// The manager reports every worker attribute: nothing to ignore.
			ResourceName:      "apm_web_workers.w",
			ImportState:       true,
			ImportStateId:     "shop/app-01/web-1",
			ImportStateVerify: true,
		},
		{
			// was-3 goes in front of was-1: was-1's defaults are planned as recorded (by
			// position they would be was-2's 10.0.0.99), and only was-3's are unknown.
			Config: final,
			ConfigPlanChecks: applied(
				exactActions{"apm_web_workers.w": plancheck.ResourceActionUpdate},
				plancheck.ExpectUnknownValue("apm_web_workers.w", workerPath(0, "host")),
				plancheck.ExpectUnknownValue("apm_web_workers.w", workerPath(0, "ajp_port")),
				plancheck.ExpectKnownValue("apm_web_workers.w", workerPath(1, "host"), knownvalue.StringExact("10.0.0.21")),
				plancheck.ExpectKnownValue("apm_web_workers.w", workerPath(1, "ajp_port"), knownvalue.Int64Exact(8009)),
				plancheck.ExpectKnownValue("apm_web_workers.w", workerPath(1, "lb_factor"), knownvalue.Int64Exact(7)),
			),
			Check: env.checkServer(webRef, workersAre(webWorkerOf(3, 1), webWorkerOf(1, 7))),
		},
		{
			// The manager answers in another order: no diff.
			PreConfig: func() {
				env.must(env.admin.SetWorkers(env.ctx(), webRef, []apm.Worker{webWorkerOf(1, 7), webWorkerOf(3, 1)}))
			},
			Config:   final,
			PlanOnly: true,
		},
		{
			// A worker added outside Terraform shows, and apply removes it.
			PreConfig: func() {
				env.must(env.admin.SetWorkers(env.ctx(), webRef, []apm.Worker{webWorkerOf(1, 7), webWorkerOf(2, 1), webWorkerOf(3, 1)}))
			},
			Config: final,
			ConfigPlanChecks: applied(
				exactActions{"apm_web_workers.w": plancheck.ResourceActionUpdate},
				plancheck.ExpectKnownValue("apm_web_workers.w", tfjsonpath.New("workers"), knownvalue.ListSizeExact(2)),
				plancheck.ExpectKnownValue("apm_web_workers.w", workerPath(0, "was_server_id"), wasID(3)),
			),
			Check: env.checkServer(webRef, workersAre(webWorkerOf(3, 1), webWorkerOf(1, 7))),
		},
		{
			// Destroying the list (the servers stay) removes every worker.
			Config:           env.config(servers),
			ConfigPlanChecks: applied(exactActions{"apm_web_workers.w": plancheck.ResourceActionDestroy}),
			Check:            env.checkServer(webRef, workersAre()),
		},
	})
}

// A terse manager does not report workers or URI patterns: state keeps what was applied,
// with the defaults the manager chose looked up, and no false drift.
func TestAccWebWorkers_terseManagerKeepsApplied(t *testing.T) {
	env := newAccEnvWith(t, apmsimtest.WithOmitOptionalFields())
	config := env.config(shopNodeHCL() + webServerHCL() + webWASServersHCL(1) +
		workersHCL(`{ was_server_id = apm_was_server.was1.id, lb_factor = 3 }`) + uriPatternsHCL(`"/api/*"`))
	env.testUntilEmpty([]resource.TestStep{
		{
			Config:           config,
			ConfigPlanChecks: applied(),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("apm_web_workers.w", workerPath(0, "host"), knownvalue.StringExact("10.0.0.21")),
				statecheck.ExpectKnownValue("apm_web_workers.w", workerPath(0, "ajp_port"), knownvalue.Int64Exact(8009)),
				statecheck.ExpectKnownValue("apm_web_workers.w", workerPath(0, "lb_factor"), knownvalue.Int64Exact(3)),
				statecheck.ExpectKnownValue("apm_web_uri_patterns.u", tfjsonpath.New("patterns"), knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact("/api/*")})),
			},
			Check: resource.ComposeAggregateTestCheckFunc(
				env.checkServer(webRef, func(s *apm.Server) error {
					return want(!s.Reported.Workers && !s.Reported.URIs, "the manager reports workers or URIs: the test proves nothing")
				}),
				// The manager does not show the worker, but it refuses to uninstall its WAS server.
				func(*terraform.State) error {
					err := env.admin.UninstallServer(env.ctx(), wasRef("was-1"))
					return want(apm.IsConflict(err) && strings.Contains(err.Error(), "load balancer worker of web server web-1"),
						"uninstalling was-1: %v, want a conflict because it is a worker", err)
				},
			),
		},
	})
}

// uriPatternsHCL declares apm_web_uri_patterns.u on apm_web_server.w.
func uriPatternsHCL(patterns ...string) string {
	return fmt.Sprintf(`
resource "apm_web_uri_patterns" "u" {
  web_server_id = apm_web_server.w.id
  patterns      = [%s]
}
`, strings.Join(patterns, ", "))
}

func urisAre(expected ...string) func(s *apm.Server) error {
	return func(s *apm.Server) error {
		return want(slices.Equal(s.URIs, expected), "URIs %q, want %q", s.URIs, expected)
	}
}

// URI patterns: created over a pattern set outside Terraform (removed), imported, changed
// in place, repaired after one was removed and another added outside Terraform, and
// removed from the web server when the resource goes.
func TestAccWebURIPatterns_lifecycle(t *testing.T) {
	env := newAccEnv(t)
	base := shopNodeHCL() + webServerHCL()
	second := env.config(base + uriPatternsHCL(`"/api/*"`, `"/static/*"`))
	env.testUntilEmpty([]resource.TestStep{
		{
			Config:           env.config(base),
			ConfigPlanChecks: applied(),
		},
		{
			PreConfig:        func() { env.must(env.admin.AddURIs(env.ctx(), webRef, []string{"/legacy/*"})) },
			Config:           env.config(base + uriPatternsHCL(`"/shop/*"`, `"/api/*"`)),
			ConfigPlanChecks: applied(exactActions{"apm_web_uri_patterns.u": plancheck.ResourceActionCreate}),
			Check:            env.checkServer(webRef, urisAre("/api/*", "/shop/*")),
		},
		{
			// The manager reports every pattern: nothing to ignore.
			ResourceName:      "apm_web_uri_patterns.u",
			ImportState:       true,
			ImportStateId:     "shop/app-01/web-1",
			ImportStateVerify: true,
		},
		{
			Config:           second,
			ConfigPlanChecks: applied(exactActions{"apm_web_uri_patterns.u": plancheck.ResourceActionUpdate}),
			Check:            env.checkServer(webRef, urisAre("/api/*", "/static/*")),
		},
		{
			PreConfig: func() {
				env.must(env.admin.DeleteURIs(env.ctx(), webRef, []string{"/api/*"}))
				env.must(env.admin.AddURIs(env.ctx(), webRef, []string{"/admin/*"}))
			},
			Config: second,
			ConfigPlanChecks: applied(
				exactActions{"apm_web_uri_patterns.u": plancheck.ResourceActionUpdate},
				plancheck.ExpectKnownValue("apm_web_uri_patterns.u", tfjsonpath.New("patterns"),
					knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact("/api/*"), knownvalue.StringExact("/static/*")})),
			),
			Check: env.checkServer(webRef, urisAre("/api/*", "/static/*")),
		},
		{
			Config:           env.config(base),
			ConfigPlanChecks: applied(exactActions{"apm_web_uri_patterns.u": plancheck.ResourceActionDestroy}),
			Check:            env.checkServer(webRef, urisAre()),
		},
	})
}

// ---- SSL ----

// webTestCert is a certificate for web-1.example signed by parent (self-signed when
// parent is nil), with its key, both PEM-encoded (the key as PKCS#8).
type webTestCert struct {
	cert            *x509.Certificate
	key             *ecdsa.PrivateKey
	certPEM, keyPEM string
}

func newWebTestCert(t *testing.T, name string, parent *webTestCert) webTestCert {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	serial, err := rand.Int(rand.Reader, big.NewInt(1<<62))
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: serial, Subject: pkix.Name{CommonName: name}, DNSNames: []string{name},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, BasicConstraintsValid: true, IsCA: parent == nil,
	}
	signer, signerKey := tmpl, key
	if parent != nil {
		signer, signerKey = parent.cert, parent.key
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, signer, &key.PublicKey, signerKey)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	return webTestCert{cert: cert, key: key,
		certPEM: string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})),
		keyPEM:  string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}))}
}

// secretMarks are the lines of a PEM's body: any of them in a text means the PEM leaked,
// however the text escapes line breaks.
func secretMarks(pemText string) []string {
	var out []string
	for _, line := range strings.Split(pemText, "\n") {
		if len(line) >= 16 && !strings.HasPrefix(line, "-----") {
			out = append(out, line)
		}
	}
	return out
}

func containsSecret(text, pemText string) bool {
	for _, mark := range secretMarks(pemText) {
		if strings.Contains(text, mark) {
			return true
		}
	}
	return false
}

// secretInJSON checks whether the JSON form of a plan or state holds the PEM.
func secretInJSON(what string, v any, pemText string, present bool) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if len(secretMarks(pemText)) == 0 {
		return fmt.Errorf("the secret has no lines to look for")
	}
	if found := containsSecret(string(data), pemText); found != present {
		return fmt.Errorf("the %s (%d bytes of JSON) holds the private key: %v, want %v", what, len(data), found, present)
	}
	return nil
}

// planHoldsKey is a plan check: the plan's JSON holds the PEM (present) or not.
type planHoldsKey struct {
	pem     string
	present bool
}

func (c planHoldsKey) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	resp.Error = secretInJSON("plan", req.Plan, c.pem, c.present)
}

// stateHoldsKey is a state check: the state's JSON holds the PEM (present) or not.
type stateHoldsKey struct {
	pem     string
	present bool
}

func (c stateHoldsKey) CheckState(_ context.Context, req statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	resp.Error = secretInJSON("state", req.State, c.pem, c.present)
}

// sslHCL declares apm_web_ssl.s on apm_web_server.w, with its HTTPS port.
func sslHCL(lines ...string) string {
	return fmt.Sprintf(`
resource "apm_web_ssl" "s" {
  web_server_id = apm_web_server.w.id
  https_port    = apm_web_server.w.https_port
  %s
}
`, strings.Join(lines, "\n  "))
}

func sslIs(httpsPort int64) func(s *apm.Server) error {
	return func(s *apm.Server) error {
		return want(s.SSLEnabled && s.HTTPSPort == httpsPort, "sslEnabled %v on %d, want true on %d", s.SSLEnabled, s.HTTPSPort, httpsPort)
	}
}

// sslPosts counts the SSL set-ups sent since the last reset of the counts.
func (e *accEnv) sslPosts() int {
	n := 0
	for route, count := range e.sim.Sim.RequestCounts() {
		if strings.HasPrefix(route, "POST ") && strings.HasSuffix(route, "/ssl") {
			n += count
		}
	}
	return n
}

// SSL with the sensitive key, which every CLI supports: created with a chain, imported
// (the manager reports no PEM), changed in place (port and certificate), repaired after
// the port was moved outside Terraform, and configured again after SSL went off. The key
// is in plan and state, as documented: the same checks that prove the write-only key
// absent find it here.
func TestAccWebSSL_sensitiveKey(t *testing.T) {
	env := newAccEnv(t)
	ca := newWebTestCert(t, "Test CA", nil)
	first := newWebTestCert(t, "web-1.example", &ca)
	second := newWebTestCert(t, "web-1.example", nil)
	config := func(port int, c webTestCert, chain string) string {
		lines := []string{fmt.Sprintf("certificate_pem = %q", c.certPEM), fmt.Sprintf("private_key_pem = %q", c.keyPEM)}
		if chain != "" {
			lines = append(lines, fmt.Sprintf("ca_chain_pem = %q", chain))
		}
		return env.config(shopNodeHCL() + webServerHCL(fmt.Sprintf("https_port = %d", port)) + sslHCL(lines...))
	}
	final := config(9443, second, "")
	env.testUntilEmpty([]resource.TestStep{
		{
			// Without a key the configuration is invalid, before anything is sent.
			Config:      env.config(shopNodeHCL() + webServerHCL("https_port = 8443") + sslHCL(fmt.Sprintf("certificate_pem = %q", first.certPEM))),
			PlanOnly:    true,
			ExpectError: errorMatching("Exactly one of these attributes must be configured", "[private_key_pem_wo,private_key_pem]"),
		},
		{
			Config:           config(8443, first, ca.certPEM),
			ConfigPlanChecks: applied(creates("apm_web_ssl.s"), planHoldsKey{first.keyPEM, true}),
			ConfigStateChecks: []statecheck.StateCheck{
				stateHoldsKey{first.keyPEM, true},
				attrNull("apm_web_ssl.s", "private_key_pem_wo"),
				statecheck.ExpectSensitiveValue("apm_web_ssl.s", tfjsonpath.New("private_key_pem")),
			},
			Check: env.checkServer(webRef, sslIs(8443)),
		},
		{
			// The manager never returns the certificate, the chain or the key.
			ResourceName:            "apm_web_ssl.s",
			ImportState:             true,
			ImportStateId:           "shop/app-01/web-1",
			ImportStateVerify:       true,
			ImportStateVerifyIgnore: []string{"certificate_pem", "ca_chain_pem", "private_key_pem"},
		},
		{
			Config: final,
			ConfigPlanChecks: applied(exactActions{
				"apm_web_server.w": plancheck.ResourceActionUpdate,
				"apm_web_ssl.s":    plancheck.ResourceActionUpdate,
			}),
			Check: env.checkServer(webRef, sslIs(9443)),
		},
		{
			PreConfig: func() {
				env.must(env.admin.ModifyServer(env.ctx(), webRef, apm.ServerSettings{HTTPSPort: 10443}))
				env.sim.Sim.ResetRequestCounts()
			},
			Config: final,
			ConfigPlanChecks: applied(
				exactActions{"apm_web_server.w": plancheck.ResourceActionUpdate, "apm_web_ssl.s": plancheck.ResourceActionUpdate},
				plancheck.ExpectKnownValue("apm_web_ssl.s", tfjsonpath.New("https_port"), knownvalue.Int64Exact(9443)),
			),
			Check: resource.ComposeAggregateTestCheckFunc(
				env.checkServer(webRef, sslIs(9443)),
				func(*terraform.State) error {
					return want(env.sslPosts() == 1, "%d SSL set-ups sent, want 1", env.sslPosts())
				},
			),
		},
		{
			// Deregistered and registered again outside Terraform, the web server lost its
			// SSL set-up: the next plan creates it again.
			PreConfig: func() {
				env.must(env.admin.DeregisterServer(env.ctx(), webRef))
				env.must(env.admin.RegisterServer(env.ctx(), apm.KindWeb, apm.ServerSpec{ServerID: "web-1", NodeName: "app-01", SystemName: "shop", HTTPPort: 80}))
				env.must(env.checkServer(webRef, func(s *apm.Server) error { return want(!s.SSLEnabled, "SSL still on") })(nil))
			},
			Config:           final,
			ConfigPlanChecks: applied(exactActions{"apm_web_ssl.s": plancheck.ResourceActionCreate}),
			Check:            env.checkServer(webRef, sslIs(9443)),
		},
	})
}

// SSL with the write-only key (Terraform 1.11 and later, OpenTofu): the key reaches the
// manager but never the plan, the state or the TRACE log; a new version sends a new key.
func TestAccWebSSL_writeOnlyKey(t *testing.T) {
	env := newAccEnv(t)
	first := newWebTestCert(t, "web-1.example", nil)
	second := newWebTestCert(t, "web-1.example", nil)
	cliLog := filepath.Join(t.TempDir(), "cli.log")
	setenv(t, "TF_LOG", "TRACE")
	setenv(t, "TF_ACC_LOG_PATH", cliLog)
	// The key is read with file(), as the docs advise: a literal would be part of the
	// configuration, which a saved plan carries (and its JSON shows as constant_value).
	dir := t.TempDir()
	config := func(c webTestCert, version int) string {
		keyFile := filepath.Join(dir, fmt.Sprintf("key-%d.pem", version))
		if err := os.WriteFile(keyFile, []byte(c.keyPEM), 0o600); err != nil {
			t.Fatal(err)
		}
		return env.config(shopNodeHCL() + webServerHCL("https_port = 8443") + sslHCL(
			fmt.Sprintf("certificate_pem = %q", c.certPEM),
			fmt.Sprintf("private_key_pem_wo = file(%q)", keyFile),
			fmt.Sprintf("private_key_pem_wo_version = %d", version)))
	}
	runWriteOnlyAcc(t, resource.ComposeAggregateTestCheckFunc(env.checkAllGone, env.checkSystems()), []resource.TestStep{
		{
			Config: config(first, 1),
			ConfigPlanChecks: applied(
				creates("apm_web_ssl.s"),
				planHoldsKey{first.keyPEM, false},
			),
			ConfigStateChecks: writeOnlyStored("apm_web_ssl.s", "private_key_pem", 1, first.keyPEM, second.keyPEM),
			Check:             env.checkServer(webRef, sslIs(8443)),
		},
		{
			// A new certificate and key, and a new version to send the key.
			PreConfig: env.sim.Sim.ResetRequestCounts,
			Config:    config(second, 2),
			ConfigPlanChecks: applied(
				exactActions{"apm_web_ssl.s": plancheck.ResourceActionUpdate},
				planHoldsKey{second.keyPEM, false},
			),
			ConfigStateChecks: writeOnlyStored("apm_web_ssl.s", "private_key_pem", 2, first.keyPEM, second.keyPEM),
			Check: resource.ComposeAggregateTestCheckFunc(
				env.checkServer(webRef, sslIs(8443)),
				func(*terraform.State) error {
					return want(env.sslPosts() == 1, "%d SSL set-ups sent, want 1", env.sslPosts())
				},
			),
		},
	})
	data, err := os.ReadFile(cliLog)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	if !strings.Contains(text, "apm_path=/rest/web/servers/web-1/nodes/app-01/systems/shop/ssl") {
		t.Errorf("the TRACE log (%d bytes) has no line of the SSL set-up request; the check below would prove nothing", len(data))
	}
	for name, key := range map[string]string{"first": first.keyPEM, "second": second.keyPEM} {
		if containsSecret(text, key) {
			t.Errorf("the TRACE log contains the %s private key", name)
		}
	}
}

// Validators that run at plan, without a CLI.

func TestWebWorkersRefuseAWASServerListedTwice(t *testing.T) {
	ctx := context.Background()
	obj := types.ObjectType{AttrTypes: map[string]attr.Type{"was_server_id": types.StringType, "host": types.StringType, "ajp_port": types.Int64Type, "lb_factor": types.Int64Type}}
	worker := func(id string) attr.Value {
		return types.ObjectValueMust(obj.AttrTypes, map[string]attr.Value{
			"was_server_id": types.StringValue(id), "host": types.StringNull(), "ajp_port": types.Int64Null(), "lb_factor": types.Int64Value(1),
		})
	}
	for _, tc := range []struct {
		ids  []string
		errs int
	}{{[]string{"S/n/a", "S/n/b"}, 0}, {[]string{"S/n/a", "S/n/b", "S/n/a"}, 1}, {nil, 0}} {
		elems := []attr.Value{}
		for _, id := range tc.ids {
			elems = append(elems, worker(id))
		}
		var resp validator.ListResponse
		uniqueWorkersValidator{}.ValidateList(ctx, validator.ListRequest{Path: path.Root("workers"), ConfigValue: types.ListValueMust(obj, elems)}, &resp)
		if resp.Diagnostics.ErrorsCount() != tc.errs {
			t.Errorf("%v: %d errors, want %d: %v", tc.ids, resp.Diagnostics.ErrorsCount(), tc.errs, resp.Diagnostics)
		}
		if tc.errs > 0 && !strings.Contains(resp.Diagnostics[0].Detail(), "workers[0] and workers[2]") {
			t.Errorf("the error must name both positions: %s", resp.Diagnostics[0].Detail())
		}
	}
}

func TestWebSSLPEMValidatorNeverQuotesTheValue(t *testing.T) {
	c := newWebTestCert(t, "web-1.example", nil)
	for _, tc := range []struct {
		kind, value string
		ok          bool
	}{
		{"PRIVATE KEY", c.keyPEM, true},
		{"PRIVATE KEY", strings.ReplaceAll(c.keyPEM, "PRIVATE KEY", "EC PRIVATE KEY"), true},
		{"CERTIFICATE", c.certPEM, true},
		{"CERTIFICATE", c.certPEM + c.certPEM, true}, // a chain
		{"CERTIFICATE", c.keyPEM, false},             // swapped
		{"PRIVATE KEY", c.certPEM, false},
		{"PRIVATE KEY", "no PEM at all", false},
	} {
		var resp validator.StringResponse
		pemValidator{kind: tc.kind}.ValidateString(context.Background(), validator.StringRequest{Path: path.Root("x"), ConfigValue: types.StringValue(tc.value)}, &resp)
		if resp.Diagnostics.HasError() == tc.ok {
			t.Errorf("%s with %.30q: error %v, want %v", tc.kind, tc.value, resp.Diagnostics.HasError(), !tc.ok)
		}
		for _, d := range resp.Diagnostics {
			if containsSecret(d.Summary()+d.Detail(), c.keyPEM) || strings.Contains(d.Detail(), "no PEM at all") {
				t.Errorf("the diagnostic quotes the value: %s", d.Detail())
			}
		}
	}
}

// writeOnlyStored are the state checks of a secret given write-only: none of the values
// is in the state, neither attribute holds a value, and the version is recorded.
func writeOnlyStored(addr, name string, version int64, values ...string) []statecheck.StateCheck {
	checks := make([]statecheck.StateCheck, 0, len(values)+3)
	for _, v := range values {
		checks = append(checks, stateHoldsKey{v, false})
	}
	return append(checks,
		statecheck.ExpectKnownValue(addr, tfjsonpath.New(name+"_wo"), knownvalue.Null()),
		statecheck.ExpectKnownValue(addr, tfjsonpath.New(name), knownvalue.Null()),
		statecheck.ExpectKnownValue(addr, tfjsonpath.New(name+"_wo_version"), knownvalue.Int64Exact(version)))
}
