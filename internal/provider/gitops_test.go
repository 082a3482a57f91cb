package provider

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/clifeatures"
	"github.com/apmplatform/terraform-provider-apm/internal/clitest"
)

// The exit statuses of cmd/drift-check (docs/guides/gitops.md).
const (
	driftNone   = 0
	driftError  = 1
	driftFound  = 2
	driftHealth = 3
)

// gitopsRun is one command of the GitOps test: its combined output and exit status.
type gitopsRun struct {
	out    string
	status int
}

// gitopsWorkspace is a directory with the configuration of the drift test, the locally
// built provider (through dev_overrides, as a user's CI would run a released one) and the
// connection settings in the environment, as the guide tells users to give them.
type gitopsWorkspace struct {
	t          *testing.T
	dir        string
	root       string   // the repository
	driftCheck string   // cmd/drift-check, built
	env        []string // without the API key, which each run adds
}

// run runs name (the CLI or a script) in the workspace with key as APM_API_KEY.
func (w *gitopsWorkspace) run(key, name string, args ...string) gitopsRun {
	w.t.Helper()
	return w.runWith([]string{"APM_API_KEY=" + key}, name, args...)
}

// runWith runs name in the workspace with the variables env added to its environment.
func (w *gitopsWorkspace) runWith(env []string, name string, args ...string) gitopsRun {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), cliTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = w.dir
	cmd.Env = append(slices.Clone(w.env), env...)
	out, status := runToEnd(ctx, w.t, cmd)
	return gitopsRun{out: out, status: status}
}

// check runs the guide's drift-check with a read-only key, as the nightly job does.
func (w *gitopsWorkspace) check(key string, args ...string) gitopsRun {
	w.t.Helper()
	return w.run(key, w.driftCheck, args...)
}

// newGitopsWorkspace builds the provider and cmd/drift-check and writes the configuration: examples/checks (the
// health checks of the guide "Health checks in the plan review") and testdata/gitops/shop.tf.
func newGitopsWorkspace(t *testing.T, cli, endpoint string) *gitopsWorkspace {
	t.Helper()
	root, err := clitest.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	providerDir, toolDir := t.TempDir(), t.TempDir()
	for pkg, out := range map[string]string{".": filepath.Join(providerDir, "terraform-provider-apm"), "./cmd/drift-check": filepath.Join(toolDir, "drift-check")} {
		build := exec.Command("go", "build", "-o", out, pkg)
		build.Dir = root
		if msg, err := build.CombinedOutput(); err != nil {
			t.Fatalf("building %s: %v\n%s", pkg, err, msg)
		}
	}
	// The examples name the provider apmplatform/apm, which each CLI looks up on its own registry.
	rc := filepath.Join(t.TempDir(), "cli.tfrc")
	clitest.MustWrite(t, rc, `provider_installation {
  dev_overrides {
    "registry.terraform.io/apmplatform/apm" = "`+providerDir+`"
    "registry.opentofu.org/apmplatform/apm" = "`+providerDir+`"
  }
  direct {}
}
`)
	w := &gitopsWorkspace{t: t, root: root, driftCheck: filepath.Join(toolDir, "drift-check"), env: clitest.ChildEnv(os.Environ(),
		"CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1", "TF_CLI_CONFIG_FILE="+rc, "APM_ENDPOINT="+endpoint, "DRIFT_CHECK_CLI="+cli)}
	examples, err := filepath.Glob(filepath.Join(root, "examples", "checks", "*.tf"))
	if err != nil || len(examples) == 0 {
		t.Fatalf("no .tf files in examples/checks: %v", err)
	}
	files := map[string]string{}
	for _, f := range append(examples, filepath.Join("testdata", "gitops/shop.tf")) {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		files[filepath.Base(f)] = string(src)
	}
	return w.another(t, files)
}

// another is a workspace of test t with the same provider and environment and these files
// (name to content) in a directory of its own.
func (w *gitopsWorkspace) another(t *testing.T, files map[string]string) *gitopsWorkspace {
	t.Helper()
	other := *w
	other.t, other.dir = t, t.TempDir()
	for name, content := range files {
		clitest.MustWrite(t, filepath.Join(other.dir, name), content)
	}
	return &other
}

// The nightly drift job of docs/guides/gitops.md on a real CLI: cmd/drift-check exits
// 0 after a clean apply, 3 (and names the check) when only a health check fails, and 2 (and
// names the resource and the attribute) when a server was stopped outside Terraform, all
// with a read-only key, whatever the CLI's own -detailed-exitcode says. Along the way: the
// saved plan of the pull-request job holds no API key, and an apply with the read-only key
// fails naming the resource and saying that the key is read-only.
func TestAccGitOps_driftCheck(t *testing.T) {
	cli, version := accCLI(t)
	env := newAccEnv(t)
	env.needsSim("uses apmsim's read-only viewer key")
	t.Parallel()
	w := newGitopsWorkspace(t, cli, env.sim.URL)
	admin, viewer := env.sim.AdminKey, env.sim.ViewerKey
	// apmsim's first node has a license that expires in 20 days, and the disk usage of a node
	// comes and goes: with these thresholds every check passes.
	healthy := []string{"-var", "license_warning_days=10", "-var", "disk_limit_percent=100"}

	exitCodes := func(when string) {
		plan := w.run(viewer, cli, append([]string{"plan", "-input=false", "-no-color", "-detailed-exitcode"}, healthy...)...)
		refresh := w.run(viewer, cli, append([]string{"plan", "-input=false", "-no-color", "-detailed-exitcode", "-refresh-only"}, healthy...)...)
		t.Logf("%s, %s: plan -detailed-exitcode exits %d, plan -refresh-only -detailed-exitcode exits %d", version, when, plan.status, refresh.status)
	}
	expect := func(when string, r gitopsRun, status int, fragments ...string) {
		t.Helper()
		t.Logf("%s, %s: drift-check exits %d", version, when, r.status)
		if r.status != status {
			t.Errorf("%s: drift-check exited %d, want %d:\n%s", when, r.status, status, r.out)
			return
		}
		if !errorMatching(fragments...).MatchString(r.out) {
			t.Errorf("%s: the report lacks %q:\n%s", when, fragments, r.out)
		}
		if strings.Contains(r.out, admin) || strings.Contains(r.out, viewer) {
			t.Errorf("%s: the report shows an API key", when)
		}
	}

	// The pull-request job: a plan saved with the read-only key, which the plan file does not
	// keep, and the summary of what it changes.
	if r := w.run(viewer, cli, append([]string{"plan", "-input=false", "-no-color", "-out=pr.tfplan"}, healthy...)...); r.status != 0 {
		t.Fatalf("plan failed:\n%s", r.out)
	}
	if planFileHolds(t, filepath.Join(w.dir, "pr.tfplan"), viewer) {
		t.Error("the saved plan holds the API key given in APM_API_KEY")
	}
	expect("the pull request's plan", w.check(viewer, "--plan", "pr.tfplan"), driftFound, "Apply would change",
		"apm_node.app\n to be created", "apm_system.shop\n to be created", "apm_was_server.app\n to be created",
		"drift-check: the plan changes the manager")
	// The merge job: the reviewed plan, applied with the key that may write.
	if r := w.run(admin, cli, "apply", "-input=false", "-no-color", "pr.tfplan"); r.status != 0 {
		t.Fatalf("apply failed:\n%s", r.out)
	}

	exitCodes("after a clean apply")
	expect("after a clean apply", w.check(viewer, healthy...), driftNone, "drift-check: no drift, every check passes")
	expect("with a license expiring within 30 days", w.check(viewer), driftHealth,
		"Failing checks:", "check.licenses_valid_for_30_days", "Licenses expiring within 30 days: app-01 (Standard, 20 days).",
		"drift-check: no drift, but a health check fails")

	was := apm.ServerRef{Kind: apm.KindWAS, ServerID: "was-1", NodeName: "app-01", SystemName: "shop"}
	env.must(env.admin.StopServer(env.ctx(), was, true))
	exitCodes("with a server stopped outside Terraform")
	stopped := w.check(viewer, healthy...)
	expect("with a server stopped outside Terraform", stopped, driftFound,
		"Changed outside Terraform", "apm_was_server.app", `state: "running" -> "stopped"`,
		"Apply would change", "apm_was_server.app (update)", `state: "stopped" -> "running"`,
		"Failing checks:", "check.was_servers_running", "WAS servers not running: shop/app-01/was-1 (stopped).",
		"drift-check: DRIFT")
	if strings.Contains(stopped.out, "apm_node.app") || strings.Contains(stopped.out, "apm_system.shop") {
		t.Errorf("the report names resources that did not drift:\n%s", stopped.out)
	}

	// The repair needs a key that may write; the read-only one is refused, naming the resource.
	refused := w.run(viewer, cli, append([]string{"apply", "-input=false", "-no-color", "-auto-approve"}, healthy...)...)
	if refused.status == 0 || !errorMatching(`Failed to update WAS server "was-1"`, "with apm_was_server.app", "403 FORBIDDEN",
		"The API key is read-only", "APM_API_KEY").MatchString(refused.out) {
		t.Errorf("apply with the read-only key: exit %d, want a failure naming apm_was_server.app and the read-only key:\n%s", refused.status, refused.out)
	}
	if r := w.run(admin, cli, append([]string{"apply", "-input=false", "-no-color", "-auto-approve"}, healthy...)...); r.status != 0 {
		t.Fatalf("the repair failed:\n%s", r.out)
	}
	expect("after the repair", w.check(viewer, healthy...), driftNone, "drift-check: no drift")

	// The guide's way to give the key from Terraform keeps it out of the saved plan; the
	// sensitive variable it warns against does not.
	t.Run("key variable", func(t *testing.T) {
		if why := clifeatures.EphemeralVars.Missing(version); why != "" {
			t.Skip(why)
		}
		ephemeral := guideKeyVariable(t, w.root)
		for _, tc := range []struct {
			name, config string
			holds        bool
		}{
			{"ephemeral", ephemeral, false},
			{"sensitive", strings.Replace(ephemeral, "ephemeral = true", "sensitive = true", 1), true},
		} {
			v := w.another(t, map[string]string{"main.tf": tc.config})
			if r := v.runWith([]string{"TF_VAR_apm_api_key=" + viewer}, cli, "plan", "-input=false", "-no-color", "-out=key.tfplan"); r.status != 0 {
				t.Fatalf("plan with the key in a %s variable failed:\n%s", tc.name, r.out)
			}
			if got := planFileHolds(t, filepath.Join(v.dir, "key.tfplan"), viewer); got != tc.holds {
				t.Errorf("a key in a %s variable: the saved plan holds it: %t, want %t", tc.name, got, tc.holds)
			}
		}
	})

	// A manager that cannot be reached is an error, not "no drift".
	down := *w
	down.env = append(slices.Clone(w.env), "APM_ENDPOINT="+closedEndpoint(t))
	expect("with the manager unreachable", down.check(viewer, healthy...), driftError, "nothing accepts connections", "plan failed")
}

// planFileHolds reports whether any file inside a saved plan contains secret.
func planFileHolds(t *testing.T, path, secret string) bool {
	t.Helper()
	return bytes.Contains(clitest.SavedPlan(t, path), []byte(secret))
}

// guideKeyVariable is the configuration of docs/guides/gitops.md that passes the API key
// through an ephemeral variable.
func guideKeyVariable(t *testing.T, root string) string {
	t.Helper()
	guide, err := os.ReadFile(filepath.Join(root, "templates", "guides", "gitops.md.tmpl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, block := range strings.Split(string(guide), "```terraform\n")[1:] {
		block, _, _ = strings.Cut(block, "```")
		if strings.Contains(block, "ephemeral = true") {
			return block
		}
	}
	t.Fatal("the guide has no configuration with an ephemeral variable")
	return ""
}
