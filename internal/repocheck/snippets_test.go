package repocheck

import (
	"testing"

	"github.com/hashicorp/hcl/v2/hclparse"

	"github.com/apmplatform/terraform-provider-apm/internal/clifeatures"
	"github.com/apmplatform/terraform-provider-apm/internal/docsnippets"
)

// Every HCL block of README.md, templates/ and docs/guides/ parses, and its mark is one of
// those of internal/docsnippets, a no-apply one with its reason. (internal/provider's
// TestAccDocs_hclSnippets runs the complete ones on a CLI.)
func TestDocsHCLSnippetsParse(t *testing.T) {
	snippets, err := docsnippets.Find(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(snippets) == 0 {
		t.Fatal("no HCL block found in README.md, templates/ or docs/guides/")
	}
	actions := providerSchemas(t).ActionSchemas
	actionBlocks := 0
	for _, s := range snippets {
		// The CLIs here have no action blocks: the blocks that need them are held to the
		// actions' schemas instead.
		if s.Mode == "needs" {
			actionBlocks += len(checkActionBlocks(t, s.Where, s.Text, actions))
		}
		_, known := clifeatures.Named(s.Reason)
		switch {
		case s.Mode != "" && s.Mode != "no-apply" && s.Mode != "fragment" && s.Mode != "example" && s.Mode != "needs":
			t.Errorf("%s: unknown mark hcl: %s (want no-apply REASON, needs FEATURE or fragment)", s.Where, s.Mode)
		case s.Mode == "no-apply" && s.Reason == "":
			t.Errorf("%s: hcl: no-apply needs its reason", s.Where)
		case s.Mode == "needs" && !known:
			t.Errorf("%s: hcl: needs %q names no feature of internal/clifeatures, such as actions", s.Where, s.Reason)
		}
		if _, diags := hclparse.NewParser().ParseHCL([]byte(s.Text), s.Where); diags.HasErrors() {
			t.Errorf("%s: does not parse: %v", s.Where, diags)
		}
	}
	if len(actions) > 0 && actionBlocks == 0 {
		t.Error("no block marked needs declares an action: the day-two guide's actions went unchecked")
	}
}
