package provider

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/apmplatform/terraform-provider-apm/internal/clifeatures"
	"github.com/apmplatform/terraform-provider-apm/internal/clitest"
	"github.com/apmplatform/terraform-provider-apm/internal/docsnippets"
)

// The HCL blocks of the prose docs and their marks are those of internal/docsnippets;
// internal/repocheck parses every one, and the test here runs the complete ones on a CLI.

// The complete configurations pass `validate` on the CLI with the provider built from this
// tree, and those that can apply apply against this test's apmsim, plan nothing more, and
// are destroyed. Write-only attributes and ephemeral variables in the docs need Terraform
// 1.11 or OpenTofu: older CLIs skip, saying so.
func TestAccDocs_hclSnippets(t *testing.T) {
	// The docs use write-only attributes and ephemeral variables.
	cli, v := needs(t, clifeatures.WriteOnly)
	snippets, err := docsnippets.Find(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	var complete []docsnippets.Snippet
	for _, s := range snippets {
		if s.Mode == "" || s.Mode == "no-apply" || (s.Mode == "needs" && hasNamedFeature(v, s.Reason)) {
			complete = append(complete, s)
		}
	}
	if len(complete) == 0 {
		t.Fatal("no complete configuration in the docs")
	}
	validateSnippets(t, cli, complete)
	for _, s := range complete {
		if s.Mode != "" {
			continue
		}
		t.Run(s.Where, func(t *testing.T) {
			env := newAccEnv(t)
			env.needsSim("applies the docs' configurations with their literal names on an empty manager")
			runWriteOnlyAcc(t, env.checkAllGone, []resource.TestStep{{
				Config:           env.config(withoutProviderSettings(t, s)),
				ConfigPlanChecks: applied(),
			}})
		})
	}
}

// validateSnippets runs `validate` on each configuration in a directory of its own, with
// the provider built from this tree under both addresses a configuration can name
// (dev_overrides: no init, no registry).
func validateSnippets(t *testing.T, cli string, snippets []docsnippets.Snippet) {
	t.Helper()
	dir := t.TempDir()
	rc := buildProviderForCLI(t, dir)
	for i, s := range snippets {
		work := filepath.Join(dir, fmt.Sprint(i))
		if err := os.MkdirAll(work, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(work, "main.tf"), []byte(s.Text), 0o600); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(cli, "validate", "-no-color") //nolint:gosec // the test's own CLI
		cmd.Dir = work
		cmd.Env = clitest.ChildEnv(os.Environ(), "TF_CLI_CONFIG_FILE="+rc, "CHECKPOINT_DISABLE=1")
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			t.Errorf("%s: validate failed (%v); mark it <!-- hcl: fragment --> if it is part of a configuration:\n%s", s.Where, err, out.String())
		}
	}
}

// withoutProviderSettings is a configuration without its terraform block and its apm
// provider blocks, which the harness supplies (its provider address and this test's
// manager).
func withoutProviderSettings(t *testing.T, s docsnippets.Snippet) string {
	t.Helper()
	f, diags := hclwrite.ParseConfig([]byte(s.Text), s.Where, hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatalf("%s: %v", s.Where, diags)
	}
	for _, b := range f.Body().Blocks() {
		labels := b.Labels()
		if b.Type() == "terraform" || (b.Type() == "provider" && len(labels) == 1 && labels[0] == "apm") {
			f.Body().RemoveBlock(b)
		}
	}
	return string(f.Bytes())
}

// hasNamedFeature says whether the CLI of version has the feature that mark names.
func hasNamedFeature(version, mark string) bool {
	f, ok := clifeatures.Named(mark)
	return ok && f.Has(version)
}
