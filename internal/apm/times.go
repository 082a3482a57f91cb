package apm

import (
	"fmt"
	"net/url"
	"strings"
	"time"
)

// Layouts of the manager's time values (api/decisions.md "Time formats"). None carries a
// time zone: they are the manager's local wall clock.
const (
	LayoutCompact   = "20060102150405"      // notification createdAt, query dateTime
	LayoutDateTime  = "2006-01-02 15:04:05" // analysis event and action log createdAt
	LayoutDate      = "2006-01-02"          // license expireDate, user createdAt
	LayoutQueryDate = "20060102"            // query startDate and endDate
)

// knownLayouts are tried, after the expected one, on values a real manager may spell
// differently from the documentation.
var knownLayouts = []string{LayoutDateTime, LayoutCompact, LayoutDate, LayoutQueryDate, time.RFC3339}

// Timestamp is a time value of the manager: the string as it arrived and, when it could
// be read, the time it names. Time is in UTC by convention, standing for the manager's
// local wall clock (the manager sends no zone).
type Timestamp struct {
	Raw  string
	Time time.Time // zero when Raw is empty or in no known layout
}

// IsZero reports whether the timestamp names no time.
func (t Timestamp) IsZero() bool { return t.Time.IsZero() }

// String returns the raw value, as the manager sent it.
func (t Timestamp) String() string { return t.Raw }

// parseTimestamp reads raw in layout, falling back to the other known layouts (lenient
// decoding, api/decisions.md rule 1). An unreadable value keeps Raw and leaves Time zero.
func parseTimestamp(raw, layout string) Timestamp {
	ts := Timestamp{Raw: raw}
	value := strings.TrimSpace(raw)
	if value == "" {
		return ts
	}
	for _, l := range append([]string{layout}, knownLayouts...) {
		if t, err := time.ParseInLocation(l, value, time.UTC); err == nil {
			ts.Time = t
			return ts
		}
	}
	return ts
}

// setDateRange adds startDate and endDate (yyyyMMdd) for the non-zero ends and refuses an
// end before the start.
func setDateRange(q url.Values, what string, start, end time.Time) error {
	if !start.IsZero() {
		q.Set("startDate", start.Format(LayoutQueryDate))
	}
	if !end.IsZero() {
		q.Set("endDate", end.Format(LayoutQueryDate))
	}
	// yyyyMMdd strings of four-digit years compare like the dates they name.
	if s, e := q.Get("startDate"), q.Get("endDate"); s != "" && e != "" && e < s {
		return fmt.Errorf("%s: end date %s is before start date %s", what, e, s)
	}
	return nil
}
