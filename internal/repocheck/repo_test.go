package repocheck

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/apmplatform/terraform-provider-apm/internal/doclists"
)

// root is the repository, from this package's directory.
var root = filepath.Join("..", "..")

// providerSchemas is the provider's schemas as a CLI gets them.
func providerSchemas(t *testing.T) *tfprotov6.GetProviderSchemaResponse {
	t.Helper()
	resp, err := doclists.Schemas(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.ResourceSchemas) == 0 || len(resp.DataSourceSchemas) == 0 {
		t.Fatal("the provider serves no resources or no data sources")
	}
	return resp
}

// servedTypes is every type the provider serves, as the docs list it.
func servedTypes(t *testing.T) []doclists.Type {
	t.Helper()
	types, err := doclists.Served(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	return types
}

// requireFile is the text of name (a path under root), failing the test when it is missing.
func requireFile(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Errorf("missing %s", rel(name))
	}
	return string(data)
}

// rel is path relative to the repository, as messages name it.
func rel(path string) string {
	return filepath.ToSlash(strings.TrimPrefix(path, root+string(filepath.Separator)))
}

// readAll is the text of the files that match pattern and that keep selects (all when
// keep is nil).
func readAll(t *testing.T, pattern string, keep func(string) bool) string {
	t.Helper()
	files, err := filepath.Glob(pattern)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if keep == nil || keep(string(data)) {
			b.Write(data)
		}
	}
	return b.String()
}

// statedDefault finds the default a description states: "Defaults to `X`." gives X; stated
// has ok false when the description states none or a default that is the manager's choice.
var statedDefault = regexp.MustCompile("Defaults to `([^`]*)`")

func stated(description string) (string, bool) {
	m := statedDefault.FindStringSubmatch(description)
	if m == nil {
		return "", false
	}
	return m[1], true
}

// lineDiff names the lines of got that want lacks (-) and those of want that got lacks (+).
func lineDiff(got, want string) string {
	gotLines, wantLines := strings.Split(got, "\n"), strings.Split(want, "\n")
	var b strings.Builder
	for _, l := range gotLines {
		if !slices.Contains(wantLines, l) {
			fmt.Fprintf(&b, "- %s\n", l)
		}
	}
	for _, l := range wantLines {
		if !slices.Contains(gotLines, l) {
			fmt.Fprintf(&b, "+ %s\n", l)
		}
	}
	return b.String()
}
