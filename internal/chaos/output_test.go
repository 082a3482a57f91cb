//go:build chaos

package chaos

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
)

// Reading the CLI's output. Its diagnostics come last: a line "Error: <summary>" or
// "Warning: <summary>" at the start of a line, then the detail up to the next diagnostic.
// With colour they are boxes ("╷", "│ " lines, "╵"), which are unboxed first, so both forms
// read alike. The CLI wraps the detail, so matching is done with any run of white space
// where the provider wrote one space.

// diagnostics returns the text of each error diagnostic, trailing blank lines removed.
func diagnostics(out string) []string {
	var blocks []string
	var cur []string
	flush := func() {
		if len(cur) > 0 && strings.HasPrefix(cur[0], "Error: ") {
			blocks = append(blocks, strings.TrimRight(strings.Join(cur, "\n"), "\n "))
		}
		cur = nil
	}
	for line := range strings.SplitSeq(unbox(out), "\n") {
		if strings.HasPrefix(line, "Error: ") || strings.HasPrefix(line, "Warning: ") {
			flush()
		}
		if cur != nil || strings.HasPrefix(line, "Error: ") || strings.HasPrefix(line, "Warning: ") {
			cur = append(cur, line)
		}
	}
	flush()
	return blocks
}

// unbox turns boxed diagnostics into the plain form.
func unbox(out string) string {
	lines := strings.Split(out, "\n")
	for i, line := range lines {
		switch {
		case strings.HasPrefix(line, "╷"), strings.HasPrefix(line, "╵"):
			lines[i] = ""
		case strings.HasPrefix(line, "│"):
			lines[i] = strings.TrimPrefix(strings.TrimPrefix(line, "│"), " ")
		}
	}
	return strings.Join(lines, "\n")
}

var (
	statusPattern    = regexp.MustCompile(`\b([45]\d\d) [A-Z][A-Z_]+`)
	transportPattern = regexp.MustCompile(`(?i)execution halted|connection reset|EOF|context canceled|broken pipe|timeout`)
)

// kinds counts the errors by what failed: the manager's status ("409 CONFLICT") or the
// transport ("EOF"), so that a run's summary shows faults apart from provider gaps.
func kinds(blocks []string) string {
	count := map[string]int{}
	for _, b := range blocks {
		count[kind(strings.Join(strings.Fields(b), " "))]++
	}
	parts := make([]string, 0, len(count))
	for _, k := range slices.Sorted(maps.Keys(count)) {
		parts = append(parts, fmt.Sprintf("%s ×%d", k, count[k]))
	}
	return strings.Join(parts, ", ")
}

// kind is the first failure a diagnostic names: the request's own, before any later
// request (a lookup after a lost answer) that the detail also reports.
func kind(flat string) string {
	status, transport := statusPattern.FindStringIndex(flat), transportPattern.FindStringIndex(flat)
	switch {
	case status != nil && (transport == nil || status[0] < transport[0]):
		return flat[status[0]:status[1]]
	case transport != nil:
		return strings.ToLower(flat[transport[0]:transport[1]])
	}
	return "other"
}

// faultPattern matches what the injected faults make a request fail with: apmsim's
// answer ("Injected fault") or a connection it broke.
var faultPattern = regexp.MustCompile(`Injected fault|connection reset|EOF|broken pipe`)

// faultCaused reports whether a diagnostic is the failure of a request that met a fault.
func faultCaused(block string) bool {
	return faultPattern.MatchString(strings.Join(strings.Fields(block), " "))
}

// importPattern finds the import command the provider offers when a create meets an
// existing object: "terraform import apm_node.<name> <id>", possibly inside prose, so the
// ID ends at a comma, a parenthesis or a quote (no import ID contains one).
var importPattern = regexp.MustCompile(`terraform\s+import\s+(apm_[a-z_]+)\.\S+\s+([^\s,()"]+)`)

// importIDs lists the "type id" pairs of the import commands in the diagnostics.
func importIDs(blocks []string) []string {
	var ids []string
	for _, b := range blocks {
		for _, m := range importPattern.FindAllStringSubmatch(b, -1) {
			ids = append(ids, m[1]+" "+m[2])
		}
	}
	return ids
}

// planLines are the lines of a plan that say what it would change.
func planLines(out string) []string {
	var lines []string
	for line := range strings.SplitSeq(out, "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "# apm_") || strings.HasPrefix(t, "Plan:") {
			lines = append(lines, t)
		}
	}
	return lines
}

// locationLine matches the lines of a diagnostic that say where in the configuration it is
// ("with apm_node.x,", "on main.tf line 3, in ...", "3: resource ..."), and blank lines.
var locationLine = regexp.MustCompile(`^\s*$|^\s+(with |on )|^\s*\d+: `)

// firstLines shortens a diagnostic for the log to its first n lines that say what failed.
func firstLines(s string, n int) string {
	var lines []string
	for line := range strings.SplitSeq(s, "\n") {
		if !locationLine.MatchString(line) {
			lines = append(lines, line)
		}
	}
	if len(lines) > n {
		lines = append(lines[:n], "…")
	}
	return strings.Join(lines, "\n    ")
}

// head is at most n items of a list, with the count of the rest.
func head(items []string, n int) string {
	if len(items) <= n {
		return strings.Join(items, "; ")
	}
	return fmt.Sprintf("%s; … and %d more", strings.Join(items[:n], "; "), len(items)-n)
}

// tail is the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
