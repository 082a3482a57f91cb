package repocheck

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
)

// Every type has an example that the docs use, a generated page, and at least one
// acceptance test of internal/provider that declares it; every resource documents its
// import three ways (the command, an import block by ID, an import block by identity),
// each of a resource its example declares. One subtest a type.
func TestRegisteredTypesHaveExamplesDocsAndTests(t *testing.T) {
	resp := providerSchemas(t)
	tests := acceptanceTestSources(t)
	for name, s := range resp.ResourceSchemas {
		t.Run("resource "+name, func(t *testing.T) {
			short := strings.TrimPrefix(name, "apm_")
			dir := filepath.Join(root, "examples", "resources", name)
			declared := requireFile(t, filepath.Join(dir, "resource.tf"))
			if !regexp.MustCompile(`resource\s+"` + name + `"`).MatchString(tests) {
				t.Errorf("no acceptance test declares resource %s", name)
			}
			if !engine.ManagesAnObject(s) {
				requireFile(t, filepath.Join(root, "docs", "resources", short+".md"))
				return // an operation resource: nothing to import
			}
			imports := map[string]*regexp.Regexp{
				"import.sh":              regexp.MustCompile(`(?m)^terraform import (\S+)`),
				"import-by-string-id.tf": regexp.MustCompile(`(?m)^\s*to\s*=\s*(\S+)`),
				"import-by-identity.tf":  regexp.MustCompile(`(?m)^\s*to\s*=\s*(\S+)`),
			}
			for file, address := range imports {
				matches := address.FindAllStringSubmatch(requireFile(t, filepath.Join(dir, file)), -1)
				if len(matches) == 0 {
					t.Errorf("examples/resources/%s/%s imports nothing", name, file)
				}
				for _, m := range matches {
					typ, local, _ := strings.Cut(m[1], ".")
					if typ != name || !regexp.MustCompile(`resource\s+"`+name+`"\s+"`+regexp.QuoteMeta(local)+`"`).MatchString(declared) {
						t.Errorf("examples/resources/%s/%s imports %s, which its resource.tf does not declare", name, file, m[1])
					}
				}
			}
			page := requireFile(t, filepath.Join(root, "docs", "resources", short+".md"))
			if !strings.Contains(page, "## Import") || !strings.Contains(page, "### Identity Schema") ||
				!strings.Contains(page, "can be used with the `id` attribute") {
				t.Errorf("docs/resources/%s.md has no import section with the identity schema and an import block by id", short)
			}
		})
	}
	for name := range resp.DataSourceSchemas {
		t.Run("data source "+name, func(t *testing.T) {
			short := strings.TrimPrefix(name, "apm_")
			requireFile(t, filepath.Join(root, "examples", "data-sources", name, "data-source.tf"))
			requireFile(t, filepath.Join(root, "docs", "data-sources", short+".md"))
			if !regexp.MustCompile(`data\s+"` + name + `"`).MatchString(tests) {
				t.Errorf("no acceptance test declares data source %s", name)
			}
		})
	}
	for name := range resp.ActionSchemas {
		t.Run("action "+name, func(t *testing.T) {
			example := filepath.Join(root, "examples", "actions", name, "action.tf")
			checkActionExample(t, example, name, resp.ActionSchemas, requireFile(t, example))
			requireFile(t, filepath.Join(root, "docs", "actions", strings.TrimPrefix(name, "apm_")+".md"))
			if !regexp.MustCompile(`action\s+"` + name + `"`).MatchString(tests) {
				t.Errorf("no acceptance test declares action %s", name)
			}
		})
	}
}

// Every function the provider serves has its example, which tfplugindocs puts on the
// function's page, and that page. One subtest a function.
func TestFunctionsHaveExamplesAndPages(t *testing.T) {
	functions := providerSchemas(t).Functions
	if len(functions) == 0 {
		t.Fatal("the provider serves no function")
	}
	for name := range functions {
		t.Run(name, func(t *testing.T) {
			requireFile(t, filepath.Join(root, "examples", "functions", name, "function.tf"))
			requireFile(t, filepath.Join(root, "docs", "functions", name+".md"))
		})
	}
}

// checkActionExample holds an action's example to its schema: the CLIs here have no
// action blocks (Terraform 1.14 and later), so scripts/validate-examples.sh cannot.
func checkActionExample(t *testing.T, file, name string, schemas map[string]*tfprotov6.ActionSchema, text string) {
	t.Helper()
	if declared := checkActionBlocks(t, rel(file), text, schemas); !declared[name] {
		t.Errorf("%s declares no action %q", rel(file), name)
	}
}

// checkActionBlocks checks each action block of text against its action's schema (its
// config sets only attributes of the schema, and every required one) and returns the
// action types it declares.
func checkActionBlocks(t *testing.T, where, text string, schemas map[string]*tfprotov6.ActionSchema) map[string]bool {
	t.Helper()
	declared := map[string]bool{}
	f, diags := hclparse.NewParser().ParseHCL([]byte(text), where)
	if diags.HasErrors() {
		t.Errorf("%s: %v", where, diags)
		return declared
	}
	content, _, _ := f.Body.PartialContent(&hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "action", LabelNames: []string{"type", "name"}}}})
	for _, block := range content.Blocks {
		name := block.Labels[0]
		declared[name] = true
		schema, ok := schemas[name]
		if !ok {
			t.Errorf("%s: the provider has no action %s", where, name)
			continue
		}
		body, _, _ := block.Body.PartialContent(&hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "config"}}})
		set := map[string]bool{}
		for _, config := range body.Blocks {
			attrs, _ := config.Body.JustAttributes()
			for attr := range attrs {
				set[attr] = true
			}
		}
		known := map[string]bool{}
		for _, a := range schema.Schema.Block.Attributes {
			known[a.Name] = true
			if a.Required && !set[a.Name] {
				t.Errorf("%s: the config of action %s lacks the required %s", where, name, a.Name)
			}
		}
		for attr := range set {
			if !known[attr] {
				t.Errorf("%s: action %s has no attribute %s", where, name, attr)
			}
		}
	}
	return declared
}

// acceptanceTestSources is the text of internal/provider's test files that run on a CLI,
// and of the configurations they apply.
func acceptanceTestSources(t *testing.T) string {
	t.Helper()
	return readAll(t, filepath.Join(providerDir, "*_test.go"), func(src string) bool { return strings.Contains(src, "func TestAcc") }) +
		readAll(t, filepath.Join(providerDir, "testdata", "*", "*.tf"), nil)
}
