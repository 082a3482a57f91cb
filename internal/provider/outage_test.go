package provider

import (
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/apmsim"
)

// lostManager stands between the provider and the test's apmsim and, once the provider has
// started a server, drops the connections of the next requests without an answer, as a
// manager that went down does.
type lostManager struct {
	started atomic.Bool  // a start has been served
	toDrop  atomic.Int32 // requests still to drop once started
	dropped atomic.Int32
}

// front is the test's environment with its endpoint behind m, which drops drops requests
// once a server has been started.
func (m *lostManager) front(env *accEnv, drops int32) *accEnv {
	m.toDrop.Store(drops)
	return env.front(func(w http.ResponseWriter, r *http.Request, manager http.Handler) {
		if m.started.Load() && m.toDrop.Add(-1) >= 0 {
			m.dropped.Add(1)
			if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
				_ = conn.Close()
			}
			return
		}
		manager.ServeHTTP(w, r)
		if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/action") {
			m.started.Store(true)
		}
	})
}

// The manager lost while an apply waits for a WAS server it installed to start (issue
// 31): the apply records the server untainted, with a warning, instead of failing, which
// tainted it, so that the next apply uninstalled and reinstalled a healthy server. The plan
// after it replaces nothing, and the manager installed the server once. Before the fix,
// the first step failed with "connection failed".
func TestAccWASServer_managerLostWhileItStarts(t *testing.T) {
	env := newAccEnvWith(t, func(o *apmsim.Options) { o.TransitionDelay = 2 * time.Second })
	sim := env.needsSim("drops connections between the provider and apmsim")
	var lost lostManager
	// The wait's first look and the read-back after it: with max_retries = 0, each is one
	// request.
	config := lost.front(env, 2).config(tf(t, "was_server/running.tf", "system_name", env.name("shop")))
	ref := apm.ServerRef{Kind: apm.KindWAS, ServerID: "was-1", NodeName: "app-01", SystemName: env.name("shop")}
	installedOnce := func(*terraform.State) error {
		if got := lost.dropped.Load(); got != 2 {
			return fmt.Errorf("the front dropped %d requests, want 2: the wait never met the outage", got)
		}
		if n := routeCount(sim, "POST", "/was/servers"); n != 1 {
			return fmt.Errorf("the manager received %d installs of was-1, want 1", n)
		}
		return nil
	}
	env.test([]resource.TestStep{
		{Config: config, ConfigPlanChecks: cleanAfterApply, Check: installedOnce},
		{
			// The start goes on in the manager: once it is done, the plan is still empty.
			PreConfig: func() {
				for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(100 * time.Millisecond) {
					srv, err := env.admin.GetServer(env.ctx(), ref)
					env.must(err)
					if srv.Status == stateRunning {
						return
					}
					if time.Now().After(deadline) {
						t.Fatalf("was-1 is %s 20 s after its start, want running", srv.Status)
					}
				}
			},
			Config:           config,
			ConfigPlanChecks: applied(exactActions{}),
			Check:            installedOnce,
		},
	})
}
