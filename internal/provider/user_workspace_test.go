package provider

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apmplatform/terraform-provider-apm/internal/clitest"
)

// A userWorkspace is a directory where the acceptance tests' CLI runs as a user's does
// after `make install`: HOME is a fresh directory whose ~/.terraform.d/plugins
// scripts/install-provider.sh filled (the script `make install` runs), and nothing else
// tells the CLI where the provider is: no CLI configuration, no dev_overrides, no provider
// reattached to the test process. So `init` must find the provider on its own, offline.
type userWorkspace struct {
	t       *testing.T
	cli     string
	dir     string
	plugins string   // HOME/.terraform.d/plugins
	env     []string // the CLI's environment
	secrets []string // values no output may hold, such as API keys
}

// installTimeout bounds scripts/install-provider.sh, a go build of the provider: minutes on
// two busy cores with a cold build cache, seconds with a warm one.
const installTimeout = 10 * cliTimeout

// newUserWorkspace installs the provider into a fresh HOME with scripts/install-provider.sh
// and returns an empty workspace whose CLI runs with that HOME and the variables set (such
// as TF_VAR_api_key=...); secrets are values of set that no output may hold.
func newUserWorkspace(t *testing.T, cli string, secrets []string, set ...string) *userWorkspace {
	t.Helper()
	root, err := clitest.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	plugins := filepath.Join(home, ".terraform.d", "plugins")
	ctx, cancel := context.WithTimeout(context.Background(), installTimeout)
	defer cancel()
	install := exec.CommandContext(ctx, filepath.Join(root, "scripts", "install-provider.sh"), plugins)
	install.Dir = root
	if out, status := runToEnd(ctx, t, install); status != 0 {
		t.Fatalf("scripts/install-provider.sh failed (exit status %d):\n%s", status, out)
	}
	// XDG_DATA_HOME names another implied mirror of both CLIs: inside HOME, so that a
	// provider installed on the machine running the test cannot stand in for this one.
	base := append([]string{"HOME=" + home, "XDG_DATA_HOME=" + filepath.Join(home, ".local", "share"),
		"CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1"}, set...)
	return &userWorkspace{t: t, cli: cli, dir: t.TempDir(), plugins: plugins,
		env: clitest.ChildEnv(os.Environ(), base...), secrets: secrets}
}

// write writes a file of the workspace, making its directory.
func (w *userWorkspace) write(name, content string) {
	w.t.Helper()
	path := filepath.Join(w.dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		w.t.Fatal(err)
	}
	clitest.MustWrite(w.t, path, content)
}

// run runs the CLI with args in the workspace and returns its output and exit status. An
// output that holds a secret fails the test.
func (w *userWorkspace) run(args ...string) (string, int) {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), cliTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, w.cli, args...)
	cmd.Dir, cmd.Env = w.dir, w.env
	out, status := runToEnd(ctx, w.t, cmd)
	for _, s := range w.secrets {
		if strings.Contains(out, s) {
			w.t.Fatalf("the output of %s holds a secret", strings.Join(args, " "))
		}
	}
	return out, status
}

// must runs the CLI and fails the test unless it exits 0 and its output holds want.
func (w *userWorkspace) must(want string, args ...string) string {
	w.t.Helper()
	out, status := w.run(args...)
	if status != 0 || !strings.Contains(out, want) {
		w.t.Fatalf("%s: exit status %d, want 0 and an output that says %q:\n%s", strings.Join(args, " "), status, want, out)
	}
	return out
}
