package tfserver

import (
	"os"
	"runtime/debug"
	"slices"
	"strings"
)

// Logs. terraform-plugin-log sets the SDK and provider loggers to TRACE when no TF_LOG_*
// variable names a level, and leaves the filtering to the CLI: a 1,000-object plan then
// writes tens of megabytes of JSON lines to the provider's stderr that the CLI parses and
// throws away, a third of the provider's time. So when the user asked for no logs at
// all, the provider switches its loggers off before serving; any of these variables set
// keeps the SDK's behaviour exactly.
var logRequests = []string{"TF_LOG", "TF_LOG_PROVIDER", "TF_LOG_PROVIDER_APM", "TF_LOG_SDK", "TF_LOG_SDK_PROTO", "TF_LOG_SDK_FRAMEWORK"}

// loggerLevels are the variables from which the SDK's loggers read their levels.
var loggerLevels = []string{"TF_LOG_SDK", "TF_LOG_SDK_PROTO", "TF_LOG_SDK_FRAMEWORK", "TF_LOG_PROVIDER_APM"}

// LoggerLevels are the variables from which the SDK's loggers read their levels (for
// benchmarks that compare them).
func LoggerLevels() []string { return slices.Clone(loggerLevels) }

// QuietUnlessLogsRequested switches the SDK and provider loggers off when none of the
// TF_LOG variables is set. Call it before serving.
func QuietUnlessLogsRequested() {
	for _, name := range logRequests {
		if _, set := os.LookupEnv(name); set {
			return
		}
	}
	for _, name := range loggerLevels {
		_ = os.Setenv(name, "OFF") // cannot fail for these names and values
	}
}

// ProviderLogsOff reports whether the provider's own logger is switched off, by
// QuietUnlessLogsRequested or by the user: its log lines then need no building.
func ProviderLogsOff() bool {
	return strings.EqualFold(os.Getenv("TF_LOG_PROVIDER_APM"), "off")
}

// The collector's settings when the user set none. The provider's live heap stays small
// and flat (release.go), so a higher target (GOGC) saves collector time, a sizeable
// part of a large plan's provider CPU, for a few MiB; the soft limit (GOMEMLIMIT) makes the
// collector work harder as the heap nears it, so that memory stays bounded at any scale.
const (
	gcPercent   = 400
	memoryLimit = 64 << 20
)

// TuneGC raises the collector's target and sets a soft memory limit, each unless the user
// set it (GOGC, GOMEMLIMIT). Call it before serving.
func TuneGC() {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(gcPercent)
	}
	if _, set := os.LookupEnv("GOMEMLIMIT"); !set {
		debug.SetMemoryLimit(memoryLimit)
	}
}
