package repocheck

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
)

// providerDir is internal/provider, whose sources some checks here read.
var providerDir = filepath.Join("..", "provider")

// versionPackages are ways of telling CLI versions apart outside the feature table: the
// version packages. versionPattern is a version number parsed with a regexp or Sscanf;
// versionGates also finds a comparison of a major or minor version and a test of the CLI's
// name.
var versionPackages = map[string]bool{
	"github.com/hashicorp/terraform-plugin-testing/tfversion": true,
	"github.com/hashicorp/go-version":                         true,
	"golang.org/x/mod/semver":                                 true,
}

var versionPattern = regexp.MustCompile(`%d\.%d|\(\\d\+\)\\\.\(\\d\+\)`)

// versionGates are the places of a test file that tell CLI versions apart by themselves.
func versionGates(fset *token.FileSet, file *ast.File) []string {
	var out []string
	lines := map[int]bool{} // one gate a line: a comparison of major and minor is one gate
	at := func(n ast.Node, what string) {
		if pos := fset.Position(n.Pos()); !lines[pos.Line] {
			lines[pos.Line] = true
			out = append(out, fmt.Sprintf("%s: %s", pos, what))
		}
	}
	for _, imp := range file.Imports {
		if path, _ := strconv.Unquote(imp.Path.Value); versionPackages[path] {
			at(imp, "imports "+path)
		}
	}
	ast.Inspect(file, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BasicLit:
			if text, err := strconv.Unquote(n.Value); err == nil && n.Kind == token.STRING && versionPattern.MatchString(text) {
				at(n, "parses a version number "+n.Value)
			}
		case *ast.BinaryExpr:
			for _, side := range []ast.Expr{n.X, n.Y} {
				if id, ok := side.(*ast.Ident); ok && (id.Name == "major" || id.Name == "minor") {
					at(n, "compares a version's "+id.Name)
					return true
				}
			}
		case *ast.CallExpr:
			for _, arg := range n.Args {
				if lit, ok := arg.(*ast.BasicLit); ok && (lit.Value == `"OpenTofu"` || lit.Value == `"Terraform"`) {
					at(n, "tells the CLI by its name "+lit.Value)
				}
			}
		}
		return true
	})
	return out
}

// Every version gate of internal/provider's acceptance tests goes through the feature table
// (internal/clifeatures, through needs or Feature.Has), so that README.md's matrix says what
// the tests prove on each CLI: no test file there compares versions or tells the CLIs apart
// by itself.
func TestVersionGatesGoThroughTheFeatureTable(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(providerDir, "*_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		file, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, gate := range versionGates(fset, file) {
			t.Errorf("%s: gate it on a feature of internal/clifeatures instead (needs, or Feature.Has)", gate)
		}
	}
	if len(files) == 0 {
		t.Fatalf("no test file found in %s", providerDir)
	}
}

// The check finds each kind of gate it looks for, so that it can fail.
func TestVersionGatesFindsEachKind(t *testing.T) {
	for name, src := range map[string]string{
		"tfversion": `package p; import "github.com/hashicorp/terraform-plugin-testing/tfversion"; var _ = tfversion.SkipBelow`,
		"sscanf":    `package p; import "fmt"; func f(v string) { var a, b int; fmt.Sscanf(v, "v%d.%d", &a, &b) }`,
		"regexp":    "package p; import \"regexp\"; var r = regexp.MustCompile(`v(\\d+)\\.(\\d+)`)",
		"minor":     `package p; func f(major, minor int) bool { return minor >= 14 }`,
		"name":      `package p; import "strings"; func f(v string) bool { return strings.HasPrefix(v, "OpenTofu") }`,
	} {
		t.Run(name, func(t *testing.T) {
			fset := token.NewFileSet()
			file, err := parser.ParseFile(fset, name+".go", src, 0)
			if err != nil {
				t.Fatal(err)
			}
			if gates := versionGates(fset, file); len(gates) != 1 {
				t.Errorf("found %d gates in %s, want 1: %v", len(gates), src, gates)
			}
		})
	}
}
