package provider

import (
	"archive/tar"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	tfjson "github.com/hashicorp/terraform-json"

	"github.com/apmplatform/terraform-provider-apm/internal/clitest"
)

// earlierWorkersBuild is the last commit whose apm_web_workers kept workers as a list of
// objects (afa5cc6 made it a map): its provider writes the state that schema version 1
// upgrades.
const earlierWorkersBuild = "afa5cc6^"

// A state written by the build whose workers were a list plans nothing with this build
// once the configuration is written as a map, as a team upgrading the provider does:
// the upgrade keeps every worker, and the next apply and refresh-only plan are empty. The
// earlier build is built from the repository's history, and both builds run as the
// CLI's own provider processes.
func TestAccWebWorkers_stateOfTheListBuild(t *testing.T) {
	cli, _ := accCLI(t)
	t.Parallel()
	src := earlierSources(t, earlierWorkersBuild)
	env := newAccEnv(t)
	dir := t.TempDir()
	earlier, current := buildProviderFrom(t, src, t.TempDir()), buildProviderForCLI(t, t.TempDir())
	// run runs the CLI with the provider build that rc names; its output, which may hold
	// the key, is shown redacted.
	run := func(rc string, args ...string) (string, int) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), cliTimeout)
		defer cancel()
		cmd := exec.CommandContext(ctx, cli, args...)
		cmd.Dir = dir
		cmd.Env = clitest.ChildEnv(os.Environ(), "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1", "TF_CLI_CONFIG_FILE="+rc)
		return runToEnd(ctx, t, cmd)
	}

	clitest.MustWrite(t, filepath.Join(dir, "main.tf"), env.config(tf(t, "web_workers/upgrade.tf", "workers", hclExpr(`[
    { was_server_id = apm_was_server.a.id },
    { was_server_id = apm_was_server.b.id, lb_factor = 3 },
  ]`))))
	if out, code := run(earlier, "apply", "-auto-approve", "-no-color", "-input=false"); code != 0 {
		t.Fatalf("apply with the earlier build exited %d:\n%s", code, redact(out, env.sim.AdminKey))
	}
	clitest.MustWrite(t, filepath.Join(dir, "main.tf"), env.config(tf(t, "web_workers/upgrade.tf", "workers", hclExpr(`{
    (apm_was_server.a.id) = {}
    (apm_was_server.b.id) = { lb_factor = 3 }
  }`))))
	// The plan upgrades the state and finds nothing to do; the apply writes the upgraded
	// state (`state show` reads the stored state without upgrading it), and changes nothing.
	for _, args := range [][]string{{"plan", "-detailed-exitcode"}, {"apply", "-auto-approve"}, {"plan", "-detailed-exitcode"}, {"plan", "-refresh-only", "-out=refresh.tfplan"}} {
		out, code := run(current, append(args, "-no-color", "-input=false")...)
		if code != 0 || args[0] == "apply" && !strings.Contains(out, "0 added, 0 changed, 0 destroyed") {
			t.Fatalf("%s with this build over the earlier build's state exited %d, want 0 and nothing done:\n%s", strings.Join(args, " "), code, redact(out, env.sim.AdminKey))
		}
	}
	// Terraform 1.11 exits 2 from `plan -refresh-only -detailed-exitcode` here although its
	// plan holds no drift and no change (the other CLIs exit 0): the plan's JSON is what
	// counts.
	planJSON, code := run(current, "show", "-json", "refresh.tfplan")
	var refresh tfjson.Plan
	if err := json.Unmarshal([]byte(planJSON), &refresh); code != 0 || err != nil {
		t.Fatalf("show -json of the refresh-only plan (exit %d): %v", code, err)
	}
	if len(refresh.ResourceDrift) > 0 {
		t.Errorf("the refresh-only plan after the upgrade finds drift in %s", refresh.ResourceDrift[0].Address)
	}
	out, code := run(current, "state", "show", "-no-color", "apm_web_workers.front")
	if code != 0 || !regexp.MustCompile(`"SYS-0001/app-01/was-2" = \{[^}]*lb_factor\s*=\s*3`).MatchString(out) {
		t.Errorf("the upgraded state of the workers (exit %d) is not the map with both workers:\n%s", code, redact(out, env.sim.AdminKey))
	}
}

// earlierSources extracts the provider's sources at commit from the repository's
// history into a new directory.
func earlierSources(t *testing.T, commit string) string {
	t.Helper()
	root, err := clitest.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	archive := exec.Command("git", "archive", "--format=tar", commit)
	archive.Dir = root
	var tarball, stderr bytes.Buffer
	archive.Stdout, archive.Stderr = &tarball, &stderr
	if err := archive.Run(); err != nil {
		// The CI clone holds the whole history; a shallow clone or an unpacked archive does not.
		t.Skipf("the repository's history lacks %s, whose build writes the state under test (%v: %s); a full clone has it", commit, err, strings.TrimSpace(stderr.String()))
	}
	dir := t.TempDir()
	if err := untar(&tarball, dir); err != nil {
		t.Fatalf("extracting %s: %v", commit, err)
	}
	return dir
}

func untar(r io.Reader, dir string) error {
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		path := filepath.Join(dir, filepath.FromSlash(h.Name))
		if !strings.HasPrefix(path, filepath.Clean(dir)+string(os.PathSeparator)) {
			return fmt.Errorf("%s leaves the directory", h.Name)
		}
		switch h.Typeflag {
		case tar.TypeDir:
			err = os.MkdirAll(path, 0o755)
		case tar.TypeReg:
			var b bytes.Buffer
			if _, err = io.Copy(&b, tr); err == nil {
				err = os.WriteFile(path, b.Bytes(), os.FileMode(h.Mode)&0o755|0o600)
			}
		}
		if err != nil {
			return err
		}
	}
}
