package provider

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/apmsim"
	"github.com/apmplatform/terraform-provider-apm/internal/apmsim/apmsimtest"
)

// zonedConfig prefixes resources with a provider block that uses the admin key and the
// time zone zone ("" leaves time_zone out).
func (e *accEnv) zonedConfig(zone, resources string) string {
	setting := ""
	if zone != "" {
		setting = fmt.Sprintf("time_zone = %q", zone)
	}
	return fmt.Sprintf(`
provider "apm" {
  endpoint    = %q
  api_key     = %q
  max_retries = 0
  %s
}
%s`, e.sim.URL, e.sim.AdminKey, setting, resources)
}

// rfc3339In is what created_at_rfc3339 must say for a manager time read in loc.
func rfc3339In(ts apm.Timestamp, loc *time.Location) string {
	t := ts.Time
	return time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), 0, loc).Format(time.RFC3339)
}

// attrValues are the checks that each attribute of addr named by prefix and a key of want
// has its value.
func attrValues(addr, prefix string, want map[string]string) []resource.TestCheckFunc {
	checks := make([]resource.TestCheckFunc, 0, len(want))
	for k, v := range want {
		checks = append(checks, resource.TestCheckResourceAttr(addr, prefix+k, v))
	}
	return checks
}

// newRecordsEnv is a demo manager in which monitoring agents have just reported two more
// analysis events (which the manager also publishes as notifications), with the time zone
// of the tests that read it, and its analysis events, newest first.
func newRecordsEnv(t *testing.T) (*accEnv, *time.Location, []apm.AnalysisEvent) {
	t.Helper()
	env := newAccEnvWith(t, apmsimtest.WithSeed(apmsim.SeedDemo))
	env.injectEvent(`{"eventType":"oom","systemName":"shop","serverName":"was-02","message":"heap full","stackTrace":"java.lang.OutOfMemoryError\n\tat x"}`)
	env.injectEvent(`{"eventType":"fullgc","systemName":"batch","serverName":"batch-01","message":"long pause"}`)
	berlin, err := time.LoadLocation("Europe/Berlin")
	env.must(err)
	events, err := env.admin.ListAnalysisEvents(env.ctx(), apm.EventFilter{})
	env.must(err)
	if len(events) < 2 {
		t.Fatalf("arrangement: %d analysis events", len(events))
	}
	return env, berlin, events
}

// badFilter is a configuration that the provider refuses before it asks the manager
// anything, with the provider's time zone ("" for none) and the fragments of the error.
type badFilter struct {
	zone      string
	config    string
	fragments []string
}

// testBadFilters plans each configuration on a demo manager, expecting its error, and
// then checks that no request of the monitoring data sources reached the manager.
func testBadFilters(t *testing.T, filters []badFilter) {
	t.Helper()
	env := newAccEnvWith(t, apmsimtest.WithSeed(apmsim.SeedDemo))
	sim := env.needsSim("counts the requests the manager received")
	steps := make([]resource.TestStep, 0, len(filters))
	for _, f := range filters {
		steps = append(steps, resource.TestStep{Config: env.zonedConfig(f.zone, f.config), PlanOnly: true, ExpectError: errorMatching(f.fragments...)})
	}
	runAcc(t, nil, steps)
	for route := range sim.RequestCounts() {
		for _, r := range []string{"notification", "analysis", "actionTraceLog", "licenses"} {
			if strings.Contains(route, r) {
				t.Errorf("a bad filter reached the manager: %s", route)
			}
		}
	}
}
