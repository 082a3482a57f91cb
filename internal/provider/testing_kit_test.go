package provider

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/clifeatures"
	"github.com/apmplatform/terraform-provider-apm/internal/clitest"
)

// The module test kit (examples/testing, docs/guides/testing-modules.md) as a team's CI runs
// it: the provider installed by `make install`, then `init` and `terraform test` of one test
// file in a copy of the kit. Each file runs on every CLI that has what it needs, and skips,
// naming the feature and the version that has it, on the others (`terraform test` is not in
// Terraform 1.5).

// Its runs against a manager: apmsim.
func TestAccTestingKit_apmsim(t *testing.T) {
	cli, _ := needs(t, clifeatures.TestCommand)
	env := newAccEnv(t)
	env.needsSim("runs examples/testing's tests, which name their system kit-shop")
	w := newUserWorkspace(t, cli, []string{env.sim.AdminKey}, "APM_ENDPOINT="+env.sim.URL, "APM_API_KEY="+env.sim.AdminKey)
	w.testKit("tests/apmsim.tftest.hcl")
	// terraform test destroys what its runs created.
	if _, err := env.admin.GetSystem(env.ctx(), "kit-shop"); !apm.IsNotFound(err) {
		t.Errorf("after terraform test, the system kit-shop is still there (err %v)", err)
	}
}

// Its runs against a mock of the provider: no manager and no connection settings at all.
func TestAccTestingKit_mock(t *testing.T) {
	cli, _ := needs(t, clifeatures.TestCommand, clifeatures.MockProviders)
	newUserWorkspace(t, cli, nil).testKit("tests/mock.tftest.hcl")
}

// runBlock is the start of a run block of a test file.
var runBlock = regexp.MustCompile(`(?m)^run "`)

// testKit copies examples/testing into the workspace, runs `init` and then `test` of the
// file (a path inside the kit), and fails unless every run block of the file passed.
func (w *userWorkspace) testKit(file string) {
	w.t.Helper()
	root, err := clitest.RepoRoot()
	if err != nil {
		w.t.Fatal(err)
	}
	kit := filepath.Join(root, "examples", "testing")
	if err := os.CopyFS(w.dir, os.DirFS(kit)); err != nil {
		w.t.Fatalf("copying examples/testing: %v", err)
	}
	src, err := os.ReadFile(filepath.Join(kit, filepath.FromSlash(file)))
	if err != nil {
		w.t.Fatal(err)
	}
	runs := len(runBlock.FindAllIndex(src, -1))
	if runs == 0 {
		w.t.Fatalf("examples/testing/%s has no run block", file)
	}
	w.must("initialized", "init", "-input=false", "-no-color")
	// The summary line of both CLIs; fewer passed runs than the file has means some were
	// skipped or failed.
	w.must(fmt.Sprintf("Success! %d passed, 0 failed.", runs), "test", "-no-color", "-filter="+file)
}
