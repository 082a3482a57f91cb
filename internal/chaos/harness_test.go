//go:build chaos

package chaos

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/apmplatform/terraform-provider-apm/internal/clitest"
)

// The tools every scenario shares: the real CLI, and the provider binary built once per test
// binary. The CLI finds the provider through dev_overrides, exactly as a user's would, so the
// provider runs as its own process, which is what the signals must reach.

type tools struct {
	cli         string // the Terraform CLI (OpenTofu by default)
	providerDir string // holds terraform-provider-apm; dev_overrides point here
}

var (
	toolsOnce sync.Once
	toolsVal  tools
	toolsErr  error
	// toolsTmp is removed by TestMain; t.TempDir cannot hold a build shared by all tests.
	toolsTmp string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if toolsTmp != "" {
		_ = os.RemoveAll(toolsTmp)
	}
	os.Exit(code)
}

// setupTools builds the provider on first use, so that the mechanics tests, which need no
// CLI, do not pay for the build.
func setupTools(t *testing.T) tools {
	t.Helper()
	toolsOnce.Do(func() { toolsVal, toolsErr = buildTools() })
	if toolsErr != nil {
		t.Fatal(toolsErr)
	}
	return toolsVal
}

func buildTools() (tools, error) {
	root, err := clitest.RepoRoot()
	if err != nil {
		return tools{}, err
	}
	cli, err := findCLI(root, os.Getenv("CHAOS_TF"))
	if err != nil {
		return tools{}, err
	}
	dir, err := os.MkdirTemp("", "apm-chaos-provider-")
	if err != nil {
		return tools{}, err
	}
	toolsTmp = dir
	start := time.Now()
	build := exec.Command("go", "build", "-o", filepath.Join(dir, "terraform-provider-apm"), ".")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		return tools{}, fmt.Errorf("building the provider: %v\n%s", err, out)
	}
	fmt.Printf("chaos: provider built in %.1fs; CLI %s\n", time.Since(start).Seconds(), cli)
	return tools{cli: cli, providerDir: dir}, nil
}

// findCLI is the CLI to run: override (CHAOS_TF) when set, else the OpenTofu that `make
// tools` links into .clis/. A relative override is taken from the repository root, where
// make runs, since go test runs the test in the package's directory. A missing CLI fails
// rather than skips: `make chaos` exists to prove something on a real CLI.
func findCLI(root, override string) (string, error) {
	cli := filepath.Join(root, ".clis", "tofu")
	if override != "" {
		cli = override
	}
	if !filepath.IsAbs(cli) {
		cli = filepath.Join(root, cli)
	}
	info, err := os.Stat(cli)
	if err != nil || info.IsDir() || info.Mode()&0o111 == 0 {
		return "", fmt.Errorf("no executable CLI at %s (run `make tools`, or set CHAOS_TF to a Terraform or OpenTofu binary)", cli)
	}
	return cli, nil
}
