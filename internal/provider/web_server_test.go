package provider

import (
	"fmt"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/apmsim/apmsimtest"
)

// A web server: install with the manager's default HTTPS port, change it in place,
// import, and a port changed outside Terraform repaired.
func TestAccWebServer_lifecycle(t *testing.T) {
	env := newAccEnv(t)
	ref := env.shopRef(apm.KindWeb, "web-1")
	running := env.serverConfig(apm.KindWeb, "https_port", 8443, "state", "running")
	env.testUntilEmpty([]resource.TestStep{
		{
			Config:           env.serverConfig(apm.KindWeb),
			ConfigPlanChecks: applied(plancheck.ExpectUnknownValue("apm_web_server.w", tfjsonpath.New("https_port"))),
			ConfigStateChecks: []statecheck.StateCheck{
				attrNull("apm_web_server.w", "state"),
			},
			Check: env.checkServer(ref, serverIs("stopped", 80)),
		},
		{
			Config:           running,
			ConfigPlanChecks: applied(exactActions{"apm_web_server.w": plancheck.ResourceActionUpdate}),
			Check: env.checkServer(ref, func(s *apm.Server) error {
				return want(s.HTTPSPort == 8443 && s.Status == "running", "https %d, %s", s.HTTPSPort, s.Status)
			}),
		},
		{
			PreConfig:        func() { env.must(env.admin.ModifyServer(env.ctx(), ref, apm.ServerSettings{HTTPSPort: 9443})) },
			Config:           running,
			ConfigPlanChecks: applied(exactActions{"apm_web_server.w": plancheck.ResourceActionUpdate}),
			Check:            env.checkServer(ref, func(s *apm.Server) error { return want(s.HTTPSPort == 8443, "https %d", s.HTTPSPort) }),
		},
		{
			ResourceName: "apm_web_server.w", ImportState: true, ImportStateVerify: true,
			ImportStateIdFunc:       importIDFrom("apm_system.shop", "/app-01/web-1"),
			ImportStateVerifyIgnore: []string{"mode"}, // not reported by the manager
		},
	})
}

// A start that takes longer than timeouts.create fails, naming the server, its last
// state and the timeout; the server is recorded (tainted) and the next apply, with time
// enough, replaces it.
func TestAccWebServer_startTimesOut(t *testing.T) {
	env := newAccEnvWith(t, apmsimtest.WithTransitionDelay(2*time.Second))
	config := func(timeout string) string {
		return env.serverConfig(apm.KindWeb, "state", "running", "timeouts", hclExpr(fmt.Sprintf(`{ create = %q }`, timeout)))
	}
	env.testUntilEmpty([]resource.TestStep{
		{
			Config: config("500ms"),
			ExpectError: errorMatching(`timed out after`,
				fmt.Sprintf(`web server "web-1" on node "app-01" of system %q to be running (last state: starting)`, env.shop()), `timeouts.create is 500ms`),
		},
		{
			Config:           config("30s"),
			ConfigPlanChecks: applied(exactActions{"apm_web_server.w": plancheck.ResourceActionDestroyBeforeCreate}),
			Check:            env.checkServer(env.shopRef(apm.KindWeb, "web-1"), func(s *apm.Server) error { return want(s.Status == "running", "status %s", s.Status) }),
		},
	})
}

// The answer to setting up a part that the server had already (SSL, a POST) is lost: the
// set-up is sent again, not judged by a look-up, which finds the server as it was before
// and would take it for someone else's.
func TestAccWebSSL_lostAnswerIsSentAgain(t *testing.T) {
	env := newAccEnv(t)
	env.needsSim("injects faults")
	cert := newWebTestCert(t, "web-1.example", nil)
	ref := env.shopRef(apm.KindWeb, "web-1")
	env.testUntilEmpty([]resource.TestStep{
		{Config: env.serverConfig(apm.KindWeb), ConfigPlanChecks: applied()},
		{
			PreConfig: func() {
				env.must(env.admin.ConfigureSSL(env.ctx(), ref, apm.SSLConfig{HTTPSPort: 8443, CertificatePEM: cert.certPEM, PrivateKeyPEM: cert.keyPEM}))
				env.faults("POST /rest/web/servers/*/ssl status=502 times=1")
			},
			// No drift check: the SSL set-up moves the web server's https_port (the
			// manager's choice, as it is not configured), which a refresh reports.
			Config: retryingProvider(env, 2) + env.shopNodeTF() + serverTF(t, apm.KindWeb) + tf(t, "web_server/ssl.tf",
				"web_server_id", hclExpr("apm_web_server.w.id"), "certificate_pem", cert.certPEM, "private_key_pem", cert.keyPEM),
			Check: env.checkServer(ref, sslIs(9443)),
		},
	})
}
