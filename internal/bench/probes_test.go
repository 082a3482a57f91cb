//go:build bench

package bench

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// What a run costs besides time: the requests the manager served, from apmsim's counters,
// and the provider's memory, from the GNU time reports the wrapper leaves.

// requests counts reads and writes.
type requests struct{ gets, writes int }

// countRequests sums apmsim's counters, keyed "METHOD /route", by kind: GET and HEAD read,
// every other method writes.
func countRequests(counts map[string]int) requests {
	var r requests
	for route, n := range counts {
		method, _, _ := strings.Cut(route, " ")
		if method == "GET" || method == "HEAD" {
			r.gets += n
		} else {
			r.writes += n
		}
	}
	return r
}

// startReport is what GNU time reports of one provider start.
type startReport struct {
	rssKB int64         // peak resident set size
	cpu   time.Duration // user and system time
}

// takeReports reads the report of each provider start since the last call, and removes
// the reports so that the next run starts from none. The CLI waits for its providers to
// exit before it does, and GNU time writes its report before it exits, so every report is
// complete once the CLI is gone.
func takeReports(dir string) ([]startReport, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.txt"))
	if err != nil {
		return nil, err
	}
	reports := make([]startReport, 0, len(files))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		r, err := parseReport(string(data))
		if err != nil {
			return nil, fmt.Errorf("GNU time report %s: %w", filepath.Base(f), err)
		}
		reports = append(reports, r)
		if err := os.Remove(f); err != nil {
			return nil, err
		}
	}
	return reports, nil
}

const (
	maxRSSLabel = "Maximum resident set size (kbytes):"
	userLabel   = "User time (seconds):"
	systemLabel = "System time (seconds):"
)

// parseReport reads the peak RSS and the CPU time from a `time -v` report.
func parseReport(report string) (startReport, error) {
	var r startReport
	found := 0
	sc := bufio.NewScanner(strings.NewReader(report))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if v, ok := strings.CutPrefix(line, maxRSSLabel); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			if err != nil {
				return r, err
			}
			r.rssKB, found = kb, found|1
		}
		for _, label := range []string{userLabel, systemLabel} {
			if v, ok := strings.CutPrefix(line, label); ok {
				secs, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
				if err != nil {
					return r, err
				}
				r.cpu += time.Duration(secs * float64(time.Second))
				found |= 2
			}
		}
	}
	if found != 3 {
		return r, errors.New("no peak RSS or CPU time in it")
	}
	return r, nil
}
