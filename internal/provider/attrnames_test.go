package provider

import (
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// The types' calls read plans and states by attribute name (plan.Str("system_id")); a
// name no schema has would read as "" without a word. Every name the provider's code
// reads or writes that way, and every name an import ID or a derived id is made of, is
// an attribute of a registered resource or data source.
func TestAttributeNamesInCodeExistInSchemas(t *testing.T) {
	known := schemaAttributeNames(providerSchemas(t))
	uses, err := attrNameUses()
	if err != nil {
		t.Fatal(err)
	}
	if len(uses) < 100 {
		t.Fatalf("found only %d attribute names in the code: the walk misses the calls", len(uses))
	}
	for _, u := range uses {
		if !known[u.name] {
			t.Errorf("%s: %q is no attribute of any registered type", u.pos, u.name)
		}
	}
}

// schemaAttributeNames are the names of every attribute of the resources, data sources
// and actions, nested ones included.
func schemaAttributeNames(resp *tfprotov6.GetProviderSchemaResponse) map[string]bool {
	names := map[string]bool{}
	add := func(s *tfprotov6.Schema) {
		walkAttributes("", s.Block.Attributes, func(at string, _ *tfprotov6.SchemaAttribute) {
			names[at[strings.LastIndex(at, ".")+1:]] = true
		})
	}
	for _, s := range resp.ResourceSchemas {
		add(s)
	}
	for _, s := range resp.DataSourceSchemas {
		add(s)
	}
	for _, s := range resp.ActionSchemas {
		add(s.Schema)
	}
	return names
}

type attrNameUse struct {
	pos  token.Position
	name string
}

// attrNameUses type-checks the package (without its tests) and collects the string
// literals used as attribute names: arguments of engine.Attrs's accessors and of
// engine.Joined, keys of engine.Attrs, and the Attr and FromPlan of import ID parts.
func attrNameUses() ([]attrNameUse, error) {
	pkg, err := typeCheckPackage()
	if err != nil {
		return nil, err
	}
	fset, syntax, info := pkg.fset, pkg.syntax, pkg.info
	isAttrs := func(e ast.Expr) bool {
		tv, ok := info.Types[e]
		return ok && strings.HasSuffix(tv.Type.String(), "/engine.Attrs")
	}
	var uses []attrNameUse
	literal := func(e ast.Expr) {
		if lit, ok := e.(*ast.BasicLit); ok && lit.Kind == token.STRING {
			if s, err := strconv.Unquote(lit.Value); err == nil {
				uses = append(uses, attrNameUse{fset.Position(lit.Pos()), s})
			}
		}
	}
	for _, file := range syntax {
		ast.Inspect(file, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				sel, ok := n.Fun.(*ast.SelectorExpr)
				switch {
				case ok && isAttrs(sel.X) && len(n.Args) > 0:
					literal(n.Args[0])
				case ok && sel.Sel.Name == "Joined":
					for _, a := range n.Args {
						literal(a)
					}
				}
			case *ast.IndexExpr:
				if isAttrs(n.X) {
					literal(n.Index)
				}
			case *ast.KeyValueExpr:
				if k, ok := n.Key.(*ast.Ident); ok && (k.Name == "Attr" || k.Name == "FromPlan") {
					literal(n.Value)
				}
			}
			return true
		})
	}
	sort.Slice(uses, func(i, j int) bool { return uses[i].pos.String() < uses[j].pos.String() })
	return uses, nil
}

// checkedPackage is the package's code (without its tests), parsed and type-checked.
type checkedPackage struct {
	fset   *token.FileSet
	syntax []*ast.File
	info   *types.Info
	pkg    *types.Package
}

// typeCheckPackage parses and type-checks the package without its tests, against the
// compiled export data of its dependencies.
func typeCheckPackage() (*checkedPackage, error) {
	fset := token.NewFileSet()
	files, err := filepath.Glob("*.go")
	if err != nil {
		return nil, err
	}
	var syntax []*ast.File
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			return nil, err
		}
		syntax = append(syntax, file)
	}
	exports, err := exportData()
	if err != nil {
		return nil, err
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		file, ok := exports[path]
		if !ok {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(file)
	})}
	pkg, err := conf.Check("provider", fset, syntax, info)
	if err != nil {
		return nil, fmt.Errorf("type-check: %w", err)
	}
	return &checkedPackage{fset: fset, syntax: syntax, info: info, pkg: pkg}, nil
}

// exportData maps the package's dependencies to their compiled export data.
func exportData() (map[string]string, error) {
	out, err := exec.Command("go", "list", "-export", "-deps", "-f", "{{.ImportPath}}={{.Export}}", ".").Output()
	if err != nil {
		return nil, fmt.Errorf("go list -export: %w", err)
	}
	exports := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if path, file, ok := strings.Cut(line, "="); ok && file != "" {
			exports[path] = file
		}
	}
	return exports, nil
}
