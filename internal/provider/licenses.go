package provider

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
)

// licenseObject is a license with its days left, counted in the provider's time zone.
type licenseObject struct {
	apm.License
	days *int64 // nil when the expiry date could not be read
}

var licenseFields = []engine.Field[licenseObject]{
	engine.StringField(attrNodeName, "Name of the node the license belongs to.", func(l *licenseObject) string { return l.NodeName }),
	engine.StringField("license_type", "Type of license, such as `Standard`, `Enterprise` or `Trial`.", func(l *licenseObject) string { return l.LicenseType }),
	engine.StringField("expire_date", "Last day of the license, as the manager gives it (`yyyy-MM-dd`)."+zoneNote,
		func(l *licenseObject) string { return l.ExpireDate.Raw }),
	engine.Int64Field("max_cpu", "Number of CPUs the license allows.", func(l *licenseObject) int64 { return l.MaxCPU }),
	daysField(),
}

func daysField() engine.Field[licenseObject] {
	return engine.Int64Field("days_until_expiry",
		"Days from today, in the provider's `time_zone`, to `expire_date`: `0` on the expiry day, negative once the license has expired. "+
			"Null when the manager's date is not in a known format. Compare it in a `check` block to be warned ahead of expiry.",
		func(l *licenseObject) int64 { return *l.days }).
		NullWhen(func(l *licenseObject) bool { return l.days == nil })
}

// daysUntil counts the calendar days from today in loc to the date day names.
func daysUntil(day apm.Timestamp, now time.Time, loc *time.Location) *int64 {
	if day.IsZero() {
		return nil
	}
	y, m, d := now.In(loc).Date()
	today := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	t := day.Time
	expiry := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	n := int64(expiry.Sub(today).Hours() / 24)
	return &n
}

var newLicensesDataSource = engine.NewListDataSource(listDataSourceType[licenseObject]{
	Name: "licenses",
	Description: "Lists the licenses of the manager's nodes, sorted by node name, with the days left until each expires. " +
		"Use it in a `check` block to warn ahead of an expiry.",
	ListName:        "licenses",
	ListDescription: "The licenses, one per node.",
	Fields:          licenseFields,
	List: func(ctx context.Context, c *conn, _ engine.Attrs) ([]licenseObject, error) {
		licenses, err := c.ListLicenses(ctx)
		if err != nil {
			return nil, err
		}
		now, loc := time.Now(), c.timeZone()
		out := make([]licenseObject, 0, len(licenses))
		for _, l := range licenses {
			out = append(out, licenseObject{License: l, days: daysUntil(l.ExpireDate, now, loc)})
		}
		slices.SortStableFunc(out, func(a, b licenseObject) int { return strings.Compare(a.NodeName, b.NodeName) })
		return out, nil
	},
})
