//go:build bench

package bench

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/apmplatform/terraform-provider-apm/internal/apmsim/apmsimtest"

	"github.com/apmplatform/terraform-provider-apm/internal/clitest"
)

// A workspace is a directory with a configuration, its state, a CLI configuration and one
// log per CLI run, plus the environment the CLI runs with. The environment is a user's at a
// terminal: no TF_LOG, so the provider logs as it does for users, and nothing of the
// developer's TF_* or APM_* settings.

// runTimeout bounds one CLI run, so that a hung run fails the benchmark instead of running
// forever (go test runs without a time limit). It is generous: Terraform 1.11's apply time
// grows with the square of the resources, about 80 s for 2,000 on two cores, so 10,000 take
// half an hour or more.
const runTimeout = 2 * time.Hour

type workspace struct {
	name string // the flavour, for messages
	cli  string
	dir  string
	env  []string
	key  string // the API key, to keep it out of everything printed; "" for terraform_data
	runs int    // CLI runs so far, numbering the logs
}

// newWorkspace writes the fleet's configuration in flavour fl. sim is the manager of an apm
// workspace, nil for terraform_data: that one needs neither endpoint nor key.
func newWorkspace(t *testing.T, tl tools, f fleet, fl flavour, sim *apmsimtest.Server) *workspace {
	t.Helper()
	dir := t.TempDir()
	cliConfig := filepath.Join(dir, "cli.tfrc")
	clitest.MustWrite(t, filepath.Join(dir, "main.tf"), f.config(fl))
	clitest.MustWrite(t, cliConfig, clitest.DevOverrides(tl.overrides))
	w := &workspace{name: fl.name, cli: tl.cli, dir: dir}
	set := []string{"CHECKPOINT_DISABLE=1", "TF_CLI_CONFIG_FILE=" + cliConfig}
	if sim != nil {
		w.key = sim.AdminKey
		set = append(set, "APM_ENDPOINT="+sim.URL, "APM_API_KEY="+sim.AdminKey)
	}
	w.env = clitest.ChildEnv(os.Environ(), set...)
	return w
}

// run runs op's command to its end and returns its wall time, from start to exit. A run
// that fails or does not say what op expects stops the benchmark.
func (w *workspace) run(t *testing.T, op operation) time.Duration {
	t.Helper()
	w.runs++
	logPath := filepath.Join(w.dir, fmt.Sprintf("%02d-%s.log", w.runs, op.args[0]))
	logFile, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), runTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, w.cli, op.args...)
	cmd.Dir, cmd.Env = w.dir, w.env
	cmd.Stdout, cmd.Stderr = logFile, logFile
	start := time.Now()
	err = cmd.Run()
	wall := time.Since(start)
	_ = logFile.Close()
	out, readErr := os.ReadFile(logPath)
	if readErr != nil {
		t.Fatal(readErr)
	}
	if w.key != "" && bytes.Contains(out, []byte(w.key)) {
		t.Fatalf("the output of %s %s contains the API key", w.name, op.name)
	}
	if err == nil && !bytes.Contains(out, []byte(op.expect)) {
		err = fmt.Errorf("the output lacks %q", op.expect)
	}
	if err != nil {
		t.Fatalf("%s %s: %v; output ends:\n%s", w.name, op.name, err, tail(redact(string(out), w.key), 20))
	}
	return wall
}

// redact replaces key in s; an empty key (there is none to hide) leaves s alone.
func redact(s, key string) string {
	if key == "" {
		return s
	}
	return strings.ReplaceAll(s, key, "<redacted>")
}

// tail is the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
