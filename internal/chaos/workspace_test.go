//go:build chaos

package chaos

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apmplatform/terraform-provider-apm/internal/clitest"
)

// A workspace is a directory with the configuration, the state file, the CLI configuration
// and one log per CLI run, plus the environment the CLI runs with. Nothing of it reaches the
// test process's own environment: tests may run while a developer's TF_* settings are set.

// The CLI arguments of the runs. The parallelism is the CLI's default, spelled out because
// the interruption scenarios count on about ten writes in flight.
var (
	applyArgs   = []string{"apply", "-auto-approve", "-input=false", "-no-color", "-parallelism=10"}
	planArgs    = []string{"plan", "-detailed-exitcode", "-input=false", "-no-color", "-parallelism=10"}
	destroyArgs = []string{"destroy", "-auto-approve", "-input=false", "-no-color", "-parallelism=10"}
)

// envAdoptExisting makes the provider adopt objects that exist already instead of failing
// the create with a 409.
const envAdoptExisting = "APM_ADOPT_EXISTING=true"

type workspace struct {
	t    *testing.T
	cli  string
	dir  string
	env  []string
	key  string // the API key, to keep it out of everything the test prints
	runs int    // CLI runs so far, numbering the logs
}

// newWorkspace writes config and a CLI configuration that points the provider at the
// freshly built binary, for a CLI that talks to sim.
func newWorkspace(t *testing.T, tl tools, sim *simEnv, config string) *workspace {
	t.Helper()
	dir := t.TempDir()
	cliConfig := filepath.Join(dir, "cli.tfrc")
	clitest.MustWrite(t, filepath.Join(dir, "main.tf"), config)
	clitest.MustWrite(t, cliConfig, clitest.DevOverrides(tl.providerDir))
	if keep := os.Getenv("CHAOS_LOGS"); keep != "" {
		t.Cleanup(func() { keepLogs(t, dir, filepath.Join(keep, t.Name()), sim.srv.AdminKey) })
	}
	return &workspace{
		t:   t,
		cli: tl.cli,
		dir: dir,
		env: clitest.ChildEnv(os.Environ(),
			"CHECKPOINT_DISABLE=1",
			"TF_IN_AUTOMATION=1",
			"TF_CLI_CONFIG_FILE="+cliConfig,
			"APM_ENDPOINT="+sim.endpoint,
			"APM_API_KEY="+sim.srv.AdminKey,
			"APM_CA_CERT_PEM="+sim.caPEM),
		key: sim.srv.AdminKey,
	}
}

// keepLogs copies the CLI logs and the state of a workspace to dest (CHAOS_LOGS), to read
// a run in full after the test removed its directory; redacted like everything else.
func keepLogs(t *testing.T, dir, dest, key string) {
	files, _ := filepath.Glob(filepath.Join(dir, "*.log"))
	files = append(files, filepath.Join(dir, "terraform.tfstate"))
	if err := os.MkdirAll(dest, 0o755); err != nil {
		t.Logf("CHAOS_LOGS: %v", err)
		return
	}
	for _, f := range files {
		if data, err := os.ReadFile(f); err == nil {
			_ = os.WriteFile(filepath.Join(dest, filepath.Base(f)), []byte(redact(string(data), key)), 0o600)
		}
	}
}

// start starts the CLI with args and the extra environment settings.
func (w *workspace) start(extraEnv []string, args ...string) *proc {
	w.t.Helper()
	w.runs++
	logPath := filepath.Join(w.dir, fmt.Sprintf("%02d-%s.log", w.runs, args[0]))
	return startProc(w.t, w.dir, logPath, append(slices.Clone(w.env), extraEnv...), w.cli, args...)
}

// run runs the CLI to its end. The output in the result is redacted.
func (w *workspace) run(extraEnv []string, args ...string) procResult {
	w.t.Helper()
	return w.finish(w.start(extraEnv, args...))
}

// finish waits for a started run and redacts its output, so that whatever is logged from it
// cannot carry the API key. The provider must never print it, so finding it fails the test.
func (w *workspace) finish(p *proc) procResult {
	w.t.Helper()
	r := p.wait()
	if w.key != "" && strings.Contains(r.output, w.key) {
		w.t.Errorf("the output of %s contains the API key", filepath.Base(p.logPath))
	}
	r.output = redact(r.output, w.key)
	return r
}

// redact replaces key in s; an empty key (there is none to hide) leaves s alone.
func redact(s, key string) string {
	if key == "" {
		return s
	}
	return strings.ReplaceAll(s, key, "<redacted>")
}

// write writes a file of the workspace, such as the configuration.
func (w *workspace) write(name, content string) {
	w.t.Helper()
	clitest.MustWrite(w.t, filepath.Join(w.dir, name), content)
}

func (w *workspace) statePath() string { return filepath.Join(w.dir, "terraform.tfstate") }
