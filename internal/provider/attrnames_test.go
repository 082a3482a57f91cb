package provider

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// The types' calls read plans and states by attribute name (plan.Str(attrSystemID)); a
// name no schema has would read as "" without a word. Every name the provider's code
// reads or writes that way, and every name an import ID or a derived id is made of, is
// an attribute of a registered resource or data source; and where the code reads or
// writes an attribute it names it by its constant (attributes.go), never by a literal,
// so that each attribute is named once.
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
		if u.literal && !u.declared {
			t.Errorf("%s: the attribute %q is named by a literal: use its constant (attributes.go)", u.pos, u.name)
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
	pos      token.Position
	name     string
	literal  bool // a string literal, rather than a constant
	declared bool // the name of a field, where the field is declared
}

// attrNameUses type-checks the package (without its tests) and collects the names used
// as attribute names, literals and constants alike: arguments of engine.Attrs's
// accessors and of engine.Joined, keys of engine.Attrs, the Attr and FromPlan of import
// ID parts, and the names of fields where engine's field constructors declare them.
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
	name := func(e ast.Expr, declared bool) {
		tv, ok := info.Types[e]
		if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
			return
		}
		lit, isLit := e.(*ast.BasicLit)
		uses = append(uses, attrNameUse{pos: fset.Position(e.Pos()), name: constant.StringVal(tv.Value), literal: isLit && lit.Kind == token.STRING, declared: declared})
	}
	for _, file := range syntax {
		ast.Inspect(file, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				sel, ok := n.Fun.(*ast.SelectorExpr)
				switch {
				case ok && isAttrs(sel.X) && len(n.Args) > 0:
					name(n.Args[0], false)
				case ok && sel.Sel.Name == "Joined":
					for _, a := range n.Args {
						name(a, false)
					}
				case fieldConstructor(n.Fun) && len(n.Args) > 0:
					name(n.Args[0], true)
				}
			case *ast.IndexExpr:
				if isAttrs(n.X) {
					name(n.Index, false)
				}
			case *ast.KeyValueExpr:
				if k, ok := n.Key.(*ast.Ident); ok && (k.Name == "Attr" || k.Name == "FromPlan") {
					name(n.Value, false)
				}
			}
			return true
		})
	}
	sort.Slice(uses, func(i, j int) bool { return uses[i].pos.String() < uses[j].pos.String() })
	return uses, nil
}

// fieldConstructor reports whether fun is one of engine's field constructors
// (engine.StringField, engine.InputField[T], ...), whose first argument names the field.
func fieldConstructor(fun ast.Expr) bool {
	switch f := fun.(type) {
	case *ast.IndexExpr:
		fun = f.X
	case *ast.IndexListExpr:
		fun = f.X
	}
	sel, ok := fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	return ok && pkg.Name == "engine" && strings.HasSuffix(sel.Sel.Name, "Field")
}

// checkedPackage is the package's code (without its tests), parsed and type-checked.
type checkedPackage struct {
	fset   *token.FileSet
	syntax []*ast.File
	info   *types.Info
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
	if _, err := conf.Check("provider", fset, syntax, info); err != nil {
		return nil, fmt.Errorf("type-check: %w", err)
	}
	return &checkedPackage{fset: fset, syntax: syntax, info: info}, nil
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
