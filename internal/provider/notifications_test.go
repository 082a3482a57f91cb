package provider

import (
	"strconv"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
)

// Notifications carry what the manager reads, with each time as given and in RFC 3339 in
// the configured zone; filters change the result.
func TestAccNotifications_filters(t *testing.T) {
	env, berlin, events := newRecordsEnv(t)
	notifications, err := env.admin.ListNotifications(env.ctx(), apm.NotificationFilter{})
	env.must(err)
	recent, err := env.admin.ListNotifications(env.ctx(), apm.NotificationFilter{Interval: 24 * time.Hour})
	env.must(err)
	if len(notifications) < 2 || len(recent) == 0 {
		t.Fatalf("arrangement: %d notifications, %d of the last day", len(notifications), len(recent))
	}
	// An hour after the newest event, which is the newest notification.
	later := events[0].CreatedAt.Time.Add(time.Hour).Format(apm.LayoutCompact)

	n := notifications[0]
	checks := attrValues("data.apm_notifications.all", "notifications.0.", map[string]string{
		"id":                 strconv.FormatInt(n.ID, 10),
		"type":               n.Type,
		"message":            n.Message,
		"target_name":        n.TargetName,
		"created_at":         n.CreatedAt.Raw,
		"created_at_rfc3339": rfc3339In(n.CreatedAt, berlin),
	})
	checks = append(checks,
		resource.TestCheckResourceAttr("data.apm_notifications.all", "notifications.#", strconv.Itoa(len(notifications))),
		resource.TestCheckResourceAttr("data.apm_notifications.newest", "notifications.#", "1"),
		resource.TestCheckResourceAttr("data.apm_notifications.newest", "notifications.0.id", strconv.FormatInt(n.ID, 10)),
		resource.TestCheckResourceAttr("data.apm_notifications.recent", "notifications.#", strconv.Itoa(len(recent))),
		resource.TestCheckResourceAttr("data.apm_notifications.later", "notifications.#", "0"),
	)
	runAcc(t, nil, []resource.TestStep{{
		Config: env.zonedConfig("Europe/Berlin", tf(t, "notifications/each_filter.tf", "later_than", later)),
		Check:  resource.ComposeAggregateTestCheckFunc(checks...),
	}})
}

// Bad filters fail at validate time: nothing is asked of the manager.
func TestAccNotifications_badFilters(t *testing.T) {
	filtered := func(settings ...any) string {
		return tf(t, "notifications/filtered.tf", orNull(settings, "interval", "date_time", "limit")...)
	}
	testBadFilters(t, []badFilter{
		{"", filtered("interval", 10, "date_time", "20240101000000"), []string{"Conflicting notification filters", "interval and date_time are alternatives"}},
		{"", filtered("interval", 0), []string{"interval", "at least 1"}},
		{"", filtered("limit", 0), []string{"limit", "at least 1"}},
		{"", filtered("date_time", "2024-01-01 00:00:00"), []string{"Invalid yyyyMMddHHmmss value"}},
	})
}
