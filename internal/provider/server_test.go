package provider

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/apmsim/apmsimtest"
)

// serverHCL declares apm_<kind>_server.<label> on apm_node.app (shopNodeHCL), with the
// given body lines besides node_id.
func serverHCL(kind, label string, lines ...string) string {
	return fmt.Sprintf(serverBlocks[kind]+`
  node_id = apm_node.app.id
  %s
}
`, label, strings.Join(lines, "\n  "))
}

// serverBlocks open the block of each kind.
var serverBlocks = map[string]string{
	"was":     `resource "apm_was_server" %q {`,
	"web":     `resource "apm_web_server" %q {`,
	"session": `resource "apm_session_server" %q {`,
}

// shopNodeHCL declares the system "shop" and its node app-01 (apm_node.app).
func shopNodeHCL() string {
	return systemHCL("shop", "shop") + nodeHCL("app", "apm_system.shop.id", "app-01", "10.0.0.21", 7730)
}

// wasRef is the WAS server id on shop/app-01.
func wasRef(id string) apm.ServerRef {
	return apm.ServerRef{Kind: apm.KindWAS, ServerID: id, NodeName: "app-01", SystemName: "shop"}
}

// checkServer compares the manager's server with want, a function that returns why not.
func (e *accEnv) checkServer(ref apm.ServerRef, want func(s *apm.Server) error) resource.TestCheckFunc {
	return func(*terraform.State) error {
		s, err := e.admin.GetServer(e.ctx(), ref)
		if err != nil {
			return fmt.Errorf("%s: %w", ref, err)
		}
		if err := want(s); err != nil {
			return fmt.Errorf("%s: %w", ref, err)
		}
		return nil
	}
}

func serverIs(status string, httpPort int64) func(s *apm.Server) error {
	return func(s *apm.Server) error {
		if s.Status != status || s.HTTPPort != httpPort {
			return fmt.Errorf("is %s on %d, want %s on %d", s.Status, s.HTTPPort, status, httpPort)
		}
		return nil
	}
}

// A WAS server: install and start, change ports and java_home in place and stop, drift
// (started and moved outside Terraform) repaired, import, replacement by edition.
func TestAccWASServer_lifecycle(t *testing.T) {
	env := newAccEnv(t)
	config := func(lines ...string) string {
		return env.config(shopNodeHCL() + serverHCL("was", "a", lines...))
	}
	first := config(`server_id = "was-1"`, `mode = "install"`, `http_port = 8080`, `ajp_port = 8009`, `state = "running"`)
	second := config(`server_id = "was-1"`, `mode = "install"`, `http_port = 8081`, `ajp_port = 8009`,
		`java_home = "/opt/jdk-21"`, `state = "stopped"`, `force_stop = true`)
	env.testUntilEmpty([]resource.TestStep{
		{
			Config:           first,
			ConfigPlanChecks: applied(creates("apm_was_server.a")),
			ConfigStateChecks: []statecheck.StateCheck{
				attrString("apm_was_server.a", "server_type", "Standard"),
				attrString("apm_was_server.a", "install_root_path", "/opt/apm/was/was-1"),
				attrBool("apm_was_server.a", "force_stop", false),
				attrString("apm_was_server.a", "state", "running"),
			},
			Check: resource.ComposeAggregateTestCheckFunc(
				env.checkExists("apm_was_server.a"),
				env.checkServer(wasRef("was-1"), serverIs("running", 8080)),
				resource.TestCheckResourceAttrPair("apm_was_server.a", "node_id", "apm_node.app", "id"),
			),
		},
		{
			Config:           second,
			ConfigPlanChecks: applied(exactActions{"apm_was_server.a": plancheck.ResourceActionUpdate}),
			Check: resource.ComposeAggregateTestCheckFunc(
				env.checkServer(wasRef("was-1"), serverIs("stopped", 8081)),
				env.checkServer(wasRef("was-1"), func(s *apm.Server) error {
					if s.JavaHome != "/opt/jdk-21" {
						return fmt.Errorf("javaHome %q", s.JavaHome)
					}
					return nil
				}),
			),
		},
		{
			// Another operator started it and moved its HTTP port.
			PreConfig: func() {
				env.must(env.admin.ModifyServer(env.ctx(), wasRef("was-1"), apm.ServerSettings{HTTPPort: 9090}))
				env.must(env.admin.StartServer(env.ctx(), wasRef("was-1")))
			},
			Config: second,
			ConfigPlanChecks: applied(
				exactActions{"apm_was_server.a": plancheck.ResourceActionUpdate},
				plancheck.ExpectKnownValue("apm_was_server.a", tfjsonpath.New("http_port"), knownvalue.Int64Exact(8081)),
			),
			Check: env.checkServer(wasRef("was-1"), serverIs("stopped", 8081)),
		},
		{
			ResourceName:            "apm_was_server.a",
			ImportState:             true,
			ImportStateId:           "shop/app-01/was-1",
			ImportStateVerify:       true,
			ImportStateVerifyIgnore: []string{"mode", "force_stop"}, // not reported by the manager
		},
		{
			// The edition cannot change in place: the server is replaced (stopped first).
			Config: config(`server_id = "was-1"`, `mode = "install"`, `http_port = 8081`, `ajp_port = 8009`,
				`java_home = "/opt/jdk-21"`, `state = "running"`, `server_type = "Enterprise"`),
			ConfigPlanChecks: applied(exactActions{"apm_was_server.a": plancheck.ResourceActionDestroyBeforeCreate}),
			Check: env.checkServer(wasRef("was-1"), func(s *apm.Server) error {
				if s.Edition != apm.EditionEnterprise || s.Status != "running" {
					return fmt.Errorf("is %s %s", s.Edition, s.Status)
				}
				return nil
			}),
		},
	})
}

// Without state in the configuration the running state is not managed: a server started
// outside Terraform is no drift.
func TestAccSessionServer_stateLeftAlone(t *testing.T) {
	env := newAccEnv(t)
	config := env.config(shopNodeHCL() + serverHCL("session", "s", `server_id = "session-1"`, `mode = "install"`, `server_port = 15200`))
	ref := apm.ServerRef{Kind: apm.KindSession, ServerID: "session-1", NodeName: "app-01", SystemName: "shop"}
	env.testUntilEmpty([]resource.TestStep{
		{
			Config:            config,
			ConfigPlanChecks:  applied(),
			ConfigStateChecks: []statecheck.StateCheck{attrNull("apm_session_server.s", "state")},
			Check:             env.checkServer(ref, func(s *apm.Server) error { return want(s.Status == "stopped", "status %s", s.Status) }),
		},
		{
			PreConfig: func() { env.must(env.admin.StartServer(env.ctx(), ref)) },
			Config:    config,
			PlanOnly:  true,
		},
	})
}

// A start that takes longer than timeouts.create fails, naming the server, its last
// state and the timeout; the server is recorded (tainted) and the next apply, with time
// enough, replaces it.
func TestAccWebServer_startTimesOut(t *testing.T) {
	env := newAccEnvWith(t, apmsimtest.WithTransitionDelay(2*time.Second))
	config := func(timeout string) string {
		return env.config(shopNodeHCL() + serverHCL("web", "w", `server_id = "web-1"`, `mode = "install"`, `http_port = 80`,
			`state = "running"`, fmt.Sprintf(`timeouts = { create = %q }`, timeout)))
	}
	env.testUntilEmpty([]resource.TestStep{
		{
			Config:      config("500ms"),
			ExpectError: errorMatching(`timed out after`, `web server "web-1" on node "app-01" of system "shop" to be running (last state: starting)`, `timeouts.create is 500ms`),
		},
		{
			Config:           config("30s"),
			ConfigPlanChecks: applied(exactActions{"apm_web_server.w": plancheck.ResourceActionDestroyBeforeCreate}),
			Check: env.checkServer(apm.ServerRef{Kind: apm.KindWeb, ServerID: "web-1", NodeName: "app-01", SystemName: "shop"},
				func(s *apm.Server) error { return want(s.Status == "running", "status %s", s.Status) }),
		},
	})
}

// want is nil when ok, else the formatted complaint.
func want(ok bool, format string, args ...any) error {
	if ok {
		return nil
	}
	return fmt.Errorf(format, args...)
}

// Registering: an id the existing node does not offer fails at plan, naming what it
// offers; a registered server starts as declared; destroy deregisters it, and the node
// offers it again.
func TestAccWASServer_register(t *testing.T) {
	env := newAccEnv(t)
	register := func(id string, port int) string {
		return env.config(shopNodeHCL() + serverHCL("was", "r", fmt.Sprintf(`server_id = %q`, id), `mode = "register"`,
			fmt.Sprintf(`http_port = %d`, port), `state = "running"`))
	}
	offered := func(offer bool) resource.TestCheckFunc {
		return func(*terraform.State) error {
			list, err := env.admin.ListRegisterableServers(env.ctx(), apm.KindWAS, "shop", "app-01")
			if err != nil {
				return err
			}
			found := false
			for _, s := range list {
				found = found || s.ServerID == "was-reg-1"
			}
			return want(found == offer, "was-reg-1 offered for registration: %v, want %v", found, offer)
		}
	}
	env.testUntilEmpty([]resource.TestStep{
		{Config: env.config(shopNodeHCL()), ConfigPlanChecks: applied(), Check: offered(true)},
		{
			Config:      register("was-nope", 18080),
			PlanOnly:    true,
			ExpectError: errorMatching(`No such registerable WAS server`, `offers no registerable WAS server "was-nope"; it offers WAS servers "was-reg-1"`),
		},
		{
			Config:           register("was-reg-1", 18080),
			ConfigPlanChecks: applied(exactActions{"apm_was_server.r": plancheck.ResourceActionCreate}),
			Check: resource.ComposeAggregateTestCheckFunc(
				env.checkServer(wasRef("was-reg-1"), serverIs("running", 18080)),
				offered(false),
			),
		},
		{
			// Destroying the server stops and deregisters it: the node offers it again.
			Config:           env.config(shopNodeHCL()),
			ConfigPlanChecks: applied(exactActions{"apm_was_server.r": plancheck.ResourceActionDestroy}),
			Check:            offered(true),
		},
	})
}

// Where the node is created in the same run, its id is unknown at plan: the registration
// fails at apply (when the plan is made again with the node known), listing what the node
// offers.
func TestAccSessionServer_registerUnknownFailsAtApply(t *testing.T) {
	env := newAccEnv(t)
	env.testUntilEmpty([]resource.TestStep{{
		Config:      env.config(shopNodeHCL() + serverHCL("session", "s", `server_id = "nope"`, `mode = "register"`, `server_port = 15300`)),
		ExpectError: errorMatching(`Error running apply`, `offers no registerable session server "nope"; it offers session servers "session-reg-1"`),
	}})
}

// A web server: install with the manager's default HTTPS port, change it in place,
// import, and a port changed outside Terraform repaired.
func TestAccWebServer_lifecycle(t *testing.T) {
	env := newAccEnv(t)
	ref := apm.ServerRef{Kind: apm.KindWeb, ServerID: "web-1", NodeName: "app-01", SystemName: "shop"}
	config := func(lines ...string) string {
		return env.config(shopNodeHCL() + serverHCL("web", "w", append([]string{`server_id = "web-1"`, `mode = "install"`, `http_port = 80`}, lines...)...))
	}
	env.testUntilEmpty([]resource.TestStep{
		{
			Config:           config(),
			ConfigPlanChecks: applied(plancheck.ExpectUnknownValue("apm_web_server.w", tfjsonpath.New("https_port"))),
			ConfigStateChecks: []statecheck.StateCheck{
				attrNull("apm_web_server.w", "state"),
			},
			Check: env.checkServer(ref, serverIs("stopped", 80)),
		},
		{
			Config:           config(`https_port = 8443`, `state = "running"`),
			ConfigPlanChecks: applied(exactActions{"apm_web_server.w": plancheck.ResourceActionUpdate}),
			Check: env.checkServer(ref, func(s *apm.Server) error {
				return want(s.HTTPSPort == 8443 && s.Status == "running", "https %d, %s", s.HTTPSPort, s.Status)
			}),
		},
		{
			PreConfig:        func() { env.must(env.admin.ModifyServer(env.ctx(), ref, apm.ServerSettings{HTTPSPort: 9443})) },
			Config:           config(`https_port = 8443`, `state = "running"`),
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

// The answers to a start and to a stop are lost after the manager carried them out: the
// provider looks again and finds the server where it should be, instead of failing and
// tainting it.
func TestAccFaults_lostStartAndStopAnswers(t *testing.T) {
	env := newAccEnv(t)
	config := func(state string) string {
		return env.config(shopNodeHCL() + serverHCL("was", "a", `server_id = "was-1"`, `mode = "install"`, `http_port = 8080`,
			fmt.Sprintf(`state = %q`, state)))
	}
	actions := func(sent int) resource.TestCheckFunc {
		return func(*terraform.State) error {
			n := env.sim.Sim.RequestCounts()["POST /rest/was/servers/{serverId}/nodes/{nodeName}/systems/{systemName}/action"]
			return want(n == sent, "%d actions sent, want %d (a lost answer that took effect must not be sent again)", n, sent)
		}
	}
	env.testUntilEmpty([]resource.TestStep{
		{
			PreConfig:        func() { env.faults("POST /rest/was/servers/*/action status=502 after=true times=1") },
			Config:           config("running"),
			ConfigPlanChecks: applied(),
			Check:            resource.ComposeAggregateTestCheckFunc(env.checkServer(wasRef("was-1"), serverIs("running", 8080)), actions(1)),
		},
		{
			PreConfig:        func() { env.faults("POST /rest/was/servers/*/action reset=true after=true times=1") },
			Config:           config("stopped"),
			ConfigPlanChecks: applied(exactActions{"apm_was_server.a": plancheck.ResourceActionUpdate}),
			Check:            resource.ComposeAggregateTestCheckFunc(env.checkServer(wasRef("was-1"), serverIs("stopped", 8080)), actions(2)),
		},
	})
}

// A session server: install stopped, start and move its port in place, a server stopped
// outside Terraform started again, import, and replacement by a new server id.
func TestAccSessionServer_lifecycle(t *testing.T) {
	env := newAccEnv(t)
	ref := func(id string) apm.ServerRef {
		return apm.ServerRef{Kind: apm.KindSession, ServerID: id, NodeName: "app-01", SystemName: "shop"}
	}
	config := func(id string, port int, state string) string {
		return env.config(shopNodeHCL() + serverHCL("session", "s", fmt.Sprintf(`server_id = %q`, id), `mode = "install"`,
			fmt.Sprintf(`server_port = %d`, port), fmt.Sprintf(`state = %q`, state)))
	}
	port := func(id string, p int64, status string) resource.TestCheckFunc {
		return env.checkServer(ref(id), func(s *apm.Server) error {
			return want(s.ServerPort == p && s.Status == status, "port %d %s, want %d %s", s.ServerPort, s.Status, p, status)
		})
	}
	env.testUntilEmpty([]resource.TestStep{
		{Config: config("session-1", 15200, "stopped"), ConfigPlanChecks: applied(), Check: port("session-1", 15200, "stopped")},
		{
			Config:           config("session-1", 15201, "running"),
			ConfigPlanChecks: applied(exactActions{"apm_session_server.s": plancheck.ResourceActionUpdate}),
			Check:            port("session-1", 15201, "running"),
		},
		{
			PreConfig: func() { env.must(env.admin.StopServer(env.ctx(), ref("session-1"), false)) },
			Config:    config("session-1", 15201, "running"),
			ConfigPlanChecks: applied(exactActions{"apm_session_server.s": plancheck.ResourceActionUpdate},
				plancheck.ExpectKnownValue("apm_session_server.s", tfjsonpath.New("state"), knownvalue.StringExact("running"))),
			Check: port("session-1", 15201, "running"),
		},
		{
			ResourceName: "apm_session_server.s", ImportState: true, ImportStateVerify: true,
			ImportStateId:           "shop/app-01/session-1",
			ImportStateVerifyIgnore: []string{"mode"}, // not reported by the manager
		},
		{
			Config:           config("session-2", 15201, "running"),
			ConfigPlanChecks: applied(exactActions{"apm_session_server.s": plancheck.ResourceActionDestroyBeforeCreate}),
			Check: resource.ComposeAggregateTestCheckFunc(port("session-2", 15201, "running"), func(*terraform.State) error {
				_, err := env.admin.GetServer(env.ctx(), ref("session-1"))
				return want(apm.IsNotFound(err), "session-1 should be uninstalled, got %v", err)
			}),
		},
	})
}

// The answer to an install is lost after the manager carried it out: the server is
// recovered, although it is not yet in its declared state, and then started and given
// its java_home.
func TestAccFaults_lostInstallAnswerIsRecoveredAndSettled(t *testing.T) {
	env := newAccEnv(t)
	env.testUntilEmpty([]resource.TestStep{{
		PreConfig: func() { env.faults("POST /rest/was/servers status=502 after=true times=1") },
		Config: env.config(shopNodeHCL() + serverHCL("was", "a", `server_id = "was-1"`, `mode = "install"`, `http_port = 8080`,
			`java_home = "/opt/jdk-21"`, `state = "running"`)),
		ConfigPlanChecks: applied(),
		Check: resource.ComposeAggregateTestCheckFunc(
			env.checkServer(wasRef("was-1"), serverIs("running", 8080)),
			env.checkServer(wasRef("was-1"), func(s *apm.Server) error { return want(s.JavaHome == "/opt/jdk-21", "javaHome %q", s.JavaHome) }),
			func(*terraform.State) error {
				n := env.sim.Sim.RequestCounts()["POST /rest/was/servers"]
				return want(n == 1, "the install was sent %d times, want 1", n)
			},
		),
	}})
}

// The answer to setting up a part that the server had already (SSL, a POST) is lost: the
// set-up is sent again, not judged by a look-up, which finds the server as it was before
// and would take it for someone else's.
func TestAccFaults_lostPartAnswerIsSentAgain(t *testing.T) {
	env := newAccEnv(t)
	cert := newWebTestCert(t, "web-1.example", nil)
	server := shopNodeHCL() + webServerHCL()
	config := retryingProvider(env, 2) + server + fmt.Sprintf(`
resource "apm_web_ssl" "s" {
  web_server_id   = apm_web_server.w.id
  https_port      = 9443
  certificate_pem = %q
  private_key_pem = %q
}
`, cert.certPEM, cert.keyPEM)
	env.testUntilEmpty([]resource.TestStep{
		{Config: env.config(server), ConfigPlanChecks: applied()},
		{
			PreConfig: func() {
				env.must(env.admin.ConfigureSSL(env.ctx(), webRef, apm.SSLConfig{HTTPSPort: 8443, CertificatePEM: cert.certPEM, PrivateKeyPEM: cert.keyPEM}))
				env.faults("POST /rest/web/servers/*/ssl status=502 times=1")
			},
			// No drift check: the SSL set-up moves the web server's https_port (the
			// manager's choice, as it is not configured), which a refresh reports.
			Config: config,
			Check:  env.checkServer(webRef, sslIs(9443)),
		},
	})
}

// A WAS server cannot be deleted while parts remain: destroy waits within timeouts.delete,
// and the error then names what remains, here a datasource attached outside Terraform.
func TestAccWASServer_deleteWaitsForParts(t *testing.T) {
	env := newAccEnv(t)
	env.must(env.admin.CreateDatabase(env.ctx(), apm.DatabaseSpec{ResourceName: "orders-db", DatabaseType: "PostgreSQL",
		Host: "10.0.1.30", Port: 5432, DatabaseName: "orders", UserName: "shop", Password: "Test-only-1"}))
	env.must(env.admin.CreateDatasource(env.ctx(), apm.DatasourceSpec{ResourceName: "orders-ds", DatabaseResourceName: "orders-db"}))
	server := env.config(shopNodeHCL() + serverHCL("was", "a", `server_id = "was-1"`, `mode = "install"`, `http_port = 8080`,
		`state = "running"`, `timeouts = { delete = "2s" }`))
	env.testUntilEmpty([]resource.TestStep{
		{Config: server, ConfigPlanChecks: applied()},
		{
			PreConfig:   func() { env.must(env.admin.AttachDatasource(env.ctx(), wasRef("was-1"), "orders-ds")) },
			Config:      env.config(shopNodeHCL()),
			ExpectError: errorMatching(`gave up after 2s: still held by datasource "orders-ds" (apm_was_datasource)`, `raise timeouts.delete`),
		},
		{
			PreConfig:        func() { env.must(env.admin.DetachDatasource(env.ctx(), wasRef("was-1"), "orders-ds")) },
			Config:           env.config(shopNodeHCL()),
			ConfigPlanChecks: applied(exactActions{"apm_was_server.a": plancheck.ResourceActionDestroy}),
			Check: func(*terraform.State) error {
				_, err := env.admin.GetServer(env.ctx(), wasRef("was-1"))
				return want(apm.IsNotFound(err), "was-1 should be gone, got %v", err)
			},
		},
	})
}

// A node whose read-back fails is recorded with its id, so that the server on it is
// created in the same apply (before, the server failed: node_id had no value).
func TestAccFaults_nodeReadBackFailsServerStillCreated(t *testing.T) {
	env := newAccEnv(t)
	env.testUntilEmpty([]resource.TestStep{{
		PreConfig: func() { env.faults("GET /rest/nodes/* status=502 times=1") },
		Config:    env.config(shopNodeHCL() + serverHCL("session", "s", `server_id = "session-1"`, `mode = "install"`, `server_port = 15200`)),
		// The node's values that only the manager knows (node_id) fill in at the next refresh.
		ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
		Check: resource.ComposeAggregateTestCheckFunc(
			resource.TestCheckResourceAttrPair("apm_session_server.s", "node_id", "apm_node.app", "id"),
			env.checkServer(apm.ServerRef{Kind: apm.KindSession, ServerID: "session-1", NodeName: "app-01", SystemName: "shop"},
				func(s *apm.Server) error { return want(s.ServerPort == 15200, "port %d", s.ServerPort) }),
		),
	}})
}
