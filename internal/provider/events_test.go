package provider

import (
	"bytes"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
)

// injectEvent records an analysis event in the sim as a monitoring agent would.
func (e *accEnv) injectEvent(body string) {
	e.t.Helper()
	e.needsSim("injects analysis events, as monitoring agents report them")
	req, err := http.NewRequestWithContext(e.ctx(), http.MethodPost, e.sim.URL+"/_apmsim/events?key="+e.sim.AdminKey, bytes.NewBufferString(body))
	e.must(err)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	e.must(err)
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		e.t.Fatalf("injecting an event: status %d", resp.StatusCode)
	}
}

// Analysis events carry what the manager reads, with each time as given and in RFC 3339
// in the configured zone; filters change the result, and one event has its stack trace.
func TestAccAnalysisEvents_filters(t *testing.T) {
	env, berlin, events := newRecordsEnv(t)
	oom, err := env.admin.ListAnalysisEvents(env.ctx(), apm.EventFilter{EventType: apm.EventTypeOOM})
	env.must(err)
	shop, err := env.admin.ListAnalysisEvents(env.ctx(), apm.EventFilter{SystemName: "shop"})
	env.must(err)
	day := events[0].CreatedAt.Time
	ofToday, err := env.admin.ListAnalysisEvents(env.ctx(), apm.EventFilter{Start: day, End: day})
	env.must(err)
	newest, err := env.admin.GetAnalysisEvent(env.ctx(), events[0].EventID)
	env.must(err)
	if len(oom) == 0 || len(oom) == len(events) || len(shop) == len(events) || len(ofToday) < 2 {
		t.Fatalf("arrangement: %d events (%d oom, %d shop, %d of today)", len(events), len(oom), len(shop), len(ofToday))
	}
	today := day.Format(apm.LayoutQueryDate)
	tomorrow := day.AddDate(0, 0, 1).Format(apm.LayoutQueryDate)

	e := events[0]
	if !strings.HasSuffix(rfc3339In(e.CreatedAt, berlin), "+01:00") && !strings.HasSuffix(rfc3339In(e.CreatedAt, berlin), "+02:00") {
		t.Fatalf("Berlin offset of %s", rfc3339In(e.CreatedAt, berlin))
	}
	checks := attrValues("data.apm_analysis_events.all", "events.0.", map[string]string{
		"event_id":           strconv.FormatInt(e.EventID, 10),
		"event_type":         e.EventType,
		"system_name":        e.SystemName,
		"server_name":        e.ServerName,
		"message":            e.Message,
		"created_at":         e.CreatedAt.Raw,
		"created_at_rfc3339": rfc3339In(e.CreatedAt, berlin),
	})
	checks = append(checks, attrValues("data.apm_analysis_event.newest", "", map[string]string{
		"event_type":         newest.EventType,
		"message":            newest.Message,
		"stack_trace":        newest.StackTrace,
		"created_at_rfc3339": rfc3339In(newest.CreatedAt, berlin),
	})...)
	checks = append(checks,
		resource.TestCheckResourceAttr("data.apm_analysis_events.all", "events.#", strconv.Itoa(len(events))),
		resource.TestCheckNoResourceAttr("data.apm_analysis_events.all", "events.0.stack_trace"),
		resource.TestCheckResourceAttr("data.apm_analysis_events.oom", "events.#", strconv.Itoa(len(oom))),
		resource.TestCheckResourceAttr("data.apm_analysis_events.shop", "events.#", strconv.Itoa(len(shop))),
		resource.TestCheckResourceAttr("data.apm_analysis_events.today", "events.#", strconv.Itoa(len(ofToday))),
		resource.TestCheckResourceAttr("data.apm_analysis_events.tomorrow", "events.#", "0"),
	)
	runAcc(t, nil, []resource.TestStep{{
		Config: env.zonedConfig("Europe/Berlin", tf(t, "events/each_filter.tf", "today", today, "tomorrow", tomorrow)),
		Check:  resource.ComposeAggregateTestCheckFunc(checks...),
	}})
}

// Bad filters fail at validate time: nothing is asked of the manager.
func TestAccAnalysisEvents_badFilters(t *testing.T) {
	filtered := func(settings ...any) string {
		return tf(t, "events/filtered.tf", orNull(settings, "event_type", "start_date", "end_date")...)
	}
	testBadFilters(t, []badFilter{
		{"", filtered("event_type", "panic"), []string{"event_type", "stuckthread"}},
		{"", filtered("start_date", "20240230"), []string{"Invalid yyyyMMdd value"}},
		{"", filtered("start_date", "20240302", "end_date", "20240301"), []string{"Invalid date range", "end_date 20240301 is before start_date 20240302"}},
		{"", tf(t, "events/one.tf", "event_id", 0), []string{"event_id", "at least 1"}},
	})
}
