package provider

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/apmsim"
)

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

// sslIs passes when SSL is on, on the HTTPS port.
func sslIs(httpsPort int64) func(s *apm.Server) error {
	return func(s *apm.Server) error {
		return want(s.SSLEnabled && s.HTTPSPort == httpsPort, "sslEnabled %v on %d, want true on %d", s.SSLEnabled, s.HTTPSPort, httpsPort)
	}
}

// SSL with the sensitive key, which every CLI supports: created with a chain, imported
// (the manager reports no PEM), changed in place (port and certificate), repaired after
// the port was moved outside Terraform, and configured again after SSL went off. The key
// is in plan and state, as documented: the same checks that prove the write-only key
// absent find it here.
func TestAccWebSSL_sensitiveKey(t *testing.T) {
	env := newAccEnv(t)
	sim := env.needsSim("counts the SSL set-ups that a repair sends")
	shop, web1 := env.name("shop"), env.shopWeb1()
	ca := newWebTestCert(t, "Test CA", nil)
	first := newWebTestCert(t, "web-1.example", &ca)
	second := newWebTestCert(t, "web-1.example", nil)
	// SSL on the HTTPS port with a certificate, its key and a chain (any may be null).
	config := func(port int, certificate, key, chain any) string {
		return env.config(tf(t, "web_ssl/sensitive_key.tf", "system_name", shop, "https_port", port,
			"certificate_pem", certificate, "private_key_pem", key, "ca_chain_pem", chain))
	}
	none := hclExpr("null")
	final := config(9443, second.certPEM, second.keyPEM, none)
	env.testUntilEmpty([]resource.TestStep{
		{
			// Without a key the configuration is invalid, before anything is sent.
			Config:      config(8443, first.certPEM, none, none),
			PlanOnly:    true,
			ExpectError: errorMatching("Missing private key", "Set `private_key_pem_wo`", "or `private_key_pem`"),
		},
		{
			Config:           config(8443, first.certPEM, first.keyPEM, ca.certPEM),
			ConfigPlanChecks: applied(creates("apm_web_ssl.s"), planHoldsKey{first.keyPEM, true}),
			ConfigStateChecks: []statecheck.StateCheck{
				stateHoldsKey{first.keyPEM, true},
				attrNull("apm_web_ssl.s", "private_key_pem_wo"),
				statecheck.ExpectSensitiveValue("apm_web_ssl.s", tfjsonpath.New("private_key_pem")),
			},
			Check: env.checkServer(web1, sslIs(8443)),
		},
		{
			// The manager never returns the certificate, the chain or the key.
			ResourceName:            "apm_web_ssl.s",
			ImportState:             true,
			ImportStateId:           shop + "/app-01/web-1",
			ImportStateVerify:       true,
			ImportStateVerifyIgnore: []string{"certificate_pem", "ca_chain_pem", "private_key_pem"},
		},
		{
			Config: final,
			ConfigPlanChecks: applied(exactActions{
				"apm_web_server.w": plancheck.ResourceActionUpdate,
				"apm_web_ssl.s":    plancheck.ResourceActionUpdate,
			}),
			Check: env.checkServer(web1, sslIs(9443)),
		},
		{
			PreConfig: func() {
				env.must(env.admin.ModifyServer(env.ctx(), web1, apm.ServerSettings{HTTPSPort: 10443}))
				sim.ResetRequestCounts()
			},
			Config: final,
			ConfigPlanChecks: applied(
				exactActions{"apm_web_server.w": plancheck.ResourceActionUpdate, "apm_web_ssl.s": plancheck.ResourceActionUpdate},
				plancheck.ExpectKnownValue("apm_web_ssl.s", tfjsonpath.New("https_port"), knownvalue.Int64Exact(9443)),
			),
			Check: resource.ComposeAggregateTestCheckFunc(
				env.checkServer(web1, sslIs(9443)),
				sslPostsAre(sim, 1),
			),
		},
		{
			// Deregistered and registered again outside Terraform, the web server lost its
			// SSL set-up: the next plan creates it again.
			PreConfig: func() {
				env.must(env.admin.DeregisterServer(env.ctx(), web1))
				env.must(env.admin.RegisterServer(env.ctx(), apm.KindWeb, apm.ServerSpec{ServerID: "web-1", NodeName: "app-01", SystemName: shop, HTTPPort: 80}))
				env.must(env.checkServer(web1, func(s *apm.Server) error { return want(!s.SSLEnabled, "SSL still on") })(nil))
			},
			Config:           final,
			ConfigPlanChecks: applied(exactActions{"apm_web_ssl.s": plancheck.ResourceActionCreate}),
			Check:            env.checkServer(web1, sslIs(9443)),
		},
	})
}

// sslPostsAre passes when the sim received want SSL set-ups since its counts were reset.
func sslPostsAre(sim *apmsim.Sim, n int) resource.TestCheckFunc {
	return func(*terraform.State) error {
		posts := routeCount(sim, "POST", "/ssl")
		return want(posts == n, "%d SSL set-ups sent, want %d", posts, n)
	}
}

// SSL with the write-only key (Terraform 1.11 and later, OpenTofu): the key reaches the
// manager but never the plan, the state or the TRACE log; a new version sends a new key.
func TestAccWebSSL_writeOnlyKey(t *testing.T) {
	env := newAccEnv(t)
	sim := env.needsSim("counts the SSL set-ups that a new key version sends")
	shop, web1 := env.name("shop"), env.shopWeb1()
	first := newWebTestCert(t, "web-1.example", nil)
	second := newWebTestCert(t, "web-1.example", nil)
	cliLog := filepath.Join(t.TempDir(), "cli.log")
	setenv(t, "TF_LOG", "TRACE")
	setenv(t, "TF_ACC_LOG_PATH", cliLog)
	// The configuration reads the key from a file, as the docs advise.
	dir := t.TempDir()
	config := func(c webTestCert, version int) string {
		keyFile := filepath.Join(dir, fmt.Sprintf("key-%d.pem", version))
		if err := os.WriteFile(keyFile, []byte(c.keyPEM), 0o600); err != nil {
			t.Fatal(err)
		}
		return env.config(tf(t, "web_ssl/write_only_key.tf", "system_name", shop, "https_port", 8443,
			"certificate_pem", c.certPEM, "private_key_file", keyFile, "private_key_version", version))
	}
	runWriteOnlyAcc(t, resource.ComposeAggregateTestCheckFunc(env.checkAllGone, env.checkSystems()), []resource.TestStep{
		{
			Config: config(first, 1),
			ConfigPlanChecks: applied(
				creates("apm_web_ssl.s"),
				planHoldsKey{first.keyPEM, false},
			),
			ConfigStateChecks: writeOnlyStored("apm_web_ssl.s", "private_key_pem", 1, first.keyPEM, second.keyPEM),
			Check:             env.checkServer(web1, sslIs(8443)),
		},
		{
			// A new certificate and key, and a new version to send the key.
			PreConfig: sim.ResetRequestCounts,
			Config:    config(second, 2),
			ConfigPlanChecks: applied(
				exactActions{"apm_web_ssl.s": plancheck.ResourceActionUpdate},
				planHoldsKey{second.keyPEM, false},
			),
			ConfigStateChecks: writeOnlyStored("apm_web_ssl.s", "private_key_pem", 2, first.keyPEM, second.keyPEM),
			Check: resource.ComposeAggregateTestCheckFunc(
				env.checkServer(web1, sslIs(8443)),
				sslPostsAre(sim, 1),
			),
		},
	})
	data, err := os.ReadFile(cliLog)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	if !strings.Contains(text, "apm_path=/rest/web/servers/web-1/nodes/app-01/systems/"+shop+"/ssl") {
		t.Errorf("the TRACE log (%d bytes) has no line of the SSL set-up request; the check below would prove nothing", len(data))
	}
	for name, key := range map[string]string{"first": first.keyPEM, "second": second.keyPEM} {
		if containsSecret(text, key) {
			t.Errorf("the TRACE log contains the %s private key", name)
		}
	}
}

// ---- without a CLI ----

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
		pemValidator(tc.kind).ValidateString(context.Background(), validator.StringRequest{Path: path.Root("x"), ConfigValue: types.StringValue(tc.value)}, &resp)
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
