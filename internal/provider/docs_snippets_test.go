package provider

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/apmplatform/terraform-provider-apm/internal/clifeatures"
	"github.com/apmplatform/terraform-provider-apm/internal/clitest"
)

// HCL in the prose docs. Every fenced block whose info string is terraform, hcl or tf in
// README.md, in templates/ (*.tmpl, the guides' and the front page's sources) and in
// docs/guides/ (a guide written there directly) is extracted and checked; the files are
// found by walking those places, so a new guide is checked without a change here.
//
// An HTML comment among those right before a block's opening fence (invisible once
// rendered; another comment, such as a guide test's <!-- snippet: name -->, may stand
// between it and the fence) says what the block is:
//
//	(none)                          a complete configuration: it parses, `validate` passes on
//	                                the CLI, it applies against an empty apmsim with an empty
//	                                plan afterwards, and it is destroyed
//	<!-- hcl: no-apply REASON -->   a complete configuration that cannot apply against an empty
//	                                apmsim, REASON saying why (it reads files, needs variables
//	                                or objects the manager must already have): parsed and
//	                                validated only
//	<!-- hcl: fragment -->          part of a configuration (it refers to variables or
//	                                resources it does not declare): parsed only
//	<!-- hcl: needs FEATURE -->     a complete configuration that needs a feature of the CLI
//	                                (the first words of its name in cli_features_test.go,
//	                                such as "actions"): validated on a CLI that has it,
//	                                parsed only on the others; never applied
//
// A block that is the text of a file under examples/ (a page's {{ tffile }}) is parsed
// only: its directory is the configuration, which scripts/validate-examples.sh validates
// and the acceptance tests apply.
//
// A complete configuration may have a terraform block with required_providers
// (source = "apmplatform/apm") and a provider "apm" block: the checks point both at the
// provider built from this tree.

// snippet is one fenced HCL block of the docs.
type snippet struct {
	where  string // file:line of its opening fence
	mode   string // "", "no-apply", "fragment", "example" or "needs"
	reason string
	text   string
}

var (
	fence      = regexp.MustCompile("^```(terraform|hcl|tf)\\s*$")
	snippetTag = regexp.MustCompile(`^<!--\s*hcl:\s*(\S+)\s*(.*?)\s*-->\s*$`)
)

// proseDocs is README.md and the Markdown files and templates under dirs (relative to the
// repository), wherever they are: pages added later are read without a change here.
func proseDocs(t *testing.T, dirs ...string) []string {
	t.Helper()
	root := filepath.Join("..", "..")
	files := []string{filepath.Join(root, "README.md")}
	for _, dir := range dirs {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && (strings.HasSuffix(path, ".md") || strings.HasSuffix(path, ".tmpl")) {
				files = append(files, path)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return files
}

// docSnippets is every HCL block of the prose docs, each text once: a guide's template and
// the page generated from it hold the same blocks.
func docSnippets(t *testing.T) []snippet {
	t.Helper()
	root := filepath.Join("..", "..")
	files := proseDocs(t, "templates", filepath.Join("docs", "guides"))
	examples := map[string]bool{}
	err := filepath.WalkDir(filepath.Join(root, "examples"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".tf") {
			return err
		}
		data, err := os.ReadFile(path)
		examples[strings.TrimSpace(string(data))] = true
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	var out []snippet
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(data), "\n")
		for i := 0; i < len(lines); i++ {
			if !fence.MatchString(lines[i]) {
				continue
			}
			s := snippet{where: fmt.Sprintf("%s:%d", filepath.ToSlash(strings.TrimPrefix(file, root+string(filepath.Separator))), i+1)}
			for j := i - 1; j >= 0 && strings.HasPrefix(strings.TrimSpace(lines[j]), "<!--"); j-- {
				if m := snippetTag.FindStringSubmatch(lines[j]); m != nil {
					s.mode, s.reason = m[1], m[2]
					break
				}
			}
			var body []string
			for i++; i < len(lines) && !strings.HasPrefix(lines[i], "```"); i++ {
				body = append(body, lines[i])
			}
			s.text = strings.Join(body, "\n") + "\n"
			if examples[strings.TrimSpace(s.text)] {
				s.mode = "example"
			}
			if !seen[s.text] {
				seen[s.text] = true
				out = append(out, s)
			}
		}
	}
	return out
}

// Every block parses, and its mark is one of those above, a no-apply one with its reason.
func TestDocsHCLSnippetsParse(t *testing.T) {
	snippets := docSnippets(t)
	if len(snippets) == 0 {
		t.Fatal("no HCL block found in README.md, templates/ or docs/guides/")
	}
	actions := providerSchemas(t).ActionSchemas
	actionBlocks := 0
	for _, s := range snippets {
		// The CLIs here have no action blocks: the blocks that need them are held to the
		// actions' schemas instead.
		if s.mode == "needs" {
			actionBlocks += len(checkActionBlocks(t, s.where, s.text, actions))
		}
		_, known := clifeatures.Named(s.reason)
		switch {
		case s.mode != "" && s.mode != "no-apply" && s.mode != "fragment" && s.mode != "example" && s.mode != "needs":
			t.Errorf("%s: unknown mark hcl: %s (want no-apply REASON, needs FEATURE or fragment)", s.where, s.mode)
		case s.mode == "no-apply" && s.reason == "":
			t.Errorf("%s: hcl: no-apply needs its reason", s.where)
		case s.mode == "needs" && !known:
			t.Errorf("%s: hcl: needs %q names no feature of cli_features_test.go, such as actions", s.where, s.reason)
		}
		if _, diags := hclparse.NewParser().ParseHCL([]byte(s.text), s.where); diags.HasErrors() {
			t.Errorf("%s: does not parse: %v", s.where, diags)
		}
	}
	if len(actions) > 0 && actionBlocks == 0 {
		t.Error("no block marked needs declares an action: the day-two guide's actions went unchecked")
	}
}

// The complete configurations pass `validate` on the CLI with the provider built from this
// tree, and those that can apply apply against this test's apmsim, plan nothing more, and
// are destroyed. Write-only attributes and ephemeral variables in the docs need Terraform
// 1.11 or OpenTofu: older CLIs skip, saying so.
func TestAccDocs_hclSnippets(t *testing.T) {
	// The docs use write-only attributes and ephemeral variables.
	cli, v := needs(t, clifeatures.WriteOnly)
	var complete []snippet
	for _, s := range docSnippets(t) {
		if s.mode == "" || s.mode == "no-apply" || (s.mode == "needs" && hasNamedFeature(v, s.reason)) {
			complete = append(complete, s)
		}
	}
	if len(complete) == 0 {
		t.Fatal("no complete configuration in the docs")
	}
	validateSnippets(t, cli, complete)
	for _, s := range complete {
		if s.mode != "" {
			continue
		}
		t.Run(s.where, func(t *testing.T) {
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
func validateSnippets(t *testing.T, cli string, snippets []snippet) {
	t.Helper()
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	build := exec.Command("go", "build", "-o", filepath.Join(bin, "terraform-provider-apm"), ".")
	build.Dir = filepath.Join("..", "..")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the provider: %v\n%s", err, out)
	}
	var overrides strings.Builder
	for _, host := range []string{"registry.terraform.io", "registry.opentofu.org"} {
		for _, namespace := range []string{"hashicorp", "apmplatform"} {
			fmt.Fprintf(&overrides, "    %q = %q\n", host+"/"+namespace+"/apm", bin)
		}
	}
	rc := filepath.Join(dir, "cli.tfrc")
	if err := os.WriteFile(rc, []byte("provider_installation {\n  dev_overrides {\n"+overrides.String()+"  }\n  direct {}\n}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for i, s := range snippets {
		work := filepath.Join(dir, fmt.Sprint(i))
		if err := os.MkdirAll(work, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(work, "main.tf"), []byte(s.text), 0o600); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(cli, "validate", "-no-color") //nolint:gosec // the test's own CLI
		cmd.Dir = work
		cmd.Env = clitest.ChildEnv(os.Environ(), "TF_CLI_CONFIG_FILE="+rc, "CHECKPOINT_DISABLE=1")
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			t.Errorf("%s: validate failed (%v); mark it <!-- hcl: fragment --> if it is part of a configuration:\n%s", s.where, err, out.String())
		}
	}
}

// withoutProviderSettings is a configuration without its terraform block and its apm
// provider blocks, which the harness supplies (its provider address and this test's
// manager).
func withoutProviderSettings(t *testing.T, s snippet) string {
	t.Helper()
	f, diags := hclwrite.ParseConfig([]byte(s.text), s.where, hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatalf("%s: %v", s.where, diags)
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
