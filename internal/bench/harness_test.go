//go:build bench

package bench

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apmplatform/terraform-provider-apm/internal/clitest"
)

// Tests of the harness itself, without a CLI: the figures are only as good as the
// configurations, counters and reports they are made of.

func TestFleetConfig(t *testing.T) {
	f := newFleet(250)
	if f.systems != 3 || f.objects() != 253 {
		t.Fatalf("fleet %+v, %d objects; want 3 systems, 253 objects", f, f.objects())
	}
	for _, tc := range []struct {
		fl                   flavour
		system, node, sysRef string
	}{
		{apmFlavour, `resource "apm_system"`, `resource "apm_node"`, "system_id  = apm_system.s"},
		{dataFlavour, `resource "terraform_data" "s`, `resource "terraform_data" "n`, "system_id  = terraform_data.s"},
	} {
		cfg := f.config(tc.fl)
		if s, n, r := strings.Count(cfg, tc.system), strings.Count(cfg, tc.node), strings.Count(cfg, tc.sysRef); s != 3 || n != 250 || r != 250 {
			t.Errorf("%s: %d systems, %d nodes, %d system references; want 3, 250, 250", tc.fl.name, s, n, r)
		}
		if !strings.Contains(cfg, `"n250"`) || !strings.Contains(cfg, ".s3.id") || strings.Contains(cfg, ".s4.id") {
			t.Errorf("%s: node 250 must be in system 3, the last", tc.fl.name)
		}
	}
	if cfg := f.config(apmFlavour); strings.Contains(cfg, "api_key") || strings.Contains(cfg, "endpoint") {
		t.Error("the configuration must leave endpoint and key to the environment")
	}
}

func TestSummarize(t *testing.T) {
	s := func(apm, data int, gets int, rss ...int64) sample {
		starts := make([]startReport, len(rss))
		for i, kb := range rss {
			starts[i] = startReport{rssKB: kb, cpu: time.Second}
		}
		return sample{apm: time.Duration(apm) * time.Second, data: time.Duration(data) * time.Second, req: requests{gets: gets, writes: 10}, starts: starts}
	}
	fg := summarize("plan", 10, []sample{s(4, 2, 20, 100, 300), s(9, 1, 30, 200), s(3, 3, 10, 150, 150)})
	want := figures{op: "plan", apm: 4 * time.Second, data: 2 * time.Second, ratio: 2, gets: 2, writes: 1, starts: "1-2", cpu: 2 * time.Second, peakRSSKB: 300}
	if fg != want {
		t.Fatalf("summarize = %+v, want %+v", fg, want)
	}
	if m := median([]float64{4, 1, 3, 2}); m != 2.5 {
		t.Errorf("median of an even count = %v, want 2.5", m)
	}
	if got := span([]int{3, 3}); got != "3" {
		t.Errorf("span = %q, want 3", got)
	}
}

func TestCountRequests(t *testing.T) {
	got := countRequests(map[string]int{"GET /rest/systems": 3, "HEAD /rest/nodes": 1, "POST /rest/nodes": 5, "DELETE /rest/nodes/{nodeId}": 2})
	if got != (requests{gets: 4, writes: 7}) {
		t.Fatalf("countRequests = %+v", got)
	}
}

func TestTakeReports(t *testing.T) {
	dir := t.TempDir()
	report := "\tCommand being timed: \"terraform-provider-apm\"\n\tUser time (seconds): 0.50\n\tSystem time (seconds): 0.25\n" +
		"\tMaximum resident set size (kbytes): 35552\n\tExit status: 0\n"
	clitest.MustWrite(t, filepath.Join(dir, "1.txt"), report)
	clitest.MustWrite(t, filepath.Join(dir, "2.txt"), strings.ReplaceAll(report, "35552", "21876"))
	got, err := takeReports(dir)
	slices.SortFunc(got, func(a, b startReport) int { return int(a.rssKB - b.rssKB) })
	want := []startReport{{rssKB: 21876, cpu: 750 * time.Millisecond}, {rssKB: 35552, cpu: 750 * time.Millisecond}}
	if err != nil || !slices.Equal(got, want) {
		t.Fatalf("takeReports = %v, %v", got, err)
	}
	if again, err := takeReports(dir); err != nil || len(again) != 0 {
		t.Fatalf("a second take = %v, %v; want none: the reports are removed", again, err)
	}
	clitest.MustWrite(t, filepath.Join(dir, "3.txt"), "Command terminated by signal 9\n")
	if _, err := takeReports(dir); err == nil {
		t.Fatal("a report without a peak RSS must be an error")
	}
}

func TestReplaceSection(t *testing.T) {
	doc := "# P\n\nintro\n\n" + docBegin + "\nold\n" + docEnd + "\n\nafter\n"
	got, err := replaceSection(doc, "new\n")
	if want := "# P\n\nintro\n\n" + docBegin + "\nnew\n" + docEnd + "\n\nafter\n"; err != nil || got != want {
		t.Fatalf("replaceSection = %q, %v; want %q", got, err, want)
	}
	if _, err := replaceSection("# P\n", "new\n"); err == nil {
		t.Fatal("a page without markers must be an error")
	}
}

func TestMarkdown(t *testing.T) {
	r := sizeResult{f: newFleet(100), rows: []figures{{op: "apply", apm: 1500 * time.Millisecond, data: 500 * time.Millisecond, ratio: 3, gets: 1, writes: 1, starts: "4", cpu: 1250 * time.Millisecond, peakRSSKB: 36864}}}
	md := markdown(runInfo{date: "2025-01-02", machine: "2 CPUs (x), 1.0 GiB RAM", cli: "Terraform v1.11.4", rounds: 5}, []sizeResult{r})
	for _, want := range []string{"Run of 2025-01-02 on 2 CPUs (x), 1.0 GiB RAM, with Terraform v1.11.4", "| 100 | apply | 1.50 s | 0.50 s | 3.00× | 1.00 | 1.00 | 4 | 1.25 s | 36.0 MiB |"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
}

func TestParseSizes(t *testing.T) {
	if got, err := parseSizes("100, 1000"); err != nil || !slices.Equal(got, []int{100, 1000}) {
		t.Fatalf("parseSizes = %v, %v", got, err)
	}
	for _, bad := range []string{"", "1,000", "100,", "0", "x"} {
		if got, err := parseSizes(bad); err == nil {
			t.Errorf("parseSizes(%q) = %v; want an error", bad, got)
		}
	}
}

func TestFindCLI(t *testing.T) {
	root := t.TempDir()
	onPath := filepath.Join(root, "bin", "terraform")
	tofu := filepath.Join(root, ".clis", "tofu")
	for _, d := range []string{"bin", ".clis"} {
		if err := os.Mkdir(filepath.Join(root, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	for _, exe := range []string{onPath, tofu} {
		if err := os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	found := func(string) (string, error) { return onPath, nil }
	missing := func(string) (string, error) { return "", errors.New("not found") }
	for _, tc := range []struct {
		override string
		look     func(string) (string, error)
		want     string
	}{
		{"", found, onPath},
		{"", missing, tofu},
		{".clis/tofu", found, tofu},
		{"bin", found, ""},
	} {
		got, err := findCLI(root, tc.override, tc.look)
		if got != tc.want || (err != nil) != (tc.want == "") {
			t.Errorf("findCLI(%q) = %q, %v; want %q", tc.override, got, err, tc.want)
		}
	}
}
