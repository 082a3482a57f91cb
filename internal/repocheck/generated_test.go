package repocheck

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/apmplatform/terraform-provider-apm/internal/doclists"
)

// checkGenerated fails naming the lines that differ when a generated block of README.md or
// templates/ is not what cmd/doclists would write, so that a type added to registry.go or a
// feature to internal/clifeatures without `scripts/docs.sh` fails here.
func checkGenerated(t *testing.T, what string) {
	t.Helper()
	for _, b := range doclists.Blocks(servedTypes(t)) {
		if b.What != what {
			continue
		}
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(b.File)))
		if err != nil {
			t.Fatal(err)
		}
		current, err := b.Current(string(data))
		if err != nil {
			t.Error(err)
			continue
		}
		if current != b.Body {
			t.Errorf("%s: %s is out of date; run scripts/docs.sh (or go run ./cmd/doclists). It differs:\n%s", b.File, b.What, lineDiff(current, b.Body))
		}
	}
}

// The list of types of the docs index (templates/index.md.tmpl, the registry's front page)
// is the one the provider serves; README.md links it.
func TestDocsListEveryServedType(t *testing.T) {
	checkGenerated(t, "the list of types")
}

// README.md's support matrix is the acceptance tests' feature table.
func TestDocsSupportMatrixIsTheFeatureTable(t *testing.T) {
	checkGenerated(t, "the support matrix")
}
