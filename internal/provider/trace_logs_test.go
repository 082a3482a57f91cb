package provider

import (
	"fmt"
	"strconv"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
)

// The action trace log carries what the manager reads, with each time as given and in
// RFC 3339 in the configured zone; a date filter changes the result.
func TestAccActionTraceLogs_filters(t *testing.T) {
	env, berlin, events := newRecordsEnv(t)
	logs, err := env.admin.ActionTraceLogs(env.ctx(), apm.TraceLogFilter{})
	env.must(err)
	if len(logs) == 0 {
		t.Fatal("arrangement: no action trace logs")
	}
	tomorrow := events[0].CreatedAt.Time.AddDate(0, 0, 1).Format(apm.LayoutQueryDate)

	last := len(logs) - 1
	l := logs[last]
	checks := attrValues("data.apm_action_trace_logs.all", fmt.Sprintf("logs.%d.", last), map[string]string{
		"log_id":             strconv.FormatInt(l.LogID, 10),
		"user_id":            l.UserID,
		"action":             l.Action,
		"target_name":        l.TargetName,
		"result":             l.Result,
		"created_at":         l.CreatedAt.Raw,
		"created_at_rfc3339": rfc3339In(l.CreatedAt, berlin),
	})
	checks = append(checks,
		resource.TestCheckResourceAttr("data.apm_action_trace_logs.all", "logs.#", strconv.Itoa(len(logs))),
		resource.TestCheckResourceAttr("data.apm_action_trace_logs.tomorrow", "logs.#", "0"),
	)
	runAcc(t, nil, []resource.TestStep{{
		Config: env.zonedConfig("Europe/Berlin", tf(t, "trace_logs/each_filter.tf", "tomorrow", tomorrow)),
		Check:  resource.ComposeAggregateTestCheckFunc(checks...),
	}})
}

// Bad filters fail at validate time: nothing is asked of the manager.
func TestAccActionTraceLogs_badFilters(t *testing.T) {
	testBadFilters(t, []badFilter{
		{"", tf(t, "trace_logs/filtered.tf", "start_date", "20240302", "end_date", "20240301"), []string{"Invalid date range"}},
	})
}
