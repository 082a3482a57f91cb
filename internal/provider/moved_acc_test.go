package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	tfjson "github.com/hashicorp/terraform-json"

	"github.com/apmplatform/terraform-provider-apm/internal/clifeatures"
	"github.com/apmplatform/terraform-provider-apm/internal/clitest"
)

// The guide "Migrating from the generic REST providers" on a real CLI, with the real
// restapi and restful providers (scripts/install-rest-providers.sh builds them): a team
// creates one object of each type with restapi_object (or restful_resource), then
// replaces its configuration with apm resources and a moved block for each. The plan
// moves every object and creates, deletes and replaces none; its only updates record a
// password (the source's state held it in its body, which a move does not carry over:
// see engine/move_state.go). The apply sends the manager nothing, and the next plan is
// empty.

// migratePassword is the databases' and users' password, valid for both.
const migratePassword = "S3cret!pass"

// secretAttrs are the attributes that a moved object's first apply only records, by type.
var secretAttrs = map[string][]string{"apm_database": {"password"}, "apm_user": {"password"}}

func TestAccMigrateFromRESTProviders_restapi(t *testing.T) {
	testMigrationFrom(t, restMigration{"restapi_object", "migrate/restapi.tf", "migrate/apm_from_restapi.tf"}, clifeatures.MovedAcrossTypes)
}

func TestAccMigrateFromRESTProviders_restful(t *testing.T) {
	testMigrationFrom(t, restMigration{"restful_resource", "migrate/restful.tf", "migrate/apm_from_restful.tf"},
		clifeatures.MovedAcrossTypes, clifeatures.MovedFromIdentity)
}

// restMigration is a migration from one REST provider's resource type: the configuration
// that creates its objects, and the one that moves them to apm resources.
type restMigration struct{ source, before, after string }

// testMigrationFrom runs the migration m on a CLI that has the features.
func testMigrationFrom(t *testing.T, m restMigration, features ...clifeatures.Feature) {
	cli, _ := needs(t, features...)
	env := newAccEnv(t)
	env.needsSim("reaches the manager with the REST providers over plain HTTP and counts the requests it receives")
	t.Parallel()
	w := newMigration(t, cli)

	w.write(tf(t, m.before, "endpoint", env.sim.URL, "api_key", env.sim.AdminKey, "password", migratePassword))
	w.mustRun("apply", "-input=false", "-auto-approve")

	w.write(env.config(tf(t, m.after, "apm_source", providerAddress("registry.terraform.io"),
		"server_state", stateStopped, "password", migratePassword)))
	// Without the refresh that finishes the moves, the plan would compare the configuration
	// with identities still as the paths wrote them (a system's name for its id).
	if out, code := w.run("plan", "-input=false", "-refresh=false"); code == 0 || !strings.Contains(out, "Plan without -refresh=false") {
		t.Errorf("a plan of the moves with -refresh=false must be refused (exit status %d):\n%s", code, out)
	}
	w.mustRun("plan", "-input=false", "-out=tfplan")
	var plan tfjson.Plan
	if err := json.Unmarshal([]byte(w.mustRun("show", "-json", "tfplan")), &plan); err != nil {
		t.Fatalf("show -json: %v", err)
	}
	checkMovesOnly(t, m.source, plan.ResourceChanges)

	writes := env.writes()
	w.mustRun("apply", "-input=false", "tfplan")
	if n := env.writes() - writes; n != 0 {
		t.Errorf("the apply of the moves sent %d writes to the manager, want none", n)
	}
	if out, code := w.run("plan", "-input=false", "-detailed-exitcode"); code != 0 {
		t.Errorf("the plan after the moves is not empty (exit status %d):\n%s", code, out)
	}
}

// checkMovesOnly checks that every change of the plan moves an object from a resource of
// the source type to an apm resource, one of each of the nine types, and changes nothing
// but the secrets that a move leaves to be recorded.
func checkMovesOnly(t *testing.T, source string, changes []*tfjson.ResourceChange) {
	t.Helper()
	moved := map[string]int{}
	for _, rc := range changes {
		if from, _, _ := strings.Cut(rc.PreviousAddress, "."); from != source {
			t.Errorf("%s: not moved from a %s (previous address %q), actions %v", rc.Address, source, rc.PreviousAddress, rc.Change.Actions)
			continue
		}
		moved[rc.Type]++
		switch {
		case rc.Change.Actions.NoOp():
		case rc.Change.Actions.Update():
			if changed := changedAttrs(rc.Change); len(changed) == 0 || !isSubset(changed, secretAttrs[rc.Type]) {
				t.Errorf("%s (moved from %s) updates %v; a move may only record %v", rc.Address, rc.PreviousAddress, changed, secretAttrs[rc.Type])
			}
		default:
			t.Errorf("%s (moved from %s): actions %v, want a move alone", rc.Address, rc.PreviousAddress, rc.Change.Actions)
		}
	}
	for target := range restMoves {
		if moved[target] != 1 {
			t.Errorf("the plan moves %d %s to %s, want 1", moved[target], source, target)
		}
	}
}

// changedAttrs are the top-level attributes whose planned value differs from the prior one.
func changedAttrs(c *tfjson.Change) []string {
	before, _ := c.Before.(map[string]any)
	after, _ := c.After.(map[string]any)
	var out []string
	for name, v := range after {
		if !reflect.DeepEqual(before[name], v) {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// migration is a working directory whose CLI finds the REST providers through
// dev_overrides and this test's provider through reattach.
type migration struct {
	t   *testing.T
	cli string
	dir string
	rc  string
}

func newMigration(t *testing.T, cli string) *migration {
	t.Helper()
	providers := restProviders(t)
	w := &migration{t: t, cli: cli, dir: t.TempDir(), rc: filepath.Join(t.TempDir(), "cli.tfrc")}
	clitest.MustWrite(t, w.rc, `provider_installation {
  dev_overrides {
    "registry.terraform.io/mastercard/restapi" = "`+providers+`"
    "registry.terraform.io/magodo/restful"     = "`+providers+`"
  }
  direct {}
}
`)
	return w
}

// restProvidersOnce builds the REST providers once per test binary.
var restProvidersOnce = sync.OnceValues(func() (string, error) {
	root, err := clitest.RepoRoot()
	if err != nil {
		return "", err
	}
	cmd := exec.Command(filepath.Join(root, "scripts", "install-rest-providers.sh"))
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("scripts/install-rest-providers.sh: %w\n%s", err, out)
	}
	return filepath.Join(root, ".clis", "rest-providers"), nil
})

// restProviders is the directory of the restapi and restful providers' binaries, built by
// scripts/install-rest-providers.sh (at once when they are in its cache).
func restProviders(t *testing.T) string {
	t.Helper()
	dir, err := restProvidersOnce()
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// write makes content the configuration of the directory.
func (w *migration) write(content string) {
	w.t.Helper()
	clitest.MustWrite(w.t, filepath.Join(w.dir, "main.tf"), content)
}

// run runs the CLI in the directory with no colour, and returns its output (stdout alone
// for show) and its exit status.
func (w *migration) run(args ...string) (string, int) {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), cliTimeout)
	defer cancel()
	reattach, stop := serveProvider(w.t)
	defer stop()
	cmd := exec.CommandContext(ctx, w.cli, append(args[:1:1], append([]string{"-no-color"}, args[1:]...)...)...)
	cmd.Dir = w.dir
	cmd.Env = append(cliEnv(reattach), "TF_CLI_CONFIG_FILE="+w.rc)
	if args[0] != "show" {
		out, code := runToEnd(ctx, w.t, cmd)
		return out, code
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		w.t.Fatalf("%s %s: %v\n%s", w.cli, strings.Join(args, " "), err, stderr.String())
	}
	return string(out), 0
}

// mustRun is run, failing the test when the command fails.
func (w *migration) mustRun(args ...string) string {
	w.t.Helper()
	out, code := w.run(args...)
	if code != 0 {
		w.t.Fatalf("%s %s: exit status %d\n%s", w.cli, strings.Join(args, " "), code, out)
	}
	return out
}
