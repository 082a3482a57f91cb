package apm

import (
	"testing"
	"time"
)

func TestParseTimestampLayouts(t *testing.T) {
	cases := []struct {
		raw, layout string
		want        time.Time
	}{
		{"20261121093005", LayoutCompact, time.Date(2026, 11, 21, 9, 30, 5, 0, time.UTC)},
		{"2026-11-21 09:30:05", LayoutDateTime, time.Date(2026, 11, 21, 9, 30, 5, 0, time.UTC)},
		{"2026-11-21", LayoutDate, time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)},
		// A manager that spells a value in another known layout is still understood.
		{"2026-11-21 09:30:05", LayoutCompact, time.Date(2026, 11, 21, 9, 30, 5, 0, time.UTC)},
		{" 20261121 ", LayoutDate, time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)},
	}
	for _, c := range cases {
		got := parseTimestamp(c.raw, c.layout)
		if !got.Time.Equal(c.want) || got.Raw != c.raw {
			t.Errorf("parseTimestamp(%q, %q) = %v (raw %q), want %v", c.raw, c.layout, got.Time, got.Raw, c.want)
		}
	}
	for _, raw := range []string{"", "yesterday", "2026-13-45"} {
		got := parseTimestamp(raw, LayoutDate)
		if !got.IsZero() || got.String() != raw {
			t.Errorf("parseTimestamp(%q) = %v, want zero time keeping the raw value", raw, got.Time)
		}
	}
}
