//go:build bench

package bench

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
)

// Turning the rounds into figures, and the figures into the console table and the results
// section of docs/performance.md.

// A sample is one operation in one round, on both workspaces.
type sample struct {
	apm, data time.Duration
	req       requests      // served for the apm run
	starts    []startReport // GNU time's report of each provider start of the apm run
}

// figures are one operation's results over the rounds. Times are medians, which one slow
// round (a cold cache, a busy machine) does not move; the ratio is the median of the rounds'
// ratios, so that it compares runs made back to back.
type figures struct {
	op           string
	apm, data    time.Duration
	ratio        float64
	gets, writes float64       // per object, medians
	starts       string        // provider starts per run: "4", or "3-4" when the rounds differ
	cpu          time.Duration // the provider's CPU time (user and system, all starts of a run), median
	peakRSSKB    int64         // the highest of all starts in all rounds
}

// sizeResult is the figures of one N.
type sizeResult struct {
	f    fleet
	rows []figures
}

func summarize(op string, objects int, samples []sample) figures {
	var apm, data, ratio, gets, writes, cpu []float64
	var starts []int
	var peak int64
	for _, s := range samples {
		apm = append(apm, s.apm.Seconds())
		data = append(data, s.data.Seconds())
		ratio = append(ratio, s.apm.Seconds()/s.data.Seconds())
		gets = append(gets, float64(s.req.gets)/float64(objects))
		writes = append(writes, float64(s.req.writes)/float64(objects))
		starts = append(starts, len(s.starts))
		var runCPU time.Duration
		for _, r := range s.starts {
			peak = max(peak, r.rssKB)
			runCPU += r.cpu
		}
		cpu = append(cpu, runCPU.Seconds())
	}
	return figures{
		op:        op,
		apm:       seconds(median(apm)),
		data:      seconds(median(data)),
		ratio:     median(ratio),
		gets:      median(gets),
		writes:    median(writes),
		starts:    span(starts),
		cpu:       seconds(median(cpu)),
		peakRSSKB: peak,
	}
}

func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// median of xs; the mean of the middle two for an even count.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Sorted(slices.Values(xs))
	mid := len(s) / 2
	if len(s)%2 == 1 {
		return s[mid]
	}
	return (s[mid-1] + s[mid]) / 2
}

// span is "n" when every value is n, else "min-max".
func span(ns []int) string {
	if len(ns) == 0 {
		return "0"
	}
	lo, hi := slices.Min(ns), slices.Max(ns)
	if lo == hi {
		return strconv.Itoa(lo)
	}
	return fmt.Sprintf("%d-%d", lo, hi)
}

var columns = []string{"operation", "apm", "terraform_data", "ratio", "GETs/object", "writes/object", "provider starts", "provider CPU", "peak RSS"}

// cells are a row's values in the order of columns.
func (fg figures) cells() []string {
	return []string{
		fg.op,
		fmt.Sprintf("%.2f s", fg.apm.Seconds()),
		fmt.Sprintf("%.2f s", fg.data.Seconds()),
		fmt.Sprintf("%.2f×", fg.ratio),
		fmt.Sprintf("%.2f", fg.gets),
		fmt.Sprintf("%.2f", fg.writes),
		fg.starts,
		fmt.Sprintf("%.2f s", fg.cpu.Seconds()),
		fmt.Sprintf("%.1f MiB", float64(fg.peakRSSKB)/1024),
	}
}

// printTable writes the console table of one N.
func printTable(w io.Writer, r sizeResult, rounds int) error {
	fmt.Fprintf(w, "\nN=%d: %d objects (%d nodes, %d system(s)); medians of %d rounds\n", r.f.nodes, r.f.objects(), r.f.nodes, r.f.systems, rounds)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(columns, "\t"))
	for _, fg := range r.rows {
		fmt.Fprintln(tw, strings.Join(fg.cells(), "\t"))
	}
	return tw.Flush()
}

// runInfo is what the figures depend on besides the tree.
type runInfo struct {
	date, machine, cli string
	rounds             int
}

func newRunInfo(cliVersion string, rounds int) runInfo {
	return runInfo{date: time.Now().UTC().Format(time.DateOnly), machine: describeMachine(), cli: cliVersion, rounds: rounds}
}

// describeMachine is "<n> CPUs (<model>), <RAM>", from /proc; a part it cannot read is "?".
func describeMachine() string {
	model, ram := "?", "?"
	if v, ok := procField("/proc/cpuinfo", "model name"); ok {
		model = v
	}
	if v, ok := procField("/proc/meminfo", "MemTotal"); ok {
		if kb, err := strconv.ParseFloat(strings.TrimSuffix(v, " kB"), 64); err == nil {
			ram = fmt.Sprintf("%.1f GiB RAM", kb/(1<<20))
		}
	}
	return fmt.Sprintf("%d CPUs (%s), %s", runtime.NumCPU(), model, ram)
}

// procField is the value of the first "name: value" line of a /proc file.
func procField(path, name string) (string, bool) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", false
	}
	for line := range strings.Lines(string(data)) {
		k, v, ok := strings.Cut(line, ":")
		if ok && strings.TrimSpace(k) == name {
			return strings.TrimSpace(v), true
		}
	}
	return "", false
}

// The results section of docs/performance.md lies between these markers; BENCH_WRITE_DOC=1
// replaces it, and leaves the rest of the page alone.
const (
	docBegin = "<!-- bench results: begin (written by BENCH_WRITE_DOC=1 make bench) -->"
	docEnd   = "<!-- bench results: end -->"
)

// markdown is the results section: how the run was made, and one table row per N and
// operation.
func markdown(info runInfo, results []sizeResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Run of %s on %s, with %s; medians of %d rounds; apmsim in process over plain HTTP.\n\n",
		info.date, info.machine, info.cli, info.rounds)
	b.WriteString("| N | " + strings.Join(columns, " | ") + " |\n")
	b.WriteString("| ---: | --- |" + strings.Repeat(" ---: |", len(columns)-1) + "\n")
	for _, r := range results {
		for _, fg := range r.rows {
			fmt.Fprintf(&b, "| %d | %s |\n", r.f.nodes, strings.Join(fg.cells(), " | "))
		}
	}
	return b.String()
}

// replaceSection puts section between the markers of doc.
func replaceSection(doc, section string) (string, error) {
	before, rest, ok := strings.Cut(doc, docBegin)
	if !ok {
		return "", errors.New("no begin marker " + docBegin)
	}
	_, after, ok := strings.Cut(rest, docEnd)
	if !ok {
		return "", errors.New("no end marker " + docEnd)
	}
	return before + docBegin + "\n" + section + docEnd + after, nil
}

// writeDoc rewrites the results section of the page at path.
func writeDoc(path string, info runInfo, results []sizeResult) error {
	doc, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	out, err := replaceSection(string(doc), markdown(info, results))
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return os.WriteFile(path, []byte(out), 0o644)
}
