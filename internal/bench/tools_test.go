//go:build bench

package bench

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/apmplatform/terraform-provider-apm/internal/clitest"
)

// The tools of a run: the real CLI, and the provider built from this tree. The CLI finds the
// provider through dev_overrides, as a developer's CLI does, so no init and no network. The
// directory the overrides name holds not the provider itself but a wrapper that runs it
// under GNU time, which is how the provider's peak memory is measured without touching it.

// gnuTime is GNU time; its -v report has the peak RSS of the command it ran.
const gnuTime = "/usr/bin/time"

type tools struct {
	cli        string // the Terraform CLI
	cliVersion string // the first line of `cli version`
	overrides  string // dev_overrides point here: holds the wrapper terraform-provider-apm
	rssDir     string // the wrapper writes one GNU time report per provider start here
}

func setupTools(t *testing.T) tools {
	t.Helper()
	root, err := clitest.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	cli, err := findCLI(root, os.Getenv("BENCH_TF"), exec.LookPath)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(gnuTime); err != nil {
		t.Fatalf("the peak RSS is measured with GNU time at %s: %v (Debian: apt-get install time)", gnuTime, err)
	}
	dir := t.TempDir()
	tl := tools{cli: cli, overrides: filepath.Join(dir, "overrides"), rssDir: filepath.Join(dir, "rss")}
	if err := buildProvider(root, dir, tl); err != nil {
		t.Fatal(err)
	}
	if tl.cliVersion, err = clitest.Version(cli); err != nil {
		t.Fatal(err)
	}
	return tl
}

// buildProvider builds the provider into dir/bin and writes the wrapper that dev_overrides
// find. The wrapper execs GNU time, so the CLI's child is time and time's child the
// provider: the go-plugin handshake on stdout and the signals pass through unchanged. $$ is
// the pid of the start, which names its report.
func buildProvider(root, dir string, tl tools) error {
	for _, d := range []string{tl.overrides, tl.rssDir} {
		if err := os.Mkdir(d, 0o700); err != nil {
			return err
		}
	}
	binary := filepath.Join(dir, "bin", "terraform-provider-apm")
	start := time.Now()
	build := exec.Command("go", "build", "-o", binary, ".")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		return fmt.Errorf("building the provider: %v\n%s", err, out)
	}
	fmt.Printf("bench: provider built in %.1fs\n", time.Since(start).Seconds())
	wrapper := fmt.Sprintf("#!/bin/sh\nexec %s -v -o '%s'/$$.txt '%s' \"$@\"\n", gnuTime, tl.rssDir, binary)
	return os.WriteFile(filepath.Join(tl.overrides, "terraform-provider-apm"), []byte(wrapper), 0o700)
}

// findCLI is the CLI to run: override (BENCH_TF) when set; else the terraform on PATH, the
// CLI the performance targets were set on; else the OpenTofu that `make tools` links into
// .clis/. A relative override is taken from the repository root: go test runs in the
// package's directory, and scripts/bench.sh makes the caller's relative paths absolute.
func findCLI(root, override string, lookPath func(string) (string, error)) (string, error) {
	cli := override
	if cli == "" {
		if onPath, err := lookPath("terraform"); err == nil {
			cli = onPath
		} else {
			cli = filepath.Join(root, ".clis", "tofu")
		}
	}
	if !filepath.IsAbs(cli) {
		cli = filepath.Join(root, cli)
	}
	info, err := os.Stat(cli)
	if err != nil || info.IsDir() || info.Mode()&0o111 == 0 {
		return "", fmt.Errorf("no executable CLI at %s (install Terraform, run `make tools`, or set BENCH_TF to a Terraform or OpenTofu binary)", cli)
	}
	return cli, nil
}
