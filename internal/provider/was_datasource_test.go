package provider

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
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
