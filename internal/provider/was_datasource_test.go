package provider

import (
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/apmsim"
	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
)

// checkDatasources compares the datasources attached to was-1 with want.
func (e *accEnv) checkDatasources(names ...string) resource.TestCheckFunc {
	return e.checkServer(e.shopWAS("was-1"), func(s *apm.Server) error {
		return want(slices.Equal(s.Datasources, names), "has datasources %q attached, want %q", s.Datasources, names)
	})
}

// An attached datasource: attach, detached outside Terraform and attached again, import,
// and another datasource replaces it.
func TestAccWASDatasource_lifecycle(t *testing.T) {
	env := newAccEnv(t)
	shop := env.name("shop")
	names := env.createDatasources("orders-ds", "billing-ds")
	orders, billing := names[0], names[1]
	config := func(datasource string) string {
		return env.config(tf(t, "was_datasource/attached.tf", "system_name", shop, "datasource_name", datasource))
	}
	env.testUntilEmpty([]resource.TestStep{
		{
			Config:           config(orders),
			ConfigPlanChecks: applied(creates("apm_was_datasource.d")),
			Check: resource.ComposeAggregateTestCheckFunc(
				env.checkExists("apm_was_datasource.d"),
				env.checkDatasources(orders),
				checkIDIs("apm_was_datasource.d", "apm_was_server.a", "/"+orders),
			),
		},
		{
			PreConfig:        func() { env.must(env.admin.DetachDatasource(env.ctx(), env.shopWAS("was-1"), orders)) },
			Config:           config(orders),
			ConfigPlanChecks: applied(exactActions{"apm_was_datasource.d": plancheck.ResourceActionCreate}),
			Check:            env.checkDatasources(orders),
		},
		{
			ResourceName:      "apm_was_datasource.d",
			ImportState:       true,
			ImportStateId:     shop + "/app-01/was-1/" + orders,
			ImportStateVerify: true,
		},
		{
			Config:           config(billing),
			ConfigPlanChecks: applied(exactActions{"apm_was_datasource.d": plancheck.ResourceActionDestroyBeforeCreate}),
			Check:            env.checkDatasources(billing),
		},
	})
}

// rotationTF is testdata/was_datasource/rotation.tf: the system shop with was-1, the
// database orders-db with the datasource orders-ds on it (database_id), attached to was-1
// (attached_name); each reference is a literal name or an hclExpr. password gives the
// database's password as name and value pairs (password, or password_wo and
// password_wo_version).
func (e *accEnv) rotationTF(t testing.TB, databaseID, attachedName any, password ...any) string {
	t.Helper()
	vars := append([]any{"system_name", e.name("shop"), "database_name", e.name("orders-db"), "datasource_name", e.name("orders-ds"),
		"database_id", databaseID, "attached_name", attachedName}, password...)
	return e.config(tf(t, "was_datasource/rotation.tf", orNull(vars, "password", "password_wo", "password_wo_version")...))
}

// checkRoutes passes when the sim received, since the last reset of its counts, the
// given number of requests on each route: method and path suffix, such as
// "DELETE /datasources/{resourceName}".
func checkRoutes(sim *apmsim.Sim, want map[string]int) resource.TestCheckFunc {
	return func(*terraform.State) error {
		var errs []error
		for route, n := range want {
			method, suffix, _ := strings.Cut(route, " ")
			if got := routeCount(sim, method, suffix); got != n {
				errs = append(errs, fmt.Errorf("%d requests %s, want %d", got, route, n))
			}
		}
		return errors.Join(errs...)
	}
}

// The requests of a rotation whose datasource is attached by a name Terraform cannot
// follow: the datasource's delete is refused once (it is attached), the provider
// detaches it, deletes it, and attaches the new one; nothing waits for the refusal to
// end.
var rotationDetachingOnce = map[string]int{
	"DELETE /datasources/{resourceName}": 2, "DELETE /datasource": 1, "POST /datasource": 1,
	"DELETE /databases/{resourceName}": 1, "POST /rest/resource/databases": 1, "POST /rest/resource/datasources": 1,
}

// A database password rotation (a new sensitive password) replaces the database and its
// datasource; the datasource is attached to the WAS server by a literal name, so
// Terraform leaves the attachment alone. One apply, without waiting for the manager to
// stop refusing the datasource's delete: the provider detaches the datasource for its
// replacement and attaches the new one; the server has it afterwards, and the plan that
// follows is empty. (Before, the datasource's delete waited out its timeout and failed.)
func TestAccWASDatasource_rotationAttachedByName(t *testing.T) {
	env := newAccEnv(t)
	sim := env.needsSim("counts the requests of the rotation")
	ds := env.name("orders-ds")
	config := func(password string) string {
		return env.rotationTF(t, hclExpr("apm_database.db.id"), ds, "password", password)
	}
	env.test([]resource.TestStep{
		{Config: config(dbPassword1), ConfigPlanChecks: applied(), Check: env.checkDatasources(ds)},
		{
			PreConfig: sim.ResetRequestCounts,
			Config:    config(dbPassword2),
			ConfigPlanChecks: applied(exactActions{
				"apm_database.db":   plancheck.ResourceActionDestroyBeforeCreate,
				"apm_datasource.ds": plancheck.ResourceActionDestroyBeforeCreate,
			}),
			Check: resource.ComposeAggregateTestCheckFunc(env.checkDatasources(ds), checkRoutes(sim, rotationDetachingOnce),
				env.checkDatasource(ds, poolIs(2, 20, 2, 30000))),
		},
	})
}

// The same rotation with a write-only password, by a new password_wo_version, and the
// attachment naming the datasource by its resource_name: a reference, but to a value
// that stays known through the replacement, so Terraform leaves the attachment alone as
// it does a literal. (Before, the apply waited and failed as above.)
func TestAccWASDatasource_rotationWriteOnlyAttachedByResourceName(t *testing.T) {
	env := newAccEnv(t)
	sim := env.needsSim("counts the requests of the rotation")
	ds := env.name("orders-ds")
	dir := t.TempDir()
	config := func(password string, version int) string {
		file := filepath.Join(dir, fmt.Sprintf("password-%d", version))
		if err := os.WriteFile(file, []byte(password), 0o600); err != nil {
			t.Fatal(err)
		}
		return env.rotationTF(t, hclExpr("apm_database.db.id"), hclExpr("apm_datasource.ds.resource_name"),
			"password_wo", hclExpr(fmt.Sprintf("file(%q)", file)), "password_wo_version", version)
	}
	runWriteOnlyAcc(t, env.checkAllGone, []resource.TestStep{
		{Config: config(dbPassword1, 1), ConfigPlanChecks: applied(), Check: env.checkDatasources(ds)},
		{
			PreConfig: sim.ResetRequestCounts,
			Config:    config(dbPassword2, 2),
			ConfigPlanChecks: applied(exactActions{
				"apm_database.db":   plancheck.ResourceActionDestroyBeforeCreate,
				"apm_datasource.ds": plancheck.ResourceActionDestroyBeforeCreate,
			}),
			Check: resource.ComposeAggregateTestCheckFunc(env.checkDatasources(ds), checkRoutes(sim, rotationDetachingOnce)),
		},
	})
}

// The rotation with the attachment naming the datasource by its id: the id is not known
// until the new datasource exists, so Terraform replaces the attachment too, detaching
// it first and attaching it last. One apply, and the datasource's delete is never
// refused.
func TestAccWASDatasource_rotationAttachedByReference(t *testing.T) {
	env := newAccEnv(t)
	sim := env.needsSim("counts the requests of the rotation")
	ds := env.name("orders-ds")
	config := func(password string) string {
		return env.rotationTF(t, hclExpr("apm_database.db.id"), hclExpr("apm_datasource.ds.id"), "password", password)
	}
	env.test([]resource.TestStep{
		{Config: config(dbPassword1), ConfigPlanChecks: applied(), Check: env.checkDatasources(ds)},
		{
			PreConfig: sim.ResetRequestCounts,
			Config:    config(dbPassword2),
			ConfigPlanChecks: applied(exactActions{
				"apm_database.db":      plancheck.ResourceActionDestroyBeforeCreate,
				"apm_datasource.ds":    plancheck.ResourceActionDestroyBeforeCreate,
				"apm_was_datasource.d": plancheck.ResourceActionDestroyBeforeCreate,
			}),
			Check: resource.ComposeAggregateTestCheckFunc(env.checkDatasources(ds), checkRoutes(sim, map[string]int{
				"DELETE /datasources/{resourceName}": 1, "DELETE /datasource": 1, "POST /datasource": 1,
			})),
		},
	})
}

// A rotation whose datasource is attached, by name, to a WAS server of the configuration
// and to one of another system made outside Terraform. When detaching it from the second
// fails, the delete puts back what it had detached and fails, saying so: both servers
// keep the datasource. Once the manager recovers, the next apply rotates, and both
// servers have the new datasource, the one outside Terraform included.
func TestAccWASDatasource_rotationPutsBackWhenTheDeleteFails(t *testing.T) {
	env := newAccEnv(t)
	sim := env.needsSim("injects faults and counts requests")
	ds := env.name("orders-ds")
	outside := apm.ServerRef{Kind: apm.KindWAS, ServerID: "was-2", NodeName: "app-02", SystemName: env.name("warehouse")} // after "shop": its detach comes second
	config := func(password string) string {
		return env.rotationTF(t, hclExpr("apm_database.db.id"), ds, "password", password)
	}
	bothAttached := func() error {
		for _, ref := range []apm.ServerRef{env.shopWAS("was-1"), outside} {
			s, err := env.admin.GetServer(env.ctx(), ref)
			if err != nil {
				return err
			}
			if !slices.Contains(s.Datasources, ds) {
				return fmt.Errorf("%s has datasources %q, want %q among them", ref, s.Datasources, ds)
			}
		}
		return nil
	}
	env.test([]resource.TestStep{
		{Config: config(dbPassword1), ConfigPlanChecks: applied()},
		{
			PreConfig: func() {
				env.arrangeWAS(outside)
				env.must(env.admin.AttachDatasource(env.ctx(), outside, ds))
				env.faults("DELETE /rest/was/servers/was-2/*/datasource status=503")
				sim.ResetRequestCounts()
			},
			Config: config(dbPassword2),
			ExpectError: errorMatching(`Failed to delete datasource`, `releasing what holds it failed`, `detaching datasource`,
				`from WAS server "was-2"`, `503`, `was put back, and the old object is unchanged`),
		},
		{
			PreConfig: func() {
				if err := bothAttached(); err != nil {
					t.Errorf("after the failed rotation: %v", err)
				}
				// Detached from was-1, then attached again to it: put back.
				if n := routeCount(sim, "POST", "/datasource"); n != 1 {
					t.Errorf("%d attaches in the failed rotation, want 1 (was-1's, put back)", n)
				}
				env.faults()
			},
			Config:           config(dbPassword2),
			ConfigPlanChecks: applied(exactActions{"apm_database.db": plancheck.ResourceActionDestroyBeforeCreate, "apm_datasource.ds": plancheck.ResourceActionDestroyBeforeCreate}),
			Check:            func(*terraform.State) error { return bothAttached() },
		},
		{
			// The attachment made outside Terraform goes, so that the destroy can remove the rest.
			PreConfig:        func() { env.must(env.admin.DetachDatasource(env.ctx(), outside, ds)) },
			Config:           config(dbPassword2),
			ConfigPlanChecks: applied(exactActions{}),
		},
	})
}

// ---- without a CLI ----

// A detach that got 404 is done when the server is gone, when its list lacks the
// datasource, or, where the manager does not report the list, when the manager's own
// NOT_FOUND names the datasource; anything else is an error.
func TestDetachedAlready(t *testing.T) {
	notAttached := &apm.Error{StatusCode: http.StatusNotFound, Code: "NOT_FOUND", Message: "Datasource not attached: orders-ds"}
	proxy := &apm.Error{StatusCode: http.StatusNotFound, Message: "<html>Not Found</html>"}
	reported := func(names ...string) *apm.Server {
		return &apm.Server{Datasources: names, Reported: apm.ReportedFields{Datasources: true}}
	}
	terse := &apm.Server{}
	cases := []struct {
		name    string
		err     error
		srv     *apm.Server
		readErr error
		done    bool
	}{
		{"server gone", notAttached, nil, fmt.Errorf("no system: %w", engine.ErrGone), true},
		{"server unreadable", notAttached, nil, errors.New("connection refused"), false},
		{"not in the list", notAttached, reported("billing-ds"), nil, true},
		{"still in the list", proxy, reported("orders-ds"), nil, false},
		{"terse, the manager names it", notAttached, terse, nil, true},
		{"terse, another name", &apm.Error{StatusCode: 404, Code: "NOT_FOUND", Message: "Datasource not attached: orders-ds-2"}, terse, nil, false},
		{"terse, a proxy's 404", proxy, terse, nil, false},
	}
	for _, c := range cases {
		got := detachedAlready(c.err, c.srv, c.readErr, "orders-ds")
		if (got == nil) != c.done || (got != nil && !errors.Is(got, c.err)) {
			t.Errorf("%s: got %v, want done=%v", c.name, got, c.done)
		}
	}
}
