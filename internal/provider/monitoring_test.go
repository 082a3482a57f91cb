package provider

import (
	"bytes"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
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

// injectEvent records an analysis event in the sim as a monitoring agent would.
func (e *accEnv) injectEvent(body string) {
	e.t.Helper()
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

// rfc3339In is what created_at_rfc3339 must say for a manager time read in loc.
func rfc3339In(ts apm.Timestamp, loc *time.Location) string {
	t := ts.Time
	return time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), 0, loc).Format(time.RFC3339)
}

// Licenses carry what the manager reads, and their days left count from today in the
// configured zone; a check block can compare them.
func TestAccMonitoringLicenses(t *testing.T) {
	env := newAccEnvWith(t, apmsimtest.WithSeed(apmsim.SeedDemo))
	// A third node has a trial license that ran out a week before its registration.
	env.must(env.admin.CreateNode(env.ctx(), apm.CreateNodeRequest{NodeName: "batch-01", SystemName: "shop", HostIP: "10.0.0.31", AgentPort: 7730}))
	licenses, err := env.admin.ListLicenses(env.ctx())
	env.must(err)
	if len(licenses) == 0 {
		t.Fatal("the demo seed has no licenses")
	}
	tokyo, err := time.LoadLocation("Asia/Tokyo")
	env.must(err)

	checks := []resource.TestCheckFunc{resource.TestCheckResourceAttr("data.apm_licenses.all", "licenses.#", strconv.Itoa(len(licenses)))}
	byName := map[string]apm.License{}
	for _, l := range licenses {
		byName[l.NodeName] = l
	}
	expired := 0
	names := slices.Sorted(maps.Keys(byName))
	for i, n := range names {
		l := byName[n]
		days := *daysUntil(l.ExpireDate, time.Now(), tokyo)
		if days < 0 {
			expired++
		}
		item := fmt.Sprintf("licenses.%d.", i)
		checks = append(checks,
			resource.TestCheckResourceAttr("data.apm_licenses.all", item+"node_name", l.NodeName),
			resource.TestCheckResourceAttr("data.apm_licenses.all", item+"license_type", l.LicenseType),
			resource.TestCheckResourceAttr("data.apm_licenses.all", item+"expire_date", l.ExpireDate.Raw),
			resource.TestCheckResourceAttr("data.apm_licenses.all", item+"max_cpu", strconv.FormatInt(l.MaxCPU, 10)),
			resource.TestCheckResourceAttr("data.apm_licenses.all", item+"days_until_expiry", strconv.FormatInt(days, 10)),
		)
	}
	if expired == 0 {
		t.Fatalf("the demo seed should have an expired (trial) license: %+v", licenses)
	}
	checks = append(checks, resource.TestCheckOutput("expired", strconv.Itoa(expired)))

	accTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: env.zonedConfig("Asia/Tokyo", `
data "apm_licenses" "all" {}

output "expired" {
  value = length([for l in data.apm_licenses.all.licenses : l if l.days_until_expiry < 0])
}

check "licenses" {
  assert {
    condition     = alltrue([for l in data.apm_licenses.all.licenses : l.days_until_expiry >= -3650])
    error_message = "a license expired long ago"
  }
}
`),
			Check: resource.ComposeAggregateTestCheckFunc(checks...),
		}},
	})
}

// Notifications, analysis events and the trace log carry what the manager reads, with
// each time as given and in RFC 3339 in the configured zone; filters change the result.
func TestAccMonitoringRecords(t *testing.T) {
	env := newAccEnvWith(t, apmsimtest.WithSeed(apmsim.SeedDemo))
	env.injectEvent(`{"eventType":"oom","systemName":"shop","serverName":"was-02","message":"heap full","stackTrace":"java.lang.OutOfMemoryError\n\tat x"}`)
	env.injectEvent(`{"eventType":"fullgc","systemName":"batch","serverName":"batch-01","message":"long pause"}`)
	berlin, err := time.LoadLocation("Europe/Berlin")
	env.must(err)

	notifications, err := env.admin.ListNotifications(env.ctx(), apm.NotificationFilter{})
	env.must(err)
	events, err := env.admin.ListAnalysisEvents(env.ctx(), apm.EventFilter{})
	env.must(err)
	oom, err := env.admin.ListAnalysisEvents(env.ctx(), apm.EventFilter{EventType: apm.EventTypeOOM})
	env.must(err)
	shop, err := env.admin.ListAnalysisEvents(env.ctx(), apm.EventFilter{SystemName: "shop"})
	env.must(err)
	recent, err := env.admin.ListNotifications(env.ctx(), apm.NotificationFilter{Interval: 24 * time.Hour})
	env.must(err)
	day := events[0].CreatedAt.Time
	ofToday, err := env.admin.ListAnalysisEvents(env.ctx(), apm.EventFilter{Start: day, End: day})
	env.must(err)
	newest, err := env.admin.GetAnalysisEvent(env.ctx(), events[0].EventID)
	env.must(err)
	logs, err := env.admin.ActionTraceLogs(env.ctx(), apm.TraceLogFilter{})
	env.must(err)
	if len(notifications) < 2 || len(events) < 2 || len(oom) == 0 || len(oom) == len(events) || len(shop) == len(events) || len(logs) == 0 ||
		len(recent) == 0 || len(ofToday) < 2 {
		t.Fatalf("arrangement: %d notifications, %d events (%d oom, %d shop), %d logs", len(notifications), len(events), len(oom), len(shop), len(logs))
	}
	today := events[0].CreatedAt.Time.Format(apm.LayoutQueryDate)
	tomorrow := events[0].CreatedAt.Time.AddDate(0, 0, 1).Format(apm.LayoutQueryDate)
	future := events[0].CreatedAt.Time.Add(time.Hour).Format(apm.LayoutCompact)

	n, e, l := notifications[0], events[0], logs[len(logs)-1]
	checks := []resource.TestCheckFunc{
		resource.TestCheckResourceAttr("data.apm_notifications.all", "notifications.#", strconv.Itoa(len(notifications))),
		resource.TestCheckResourceAttr("data.apm_notifications.all", "notifications.0.id", strconv.FormatInt(n.ID, 10)),
		resource.TestCheckResourceAttr("data.apm_notifications.all", "notifications.0.type", n.Type),
		resource.TestCheckResourceAttr("data.apm_notifications.all", "notifications.0.message", n.Message),
		resource.TestCheckResourceAttr("data.apm_notifications.all", "notifications.0.target_name", n.TargetName),
		resource.TestCheckResourceAttr("data.apm_notifications.all", "notifications.0.created_at", n.CreatedAt.Raw),
		resource.TestCheckResourceAttr("data.apm_notifications.all", "notifications.0.created_at_rfc3339", rfc3339In(n.CreatedAt, berlin)),
		resource.TestCheckResourceAttr("data.apm_notifications.newest", "notifications.#", "1"),
		resource.TestCheckResourceAttr("data.apm_notifications.newest", "notifications.0.id", strconv.FormatInt(n.ID, 10)),
		resource.TestCheckResourceAttr("data.apm_notifications.recent", "notifications.#", strconv.Itoa(len(recent))),
		resource.TestCheckResourceAttr("data.apm_notifications.later", "notifications.#", "0"),

		resource.TestCheckResourceAttr("data.apm_analysis_events.all", "events.#", strconv.Itoa(len(events))),
		resource.TestCheckResourceAttr("data.apm_analysis_events.all", "events.0.event_id", strconv.FormatInt(e.EventID, 10)),
		resource.TestCheckResourceAttr("data.apm_analysis_events.all", "events.0.event_type", e.EventType),
		resource.TestCheckResourceAttr("data.apm_analysis_events.all", "events.0.system_name", e.SystemName),
		resource.TestCheckResourceAttr("data.apm_analysis_events.all", "events.0.server_name", e.ServerName),
		resource.TestCheckResourceAttr("data.apm_analysis_events.all", "events.0.message", e.Message),
		resource.TestCheckResourceAttr("data.apm_analysis_events.all", "events.0.created_at", e.CreatedAt.Raw),
		resource.TestCheckResourceAttr("data.apm_analysis_events.all", "events.0.created_at_rfc3339", rfc3339In(e.CreatedAt, berlin)),
		resource.TestCheckNoResourceAttr("data.apm_analysis_events.all", "events.0.stack_trace"),
		resource.TestCheckResourceAttr("data.apm_analysis_events.oom", "events.#", strconv.Itoa(len(oom))),
		resource.TestCheckResourceAttr("data.apm_analysis_events.shop", "events.#", strconv.Itoa(len(shop))),
		resource.TestCheckResourceAttr("data.apm_analysis_events.today", "events.#", strconv.Itoa(len(ofToday))),
		resource.TestCheckResourceAttr("data.apm_analysis_events.tomorrow", "events.#", "0"),

		resource.TestCheckResourceAttr("data.apm_analysis_event.newest", "event_type", newest.EventType),
		resource.TestCheckResourceAttr("data.apm_analysis_event.newest", "message", newest.Message),
		resource.TestCheckResourceAttr("data.apm_analysis_event.newest", "stack_trace", newest.StackTrace),
		resource.TestCheckResourceAttr("data.apm_analysis_event.newest", "created_at_rfc3339", rfc3339In(newest.CreatedAt, berlin)),

		resource.TestCheckResourceAttr("data.apm_action_trace_logs.all", "logs.#", strconv.Itoa(len(logs))),
		resource.TestCheckResourceAttr("data.apm_action_trace_logs.all", fmt.Sprintf("logs.%d.log_id", len(logs)-1), strconv.FormatInt(l.LogID, 10)),
		resource.TestCheckResourceAttr("data.apm_action_trace_logs.all", fmt.Sprintf("logs.%d.user_id", len(logs)-1), l.UserID),
		resource.TestCheckResourceAttr("data.apm_action_trace_logs.all", fmt.Sprintf("logs.%d.action", len(logs)-1), l.Action),
		resource.TestCheckResourceAttr("data.apm_action_trace_logs.all", fmt.Sprintf("logs.%d.target_name", len(logs)-1), l.TargetName),
		resource.TestCheckResourceAttr("data.apm_action_trace_logs.all", fmt.Sprintf("logs.%d.result", len(logs)-1), l.Result),
		resource.TestCheckResourceAttr("data.apm_action_trace_logs.all", fmt.Sprintf("logs.%d.created_at", len(logs)-1), l.CreatedAt.Raw),
		resource.TestCheckResourceAttr("data.apm_action_trace_logs.all", fmt.Sprintf("logs.%d.created_at_rfc3339", len(logs)-1), rfc3339In(l.CreatedAt, berlin)),
		resource.TestCheckResourceAttr("data.apm_action_trace_logs.tomorrow", "logs.#", "0"),
	}
	if !strings.HasSuffix(rfc3339In(e.CreatedAt, berlin), "+01:00") && !strings.HasSuffix(rfc3339In(e.CreatedAt, berlin), "+02:00") {
		t.Fatalf("Berlin offset of %s", rfc3339In(e.CreatedAt, berlin))
	}

	accTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: env.zonedConfig("Europe/Berlin", fmt.Sprintf(`
data "apm_notifications" "all" {}
data "apm_notifications" "newest" {
  limit = 1
}
data "apm_notifications" "recent" {
  interval = 1440
}
data "apm_notifications" "later" {
  date_time = %q
}

data "apm_analysis_events" "all" {}
data "apm_analysis_events" "oom" {
  event_type = "oom"
}
data "apm_analysis_events" "shop" {
  system_name = "shop"
}
data "apm_analysis_events" "today" {
  start_date = %q
  end_date   = %q
}
data "apm_analysis_events" "tomorrow" {
  start_date = %q
}
data "apm_analysis_event" "newest" {
  event_id = data.apm_analysis_events.all.events[0].event_id
}

data "apm_action_trace_logs" "all" {}
data "apm_action_trace_logs" "tomorrow" {
  start_date = %q
}
`, future, today, today, tomorrow, tomorrow)),
			Check: resource.ComposeAggregateTestCheckFunc(checks...),
		}},
	})
}

// Bad filters and a bad time zone fail at validate time: nothing is asked of the manager.
func TestAccMonitoringBadFilters(t *testing.T) {
	env := newAccEnvWith(t, apmsimtest.WithSeed(apmsim.SeedDemo))
	step := func(zone, config string, fragments ...string) resource.TestStep {
		return resource.TestStep{Config: env.zonedConfig(zone, config), PlanOnly: true, ExpectError: errorMatching(fragments...)}
	}
	accTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			step("", `
data "apm_notifications" "x" {
  interval  = 10
  date_time = "20240101000000"
}`, "Conflicting notification filters", "interval and date_time are alternatives"),
			step("", `
data "apm_notifications" "x" {
  interval = 0
}`, "interval", "at least 1"),
			step("", `
data "apm_notifications" "x" {
  limit = 0
}`, "limit", "at least 1"),
			step("", `
data "apm_notifications" "x" {
  date_time = "2024-01-01 00:00:00"
}`, "Invalid yyyyMMddHHmmss value"),
			step("", `
data "apm_analysis_events" "x" {
  event_type = "panic"
}`, "event_type", "stuckthread"),
			step("", `
data "apm_analysis_events" "x" {
  start_date = "20240230"
}`, "Invalid yyyyMMdd value"),
			step("", `
data "apm_analysis_events" "x" {
  start_date = "20240302"
  end_date   = "20240301"
}`, "Invalid date range", "end_date 20240301 is before start_date 20240302"),
			step("", `
data "apm_action_trace_logs" "x" {
  start_date = "20240302"
  end_date   = "20240301"
}`, "Invalid date range"),
			step("", `
data "apm_analysis_event" "x" {
  event_id = 0
}`, "event_id", "at least 1"),
			step("Mars/Olympus_Mons", `data "apm_licenses" "x" {}`, "Invalid time zone", "Mars/Olympus_Mons"),
			step("Local", `data "apm_licenses" "x" {}`, "Invalid time zone"),
		},
	})
	for route := range env.sim.Sim.RequestCounts() {
		for _, r := range []string{"notification", "analysis", "actionTraceLog", "licenses"} {
			if strings.Contains(route, r) {
				t.Errorf("a bad filter reached the manager: %s", route)
			}
		}
	}
}
