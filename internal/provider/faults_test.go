package provider

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/apmsim"
)

// faults replaces the test manager's fault rules (none: faults off).
func (e *accEnv) faults(rules ...string) {
	e.t.Helper()
	parsed := make([]apmsim.FaultRule, 0, len(rules))
	for _, text := range rules {
		r, err := apmsim.ParseFaultRule(text)
		e.must(err)
		parsed = append(parsed, r)
	}
	e.must(e.needsSim("injects faults").SetFaults(parsed...))
}

// createNode registers a node out of band.
func (e *accEnv) createNode(system, name, hostIP string, agentPort int64) {
	e.t.Helper()
	e.must(e.admin.CreateNode(e.ctx(), apm.CreateNodeRequest{NodeName: name, SystemName: system, HostIP: hostIP, AgentPort: agentPort}))
}

// untainted checks that a resource is in state and not tainted.
func untainted(addr string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		rs, ok := s.RootModule().Resources[addr]
		switch {
		case !ok:
			return fmt.Errorf("%s is not in state", addr)
		case rs.Primary.Tainted:
			return fmt.Errorf("%s is tainted", addr)
		}
		return nil
	}
}

// shopWithNode is the system shop (apm_system.test) and its node web-01 at 10.0.0.1:7730
// (apm_node.test).
func (e *accEnv) shopWithNode() string {
	e.t.Helper()
	return systemWithNode(e.t, e.name("shop"), "10.0.0.1", 7730)
}

// checkRequests passes when the manager received want requests of route since the last
// reset of its counts; what says why.
func checkRequests(sim *apmsim.Sim, route string, want int, what string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if n := sim.RequestCounts()[route]; n != want {
			return fmt.Errorf("%s sent %d times, want %d (%s)", route, n, want, what)
		}
		return nil
	}
}

// The manager creates the objects but the answers are lost (a gateway's 502, a
// connection reset after the handler ran): the creates are recovered, not orphaned.
func TestAccFaults_lostCreateAnswersAreRecovered(t *testing.T) {
	env := newAccEnv(t)
	sim := env.needsSim("injects faults and counts requests")
	shop := env.name("shop")
	config := env.config(env.shopWithNode())
	env.test([]resource.TestStep{
		{
			PreConfig: func() {
				env.faults("POST /rest/systems status=502 after=true times=1", "POST /rest/nodes reset=true after=true times=1")
			},
			Config:           config,
			ConfigPlanChecks: cleanAfterApply,
			Check: resource.ComposeAggregateTestCheckFunc(
				env.checkExists("apm_system.test", "apm_node.test"),
				env.checkSystems(shop),
				env.checkNode(shop, "web-01", "10.0.0.1", 7730),
				checkRequests(sim, "POST /rest/systems", 1, "a lost answer must not be sent again"),
			),
		},
		{
			PreConfig:        func() { env.faults() },
			Config:           config,
			ConfigPlanChecks: applied(exactActions{}),
		},
	})
}

// A lost answer and a look-up that fails until the create's time is up (the look-up is
// tried again while the manager fails or is out of reach): the node may exist, so it is
// recorded, tainted, and the next apply replaces it; no orphan that every later apply would
// trip on with a 409.
func TestAccFaults_unknownOutcomeIsRecordedTainted(t *testing.T) {
	env := newAccEnv(t)
	env.needsSim("injects faults")
	config := env.config(env.shopWithNode())
	env.test([]resource.TestStep{
		{
			PreConfig: func() {
				env.faults("POST /rest/nodes status=502 after=true times=1", "GET /rest/nodes/web-01/systems/* status=500")
			},
			// Plan looks up no node, so that the failing GETs are the look-ups after the create.
			Config: withoutLookups(env, tf(t, "system/one.tf", "name", env.name("shop"))+
				tf(t, "node/create_timeout.tf", "system_id", testSystemID, "create_timeout", "3s")),
			ExpectError: errorMatching(`Outcome of the create of node "web-01"`, "unknown", "recorded in the state, marked tainted"),
		},
		{
			PreConfig:        func() { env.faults() },
			Config:           config,
			ConfigPlanChecks: applied(exactActions{"apm_node.test": plancheck.ResourceActionReplace}),
			Check: resource.ComposeAggregateTestCheckFunc(
				untainted("apm_node.test"), env.checkExists("apm_system.test", "apm_node.test"),
				env.checkNode(env.name("shop"), "web-01", "10.0.0.1", 7730),
			),
		},
	})
}

// An answer lost before the manager acted: the look-up finds nothing, and the error says
// that the create did not take effect; the next apply creates it.
func TestAccFaults_lostCreateThatDidNotHappen(t *testing.T) {
	env := newAccEnv(t)
	env.needsSim("injects faults")
	shop := env.name("shop")
	config := env.config(tf(t, "system/one.tf", "name", shop))
	env.test([]resource.TestStep{
		{
			PreConfig:   func() { env.faults("POST /rest/systems status=502 times=1") },
			Config:      config,
			ExpectError: errorMatching(fmt.Sprintf("Failed to create system %q", shop), "502", "did not take effect"),
		},
		{
			Config:           config,
			ConfigPlanChecks: applied(),
			Check:            env.checkSystems(shop),
		},
	})
}

// With retries allowed, a create whose answer was lost before the manager acted is sent
// again once the look-up has shown that the manager does not have the object.
func TestAccFaults_lostCreateIsSentAgainWhenAbsent(t *testing.T) {
	env := newAccEnv(t)
	sim := env.needsSim("injects faults and counts requests")
	shop := env.name("shop")
	env.test([]resource.TestStep{
		{
			PreConfig:        func() { env.faults("POST /rest/systems status=502 times=1") },
			Config:           retryingProvider(env, 1) + tf(t, "system/one.tf", "name", shop),
			ConfigPlanChecks: cleanAfterApply,
			Check: resource.ComposeAggregateTestCheckFunc(env.checkSystems(shop),
				checkRequests(sim, "POST /rest/systems", 1, "the manager must carry out one create")),
		},
	})
}

// withoutLookups is resources with a provider block for env that makes no request of its
// own at plan (skip_connection_check): the test's faults then meet only the requests of
// apply.
func withoutLookups(env *accEnv, resources string) string {
	return providerConfig(env.t, env.sim.URL, "api_key", env.sim.AdminKey, "skip_connection_check", true) + resources
}

// retryingProvider is a provider block for env with max_retries retries.
func retryingProvider(env *accEnv, retries int) string {
	return providerConfig(env.t, env.sim.URL, "api_key", env.sim.AdminKey, "max_retries", retries)
}

// A 404 that is not the manager's "not found" for the object (a wrong path prefix, an
// injected error body that names nothing) is an error: the state keeps its objects.
func TestAccFaults_foreign404KeepsState(t *testing.T) {
	env := newAccEnv(t)
	env.needsSim("injects faults")
	config := env.config(env.shopWithNode())
	prefixed := providerConfig(t, env.sim.URL+"/apm", "api_key", env.sim.AdminKey, "skip_connection_check", true) + env.shopWithNode()
	env.test([]resource.TestStep{
		{Config: config, ConfigPlanChecks: cleanAfterApply},
		{
			Config:      prefixed,
			ExpectError: errorMatching("404", env.sim.URL+"/apm", "endpoint"),
		},
		{
			PreConfig:   func() { env.faults("GET /rest/systems/* status=404") },
			Config:      config,
			ExpectError: regexp.MustCompile(`404`),
		},
		{
			PreConfig:        func() { env.faults() },
			Config:           config,
			ConfigPlanChecks: applied(exactActions{}),
			Check:            env.checkExists("apm_system.test", "apm_node.test"),
		},
	})
}

// A create that succeeded but could not be read back is kept, untainted, and the next
// refresh completes it: no replacement, no orphan. A system is read again instead, as its
// identity is its id, which only the manager knows and which cannot wait for the refresh
// (with identities, recording it without its id failed the create with "Missing Resource
// Identity After Create").
func TestAccFaults_readBackFailureKeepsObject(t *testing.T) {
	env := newAccEnv(t)
	env.needsSim("injects faults")
	shop := env.name("shop")
	// The refresh after the apply fills in what the read-back missed: no change is planned.
	completedByRefresh := resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}
	// Plan looks up no object, so that the failing GETs are the reads back.
	env.test([]resource.TestStep{
		{
			PreConfig: func() { env.faults("GET /rest/systems/" + shop + " status=500 times=1") },
			Config:    withoutLookups(env, tf(t, "system/one.tf", "name", shop)),
			Check: resource.ComposeAggregateTestCheckFunc(
				untainted("apm_system.test"),
				resource.TestCheckResourceAttrSet("apm_system.test", "id"),
				env.checkSystems(shop),
			),
			ConfigPlanChecks: completedByRefresh,
		},
		{
			PreConfig: func() { env.faults("GET /rest/nodes/web-01/systems/* status=500 times=1") },
			Config:    withoutLookups(env, env.shopWithNode()),
			Check: resource.ComposeAggregateTestCheckFunc(
				untainted("apm_node.test"),
				resource.TestCheckNoResourceAttr("apm_node.test", "node_id"),
				env.checkNode(shop, "web-01", "10.0.0.1", 7730),
			),
			ConfigPlanChecks: completedByRefresh,
		},
		{
			Config:           env.config(env.shopWithNode()),
			ConfigPlanChecks: applied(exactActions{}),
			Check:            env.checkExists("apm_system.test", "apm_node.test"),
		},
	})
}

// Two blocks declaring one object: plan refuses the second, so nothing is sent, and it is
// not told to import what the first declares. (Before, apply refused it after the first
// one's create.)
func TestAccFaults_duplicateBlocksAreRefused(t *testing.T) {
	env := newAccEnv(t)
	env.needsSim("counts the requests the manager received")
	twin := env.name("twin")
	env.test([]resource.TestStep{
		{
			Config:      env.config(tf(t, "system/two_same_name.tf", "name", twin)),
			PlanOnly:    true,
			ExpectError: errorMatching(fmt.Sprintf("system %q is declared by more than one resource", twin), "another apm_system block creates it too"),
		},
	})
	if n := env.writes(); n != 0 {
		t.Errorf("twins were refused after %d writes, want none", n)
	}
}

// GETs are retried on 500, as the interface advises: a refresh survives a passing fault.
func TestAccFaults_readsRetryOn500(t *testing.T) {
	env := newAccEnv(t)
	env.needsSim("injects faults")
	config := retryingProvider(env, 2) + env.shopWithNode()
	env.test([]resource.TestStep{
		{Config: config, ConfigPlanChecks: cleanAfterApply},
		{
			PreConfig:        func() { env.faults("GET /rest/* status=500 times=2") },
			Config:           config,
			ConfigPlanChecks: applied(exactActions{}),
		},
	})
}

// adopt_existing takes over matching objects that exist already, and names the
// differences of those that do not match.
func TestAccFaults_adoptExisting(t *testing.T) {
	env := newAccEnv(t)
	shop := env.name("shop")
	adopting := func(nodes int) string {
		return providerConfig(t, env.sim.URL, "api_key", env.sim.AdminKey, "adopt_existing", true) + fleetConfig(t, shop, nodes)
	}
	env.testUntilEmpty([]resource.TestStep{
		{
			PreConfig: func() {
				env.must(env.admin.CreateSystem(env.ctx(), shop))
				env.createNode(shop, "node-01", "10.1.0.1", 7730)
			},
			Config:           adopting(1),
			ConfigPlanChecks: applied(exactActions{"apm_system.test": plancheck.ResourceActionCreate, "apm_node.fleet[0]": plancheck.ResourceActionCreate}),
			Check:            resource.ComposeAggregateTestCheckFunc(env.checkExists("apm_system.test", "apm_node.fleet.0"), env.checkSystems(shop)),
		},
		{
			PreConfig: func() { env.createNode(shop, "node-02", "10.0.0.9", 7730) },
			Config:    adopting(2),
			ExpectError: errorMatching(`Failed to create node "node-02"`, "differs from the configuration",
				`host_ip is "10.0.0.9" in the manager and "10.1.0.2" in the configuration`),
		},
		{
			PreConfig:        func() { env.deleteNode(shop, "node-02") },
			Config:           adopting(1),
			ConfigPlanChecks: applied(exactActions{}),
		},
	})
}

// restartingManager is an apmsim over HTTPS whose state and TLS identity survive a
// restart, as a real manager's do, on one address.
type restartingManager struct {
	t        *testing.T
	dir      string
	addr     string
	adminKey string
	caPEM    string
	srv      *http.Server
}

func newRestartingManager(t *testing.T) *restartingManager {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	rm := &restartingManager{t: t, dir: t.TempDir(), addr: addr, adminKey: "restart-admin-key-0123456789"}
	rm.start()
	t.Cleanup(rm.stop)
	return rm
}

func (rm *restartingManager) start() {
	rm.t.Helper()
	sim, err := apmsim.New(apmsim.Options{AdminKey: rm.adminKey, StateFile: filepath.Join(rm.dir, "state.json")})
	if err != nil {
		rm.t.Fatal(err)
	}
	cfg, caPEM, err := apmsim.PersistentTLS(filepath.Join(rm.dir, "tls"), nil)
	if err != nil {
		rm.t.Fatal(err)
	}
	if rm.caPEM == "" {
		rm.caPEM = string(caPEM)
	}
	l, err := net.Listen("tcp", rm.addr)
	if err != nil {
		rm.t.Fatalf("restarting the manager on %s: %v", rm.addr, err)
	}
	srv := &http.Server{Handler: sim.Handler(), TLSConfig: cfg, ReadHeaderTimeout: 10 * time.Second}
	rm.srv = srv
	go func() { _ = srv.ServeTLS(l, "", "") }()
}

func (rm *restartingManager) stop() {
	if rm.srv != nil {
		_ = rm.srv.Close()
		rm.srv = nil
	}
}

// checkEmpty fails when the manager still has a system.
func (rm *restartingManager) checkEmpty(*terraform.State) error {
	c, err := apm.New(apm.Config{Endpoint: "https://" + rm.addr, APIKey: rm.adminKey, CACertPEM: rm.caPEM})
	if err != nil {
		return err
	}
	systems, err := c.ListSystems(context.Background())
	if err == nil && len(systems) > 0 {
		err = fmt.Errorf("the manager still has %d systems", len(systems))
	}
	return err
}

// config trusts the CA of the manager's first start only: after a restart the manager
// must present a certificate of the same authority.
func (rm *restartingManager) config(resources string) string {
	return providerConfig(rm.t, "https://"+rm.addr, "api_key", rm.adminKey, "ca_cert_pem", rm.caPEM) + resources
}

// A manager that restarts keeps its objects and its TLS identity; while it is down, a
// plan fails instead of proposing to create everything again.
func TestAccFaults_managerRestartOverHTTPS(t *testing.T) {
	rm := newRestartingManager(t)
	config := rm.config(systemWithNode(t, "shop", "10.0.0.1", 7730))
	runAcc(t, rm.checkEmpty, []resource.TestStep{
		{Config: config, ConfigPlanChecks: cleanAfterApply},
		{
			PreConfig:   rm.stop,
			Config:      config,
			PlanOnly:    true,
			ExpectError: errorMatching("could not be reached"),
		},
		{
			PreConfig:        func() { rm.stop(); rm.start() },
			Config:           config,
			ConfigPlanChecks: applied(exactActions{}),
		},
	})
}
