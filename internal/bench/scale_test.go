//go:build bench

package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/apmplatform/terraform-provider-apm/internal/apmsim/apmsimtest"

	"github.com/apmplatform/terraform-provider-apm/internal/clitest"
)

// operation is one measured CLI command, and what its output must say: a run that did
// something else than the operation (a plan that is not empty after the apply) measures
// something else. The output is read rather than -detailed-exitcode: Terraform 1.11 exits 2
// on a plan -refresh-only of apm_node resources whose output says there are no changes.
// Parallelism is the CLI's default, spelled out so that the figures do not move with it.
type operation struct {
	name   string
	args   []string
	expect string
}

var operations = []operation{
	{"apply", []string{"apply", "-auto-approve", "-input=false", "-no-color", "-parallelism=10"}, "Apply complete!"},
	{"plan", []string{"plan", "-input=false", "-no-color", "-parallelism=10"}, "No changes."},
	{"plan -refresh-only", []string{"plan", "-refresh-only", "-input=false", "-no-color", "-parallelism=10"}, "No changes."},
}

// TestScale measures, for each N of BENCH_N, BENCH_ROUNDS rounds of every operation on the
// apm workspace and on the terraform_data one, interleaved (apm, data, apm, data, ...) so
// that a machine getting busier or quieter during the run moves both alike.
func TestScale(t *testing.T) {
	sizes, err := parseSizes(envOr("BENCH_N", "100,1000"))
	if err != nil {
		t.Fatalf("BENCH_N: %v", err)
	}
	rounds, err := strconv.Atoi(envOr("BENCH_ROUNDS", "5"))
	if err != nil || rounds < 1 {
		t.Fatalf("BENCH_ROUNDS=%q: want a positive number", os.Getenv("BENCH_ROUNDS"))
	}
	tl := setupTools(t)
	info := newRunInfo(tl.cliVersion, rounds)
	fmt.Printf("bench: %s on %s; CLI %s\n", tl.cliVersion, info.machine, tl.cli)
	var results []sizeResult
	for _, n := range sizes {
		t.Run(fmt.Sprintf("N=%d", n), func(t *testing.T) {
			r := measureSize(t, tl, newFleet(n), rounds)
			if err := printTable(os.Stdout, r, rounds); err != nil {
				t.Fatal(err)
			}
			results = append(results, r)
		})
	}
	if t.Failed() || os.Getenv("BENCH_WRITE_DOC") != "1" {
		return
	}
	root, err := clitest.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	if err := writeDoc(filepath.Join(root, "docs", "performance.md"), info, results); err != nil {
		t.Fatal(err)
	}
	fmt.Println("bench: results written to docs/performance.md")
}

// measureSize runs the rounds of one N. Each round starts from nothing, a fresh apmsim and
// fresh workspaces, as the apply measured is a create from empty; nothing is destroyed.
func measureSize(t *testing.T, tl tools, f fleet, rounds int) sizeResult {
	t.Helper()
	samples := make([][]sample, len(operations))
	for round := 1; round <= rounds; round++ {
		sim := apmsimtest.Start(t)
		apmWS := newWorkspace(t, tl, f, apmFlavour, sim)
		dataWS := newWorkspace(t, tl, f, dataFlavour, nil)
		line := fmt.Sprintf("bench: N=%d round %d/%d:", f.nodes, round, rounds)
		for i, op := range operations {
			s := measureOp(t, tl, sim, apmWS, dataWS, op)
			samples[i] = append(samples[i], s)
			line += fmt.Sprintf(" %s %.2fs/%.2fs", op.name, s.apm.Seconds(), s.data.Seconds())
		}
		fmt.Println(line + " (apm/terraform_data)")
	}
	r := sizeResult{f: f}
	for i, op := range operations {
		r.rows = append(r.rows, summarize(op.name, f.objects(), samples[i]))
	}
	return r
}

// measureOp runs one operation on the apm workspace, then on the terraform_data one.
func measureOp(t *testing.T, tl tools, sim *apmsimtest.Server, apmWS, dataWS *workspace, op operation) sample {
	t.Helper()
	sim.Sim.ResetRequestCounts()
	var s sample
	s.apm = apmWS.run(t, op)
	s.req = countRequests(sim.Sim.RequestCounts())
	starts, err := takeReports(tl.rssDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(starts) == 0 {
		t.Fatalf("apm %s: no GNU time report: the CLI did not start the provider through the wrapper", op.name)
	}
	s.starts = starts
	s.data = dataWS.run(t, op)
	return s
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

// parseSizes reads a list of node counts such as "100,1000".
func parseSizes(list string) ([]int, error) {
	var sizes []int
	for field := range strings.SplitSeq(list, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(field))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("%q: want positive node counts separated by commas, such as 100,1000", list)
		}
		sizes = append(sizes, n)
	}
	return sizes, nil
}
