package provider

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
)

// A WAS server: install and start, change ports and java_home in place and stop, drift
// (started and moved outside Terraform) repaired, import, replacement by edition.
func TestAccWASServer_lifecycle(t *testing.T) {
	env := newAccEnv(t)
	ref := env.shopRef(apm.KindWAS, "was-1")
	first := env.serverConfig(apm.KindWAS, "ajp_port", 8009, "state", "running")
	second := env.serverConfig(apm.KindWAS, "http_port", 8081, "ajp_port", 8009, "java_home", "/opt/jdk-21", "state", "stopped", "force_stop", true)
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
				env.checkServer(ref, serverIs("running", 8080)),
				resource.TestCheckResourceAttrPair("apm_was_server.a", "node_id", "apm_node.app", "id"),
			),
		},
		{
			Config:           second,
			ConfigPlanChecks: applied(exactActions{"apm_was_server.a": plancheck.ResourceActionUpdate}),
			Check: resource.ComposeAggregateTestCheckFunc(
				env.checkServer(ref, serverIs("stopped", 8081)),
				env.checkServer(ref, func(s *apm.Server) error { return want(s.JavaHome == "/opt/jdk-21", "javaHome %q", s.JavaHome) }),
			),
		},
		{
			// Another operator started it and moved its HTTP port.
			PreConfig: func() {
				env.must(env.admin.ModifyServer(env.ctx(), ref, apm.ServerSettings{HTTPPort: 9090}))
				env.must(env.admin.StartServer(env.ctx(), ref))
			},
			Config: second,
			ConfigPlanChecks: applied(
				exactActions{"apm_was_server.a": plancheck.ResourceActionUpdate},
				plancheck.ExpectKnownValue("apm_was_server.a", tfjsonpath.New("http_port"), knownvalue.Int64Exact(8081)),
			),
			Check: env.checkServer(ref, serverIs("stopped", 8081)),
		},
		{
			ResourceName:            "apm_was_server.a",
			ImportState:             true,
			ImportStateId:           env.shop() + "/app-01/was-1",
			ImportStateVerify:       true,
			ImportStateVerifyIgnore: []string{"mode", "force_stop"}, // not reported by the manager
		},
		{
			// The edition cannot change in place: the server is replaced (stopped first).
			Config: env.serverConfig(apm.KindWAS, "http_port", 8081, "ajp_port", 8009, "java_home", "/opt/jdk-21", "state", "running",
				"server_type", "Enterprise"),
			ConfigPlanChecks: applied(exactActions{"apm_was_server.a": plancheck.ResourceActionDestroyBeforeCreate}),
			Check: env.checkServer(ref, func(s *apm.Server) error {
				return want(s.Edition == apm.EditionEnterprise && s.Status == "running", "is %s %s", s.Edition, s.Status)
			}),
		},
	})
}

// Registering: an id the existing node does not offer fails at plan, naming what it
// offers; a registered server starts as declared; destroy deregisters it, and the node
// offers it again.
func TestAccWASServer_register(t *testing.T) {
	env := newAccEnv(t)
	register := func(id string) string {
		return env.serverConfig(apm.KindWAS, "server_id", id, "mode", "register", "http_port", 18080, "state", "running")
	}
	offered := func(offer bool) resource.TestCheckFunc {
		return func(*terraform.State) error {
			list, err := env.admin.ListRegisterableServers(env.ctx(), apm.KindWAS, env.shop(), "app-01")
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
		{Config: env.shopNode(), ConfigPlanChecks: applied(), Check: offered(true)},
		{
			Config:      register("was-nope"),
			PlanOnly:    true,
			ExpectError: errorMatching(`No such registerable WAS server`, `offers no registerable WAS server "was-nope"; it offers WAS servers "was-reg-1"`),
		},
		{
			Config:           register("was-reg-1"),
			ConfigPlanChecks: applied(exactActions{"apm_was_server.a": plancheck.ResourceActionCreate}),
			Check: resource.ComposeAggregateTestCheckFunc(
				env.checkServer(env.shopRef(apm.KindWAS, "was-reg-1"), serverIs("running", 18080)),
				offered(false),
			),
		},
		{
			// Destroying the server stops and deregisters it: the node offers it again.
			Config:           env.shopNode(),
			ConfigPlanChecks: applied(exactActions{"apm_was_server.a": plancheck.ResourceActionDestroy}),
			Check:            offered(true),
		},
	})
}

// The answers to a start and to a stop are lost after the manager carried them out: the
// provider looks again and finds the server where it should be, instead of failing and
// tainting it.
func TestAccWASServer_lostStartAndStopAnswers(t *testing.T) {
	env := newAccEnv(t)
	sim := env.needsSim("injects faults and counts the requests the manager received")
	ref := env.shopRef(apm.KindWAS, "was-1")
	actions := func(sent int) resource.TestCheckFunc {
		return func(*terraform.State) error {
			n := sim.RequestCounts()["POST /rest/was/servers/{serverId}/nodes/{nodeName}/systems/{systemName}/action"]
			return want(n == sent, "%d actions sent, want %d (a lost answer that took effect must not be sent again)", n, sent)
		}
	}
	env.testUntilEmpty([]resource.TestStep{
		{
			PreConfig:        func() { env.faults("POST /rest/was/servers/*/action status=502 after=true times=1") },
			Config:           env.serverConfig(apm.KindWAS, "state", "running"),
			ConfigPlanChecks: applied(),
			Check:            resource.ComposeAggregateTestCheckFunc(env.checkServer(ref, serverIs("running", 8080)), actions(1)),
		},
		{
			PreConfig:        func() { env.faults("POST /rest/was/servers/*/action reset=true after=true times=1") },
			Config:           env.serverConfig(apm.KindWAS, "state", "stopped"),
			ConfigPlanChecks: applied(exactActions{"apm_was_server.a": plancheck.ResourceActionUpdate}),
			Check:            resource.ComposeAggregateTestCheckFunc(env.checkServer(ref, serverIs("stopped", 8080)), actions(2)),
		},
	})
}

// The answer to an install is lost after the manager carried it out: the server is
// recovered, although it is not yet in its declared state, and then started and given
// its java_home.
func TestAccWASServer_lostInstallAnswerIsRecoveredAndSettled(t *testing.T) {
	env := newAccEnv(t)
	sim := env.needsSim("injects faults and counts the requests the manager received")
	ref := env.shopRef(apm.KindWAS, "was-1")
	env.testUntilEmpty([]resource.TestStep{{
		PreConfig:        func() { env.faults("POST /rest/was/servers status=502 after=true times=1") },
		Config:           env.serverConfig(apm.KindWAS, "java_home", "/opt/jdk-21", "state", "running"),
		ConfigPlanChecks: applied(),
		Check: resource.ComposeAggregateTestCheckFunc(
			env.checkServer(ref, serverIs("running", 8080)),
			env.checkServer(ref, func(s *apm.Server) error { return want(s.JavaHome == "/opt/jdk-21", "javaHome %q", s.JavaHome) }),
			func(*terraform.State) error {
				n := sim.RequestCounts()["POST /rest/was/servers"]
				return want(n == 1, "the install was sent %d times, want 1", n)
			},
		),
	}})
}

// datasourceOutside creates a database and a datasource on it in the manager, outside
// Terraform, removed when the test ends, and returns the datasource's name.
func (e *accEnv) datasourceOutside() string {
	db, ds := e.name("orders-db"), e.name("orders-ds")
	e.must(e.admin.CreateDatabase(e.ctx(), apm.DatabaseSpec{ResourceName: db, DatabaseType: "PostgreSQL",
		Host: "10.0.1.30", Port: 5432, DatabaseName: "orders", UserName: "shop", Password: "Test-only-1"}))
	e.t.Cleanup(func() { _ = e.admin.DeleteDatabase(e.ctx(), db) })
	e.must(e.admin.CreateDatasource(e.ctx(), apm.DatasourceSpec{ResourceName: ds, DatabaseResourceName: db}))
	e.t.Cleanup(func() { _ = e.admin.DeleteDatasource(e.ctx(), ds) })
	return ds
}

// A WAS server cannot be deleted while parts remain: destroy waits within timeouts.delete,
// and the error then names what remains, here a datasource attached outside Terraform.
func TestAccWASServer_deleteWaitsForParts(t *testing.T) {
	env := newAccEnv(t)
	ds := env.datasourceOutside()
	ref := env.shopRef(apm.KindWAS, "was-1")
	env.testUntilEmpty([]resource.TestStep{
		{
			Config:           env.serverConfig(apm.KindWAS, "state", "running", "timeouts", hclExpr(`{ delete = "2s" }`)),
			ConfigPlanChecks: applied(),
		},
		{
			PreConfig:   func() { env.must(env.admin.AttachDatasource(env.ctx(), ref, ds)) },
			Config:      env.shopNode(),
			ExpectError: errorMatching(fmt.Sprintf(`still held by datasource %q (apm_was_datasource)`, ds), `raise timeouts.delete`, "It was left running"),
		},
		{
			PreConfig: func() {
				// The delete did not stop the server, since it could not go through.
				if s, err := env.admin.GetServer(env.ctx(), ref); err != nil || s.Status != "running" {
					t.Errorf("after the refused delete was-1 is %+v (%v), want it running", s, err)
				}
				env.must(env.admin.DetachDatasource(env.ctx(), ref, ds))
			},
			Config:           env.shopNode(),
			ConfigPlanChecks: applied(exactActions{"apm_was_server.a": plancheck.ResourceActionDestroy}),
			Check:            env.checkGone(ref),
		},
	})
}

// A WAS server without an AJP port: the manager reports it as 0, which the provider
// records as null (absent), never as a value its own validator refuses; the resource and
// its data source agree, and a refresh right after finds no drift (issue 21, item 6).
func TestAccWASServer_noAJPPortIsNull(t *testing.T) {
	env := newAccEnv(t)
	config := env.config(env.shopNodeTF() + serverTF(t, apm.KindWAS) + tf(t, "was_server/detail.tf",
		"system_name", env.shop(), "server_id", hclExpr("apm_was_server.a.server_id")))
	env.testUntilEmpty([]resource.TestStep{{
		Config:           config,
		ConfigPlanChecks: applied(creates("apm_was_server.a")),
		ConfigStateChecks: []statecheck.StateCheck{
			attrNull("apm_was_server.a", "ajp_port"),
			attrNull("data.apm_was_server.a", "ajp_port"),
			attrInt("apm_was_server.a", "http_port", 8080),
		},
		Check: env.checkServer(env.shopRef(apm.KindWAS, "was-1"), func(s *apm.Server) error {
			return want(s.AJPPort == 0, "the manager reports the AJP port %d, want none (0)", s.AJPPort)
		}),
	}})
}

// Scale-in and replacement of a WAS server that a web server balances to, each in one
// commit and one apply (issue 21, item 1). Removing was-2 and its worker: Terraform
// deletes the server before it updates the workers, and the manager refuses to delete a
// worker (409); the delete takes the server out of the load balancers first, so the apply
// finishes, the server is gone and the workers are right. Replacing was-2 (another
// edition): the same on the way out, and the workers, which name the new server, put it
// back. Before the fix, the removal waited out the delete timeout and failed with the
// server stopped and still a worker.
func TestAccWASServer_scaleInAndReplaceWhileBalanced(t *testing.T) {
	env := newAccEnv(t)
	config := func(second bool, edition string) string {
		return env.config(tf(t, "was_server/balanced.tf", "system_name", env.shop(), "second", second, "second_type", edition))
	}
	web := env.shopRef(apm.KindWeb, "web-1")
	worker := func(n int64) apm.Worker {
		return apm.Worker{ServerID: fmt.Sprintf("was-%d", n), NodeName: "app-01", SystemName: env.shop(), Host: "10.0.0.21", AJPPort: 8008 + n, LBFactor: 1}
	}
	env.testUntilEmpty([]resource.TestStep{
		{
			Config:           config(true, "Standard"),
			ConfigPlanChecks: applied(),
			Check:            env.checkServer(web, workersAre(worker(1), worker(2))),
		},
		{
			Config: config(false, "Standard"),
			ConfigPlanChecks: applied(exactActions{
				"apm_was_server.two[0]": plancheck.ResourceActionDestroy,
				"apm_web_workers.w":     plancheck.ResourceActionUpdate,
			}),
			Check: resource.ComposeAggregateTestCheckFunc(
				env.checkServer(web, workersAre(worker(1))),
				env.checkGone(env.shopRef(apm.KindWAS, "was-2")),
				env.checkServer(env.shopRef(apm.KindWAS, "was-1"), serverIs("running", 8081)),
			),
		},
		{
			Config:           config(true, "Standard"),
			ConfigPlanChecks: applied(creates("apm_was_server.two[0]")),
			Check:            env.checkServer(web, workersAre(worker(1), worker(2))),
		},
		{
			Config: config(true, "Enterprise"),
			ConfigPlanChecks: applied(exactActions{
				"apm_was_server.two[0]": plancheck.ResourceActionDestroyBeforeCreate,
				"apm_web_workers.w":     plancheck.ResourceActionUpdate,
			}),
			Check: resource.ComposeAggregateTestCheckFunc(
				env.checkServer(web, workersAre(worker(1), worker(2))),
				env.checkServer(env.shopRef(apm.KindWAS, "was-2"), func(s *apm.Server) error {
					return want(s.Edition == apm.EditionEnterprise && s.Status == "running", "was-2 is %s and %s, want Enterprise and running", s.Edition, s.Status)
				}),
			),
		},
	})
}

// A tainted WAS server replaced with create_before_destroy (issue 31): Terraform's re-plan
// during apply creates before it deletes, in a provider process that has read nothing, so
// the look-up finds the object being replaced. The error explains create_before_destroy
// first; it used to advise only an import of what this configuration manages.
func TestAccWASServer_createBeforeDestroyExplained(t *testing.T) {
	env := newAccEnv(t)
	config := env.config(tf(t, "was_server/create_before_destroy.tf", "system_name", env.name("shop")))
	env.test([]resource.TestStep{
		{Config: config, ConfigPlanChecks: cleanAfterApply},
		{
			Config: config, Taint: []string{"apm_was_server.a"},
			ExpectError: errorMatching(`WAS server "was-2" on node "app-01" already exists`, "lifecycle { create_before_destroy = true }",
				"remove create_before_destroy", "lists no resource was it created outside this configuration"),
		},
	})
}

// A WAS server replaced with create_before_destroy by a change that forces its
// replacement (issue 31): the error found by Terraform's re-plan during apply says that
// the object found is the one being replaced, and offers an import only for an object that
// the state does not list, never as the way out for the object this resource manages.
func TestAccWASServer_createBeforeDestroyReplacementNotImport(t *testing.T) {
	env := newAccEnv(t)
	config := func(generation string) string {
		return env.config(tf(t, "was_server/create_before_destroy_triggered.tf", "system_name", env.name("shop"), "generation", generation))
	}
	env.test([]resource.TestStep{
		{Config: config("1"), ConfigPlanChecks: cleanAfterApply},
		{
			Config: config("2"),
			ExpectError: withoutImportBetween(`WAS server "was-2" on node "app-01" already exists`, `lifecycle { create_before_destroy = true }`,
				"the object found is the one being replaced", "remove create_before_destroy", "terraform state list -id=", "/app-01/was-2` lists no resource"),
		},
	})
}

// A WAS server made outside Terraform on a node that the configuration manages: the plan's
// refresh has read the configuration's objects, and not this one, so the look-up says
// plainly that it was created outside and how to import it, with no create_before_destroy
// case to weigh (the object being replaced is always read, or known from the plan).
func TestAccWASServer_existingOutsideSaysImport(t *testing.T) {
	env := newAccEnv(t)
	shop := env.name("shop")
	env.test([]resource.TestStep{
		{Config: env.config(tf(t, "_base/shop_app.tf", "system_name", shop)), ConfigPlanChecks: cleanAfterApply},
		{
			PreConfig: func() {
				env.must(env.admin.InstallServer(env.ctx(), apm.KindWAS, apm.ServerSpec{ServerID: "was-2", NodeName: "app-01", SystemName: shop, HTTPPort: 8080}))
			},
			// Not PlanOnly: the harness plans that without a refresh.
			Config: env.config(tf(t, "was_server/create_before_destroy.tf", "system_name", shop)),
			ExpectError: regexp.MustCompile(`(?s)WAS server "was-2" on node "app-01" already exists(?:[^c]|c[^r]|cr[^e]|cre[^a]|crea[^t]|creat[^e]|create[^_])*?` +
				`It\s+was\s+created\s+outside\s+this\s+configuration.*terraform\s+import\s+apm_was_server.<name>\s+\S+/app-01/was-2`),
		},
		{
			PreConfig: func() {
				env.must(env.admin.UninstallServer(env.ctx(), apm.ServerRef{Kind: apm.KindWAS, ServerID: "was-2", NodeName: "app-01", SystemName: shop}))
			},
			Config:   env.config(tf(t, "_base/shop_app.tf", "system_name", shop)),
			PlanOnly: true,
		},
	})
}

// withoutImportBetween is errorMatching(fragments...) where the text from the first
// fragment to the last does not say "import" (Go's regexp has no look-ahead, so the word
// is ruled out letter by letter).
func withoutImportBetween(fragments ...string) *regexp.Regexp {
	quoted := make([]string, len(fragments))
	for i, f := range fragments {
		quoted[i] = strings.Join(strings.Fields(regexp.QuoteMeta(f)), `\s+`)
	}
	return regexp.MustCompile(`(?s)` + strings.Join(quoted, `(?:[^i]|i[^m]|im[^p]|imp[^o]|impo[^r]|impor[^t])*?`))
}
