//go:build chaos

package chaos

import (
	"github.com/apmplatform/terraform-provider-apm/internal/clitest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The docs tell users to pass the API key from Terraform only through an ephemeral
// variable, because a merely sensitive one is written into saved plan files. This holds
// them to it on the real CLI: with an ephemeral variable the key is in neither the saved
// plan nor the state; with a sensitive one it is in the plan, which is why the docs warn.

func keyConfig(variableKind string) string {
	return `terraform {
  required_providers {
    apm = {
      source = "hashicorp/apm"
    }
  }
}

variable "apm_api_key" {
  type = string
  ` + variableKind + ` = true
}

provider "apm" {
  api_key = var.apm_api_key
}

resource "apm_system" "s" {
  name = "keys-` + variableKind + `"
}
`
}

func TestKeyFromVariable(t *testing.T) {
	tl := setupTools(t)
	version, err := clitest.Version(tl.cli)
	if err != nil {
		t.Fatal(err)
	}
	if old := oldTerraform.FindString(version); old != "" {
		t.Skipf("%s has no ephemeral variables (Terraform 1.10 and OpenTofu 1.11 have them)", old)
	}
	sim := startSim(t)
	for _, c := range []struct {
		kind      string
		keyInPlan bool
	}{{"ephemeral", false}, {"sensitive", true}} {
		t.Run(c.kind, func(t *testing.T) {
			w := newWorkspace(t, tl, sim, keyConfig(c.kind))
			// The key comes from the variable only.
			w.env = append(slices.DeleteFunc(w.env, func(kv string) bool { return strings.HasPrefix(kv, "APM_API_KEY=") }),
				"TF_VAR_apm_api_key="+sim.srv.AdminKey)
			if r := w.run(nil, "plan", "-input=false", "-no-color", "-out=saved.tfplan"); r.exit != 0 {
				t.Fatalf("plan exited %d:\n%s", r.exit, tail(r.output, 15))
			}
			plan := clitest.SavedPlan(t, filepath.Join(w.dir, "saved.tfplan"))
			if inPlan := strings.Contains(string(plan), sim.srv.AdminKey); inPlan != c.keyInPlan {
				t.Errorf("%s variable: key in the saved plan = %v, want %v", c.kind, inPlan, c.keyInPlan)
			}
			if r := w.run(nil, "apply", "-input=false", "-no-color", "-auto-approve"); r.exit != 0 {
				t.Fatalf("apply exited %d:\n%s", r.exit, tail(r.output, 15))
			}
			state, err := os.ReadFile(w.statePath())
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(state), sim.srv.AdminKey) {
				t.Errorf("%s variable: the key is in the state", c.kind)
			}
			if r := w.run(nil, "destroy", "-input=false", "-no-color", "-auto-approve"); r.exit != 0 {
				t.Fatalf("destroy exited %d:\n%s", r.exit, tail(r.output, 15))
			}
		})
	}
}

// oldTerraform matches the version line of a Terraform older than 1.10.
var oldTerraform = regexp.MustCompile(`^Terraform v1\.[0-9]\.[0-9]+`)
