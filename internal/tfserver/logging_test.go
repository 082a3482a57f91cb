package tfserver

import (
	"math"
	"os"
	"runtime/debug"
	"slices"
	"testing"
)

func TestQuietUnlessLogsRequested(t *testing.T) {
	unset := func() {
		for _, name := range append(slices.Clone(logRequests), loggerLevels...) {
			t.Setenv(name, "") // restored after the test
			if err := os.Unsetenv(name); err != nil {
				t.Fatal(err)
			}
		}
	}
	unset()
	QuietUnlessLogsRequested()
	for _, name := range loggerLevels {
		if got := os.Getenv(name); got != "OFF" {
			t.Errorf("without TF_LOG, %s = %q, want OFF", name, got)
		}
	}
	if !ProviderLogsOff() {
		t.Error("the provider's logger must count as off")
	}
	for _, asked := range logRequests {
		unset()
		t.Setenv(asked, "DEBUG")
		QuietUnlessLogsRequested()
		for _, name := range loggerLevels {
			if name != asked && os.Getenv(name) != "" {
				t.Errorf("with %s set, %s = %q; the SDK's defaults must stay", asked, name, os.Getenv(name))
			}
		}
	}
}

func TestTuneGCLeavesAUserSetting(t *testing.T) {
	restorePercent, restoreLimit := debug.SetGCPercent(100), debug.SetMemoryLimit(math.MaxInt64)
	defer func() { debug.SetGCPercent(restorePercent); debug.SetMemoryLimit(restoreLimit) }()

	for _, name := range []string{"GOGC", "GOMEMLIMIT"} {
		t.Setenv(name, "")
		if err := os.Unsetenv(name); err != nil {
			t.Fatal(err)
		}
	}
	TuneGC()
	if got := debug.SetGCPercent(100); got != gcPercent {
		t.Errorf("without GOGC the target is %d, want %d", got, gcPercent)
	}
	if got := debug.SetMemoryLimit(math.MaxInt64); got != memoryLimit {
		t.Errorf("without GOMEMLIMIT the limit is %d, want %d", got, memoryLimit)
	}
	t.Setenv("GOGC", "150")
	t.Setenv("GOMEMLIMIT", "1GiB")
	TuneGC()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("with GOGC set the provider changed the target to %d", got)
	}
	if got := debug.SetMemoryLimit(math.MaxInt64); got != math.MaxInt64 {
		t.Errorf("with GOMEMLIMIT set the provider changed the limit to %d", got)
	}
}
