package repocheck

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/apmplatform/terraform-provider-apm/api"
	apmprovider "github.com/apmplatform/terraform-provider-apm/internal/provider"
)

// api/coverage.md names, for every endpoint, the Terraform types that reach it. Each type
// named is registered, and reaches one of the row's client calls: the code that the
// type's registry entry refers to, followed through the package's functions, methods,
// variables and types, calls it. (That the calls send the row's endpoint is checked in
// internal/apm, that the rows are the spec's endpoints in api.)
func TestCoverageTableTypesAreRegisteredAndReachTheirCalls(t *testing.T) {
	rows, err := api.Coverage()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) == 0 {
		t.Fatal("api/coverage.md has no rows")
	}
	roots, graph := registeredTypesGraph(t)
	for _, row := range rows {
		for _, ref := range row.Types {
			root, ok := roots[ref.String()]
			if !ok {
				t.Errorf("api/coverage.md line %d (%s %s): %s is not registered in the provider", row.Line, row.Method, row.Path, ref)
				continue
			}
			reached := graph.clientCalls(root)
			if !reachesAny(reached, row.Calls) {
				t.Errorf("api/coverage.md line %d (%s %s): %s reaches none of %s (it reaches %s)",
					row.Line, row.Method, row.Path, ref, strings.Join(row.Calls, ", "), strings.Join(slices.Sorted(maps.Keys(reached)), ", "))
			}
		}
	}
}

// The walk over-approximates (a type reaches whatever the code it refers to could call);
// it must still tell types apart, or the test above would pass for any table.
func TestReachGraphTellsTypesApart(t *testing.T) {
	roots, graph := registeredTypesGraph(t)
	for ref, want := range map[string]string{
		"data source apm_manager_info": "(*apm.Client).ManagerInfo",
		"data source apm_licenses":     "(*apm.Client).ListLicenses",
	} {
		root, ok := roots[ref]
		if !ok {
			t.Fatalf("%s is not registered", ref)
		}
		if got := strings.Join(slices.Sorted(maps.Keys(graph.clientCalls(root))), ", "); got != want {
			t.Errorf("%s reaches %s, want only %s", ref, got, want)
		}
	}
	if len(graph.clientCalls(roots["resource apm_was_server"])) < 5 {
		t.Error("resource apm_was_server reaches fewer than 5 client calls: the walk misses the code")
	}
}

// registeredTypesGraph type-checks the package once for both: the roots and the graph
// must be made of the same syntax.
func registeredTypesGraph(t *testing.T) (map[string]ast.Expr, *reachGraph) {
	t.Helper()
	pkg, err := typeCheckPackage(providerDir)
	if err != nil {
		t.Fatal(err)
	}
	roots, err := registeredTypeRoots(pkg.syntax)
	if err != nil {
		t.Fatal(err)
	}
	return roots, newReachGraph(pkg)
}

func reachesAny(reached map[string]bool, calls []string) bool {
	for _, c := range calls {
		if reached[c] {
			return true
		}
	}
	return false
}

// registeredTypeRoots maps every type the provider registers ("resource apm_system") to
// its entry in internal/provider/registry.go: the n-th element of the list a registry method returns is the
// n-th type it registers. A list resource's entry is that of the list data source it is
// made from. Actions count when the provider has them (provider.ProviderWithActions).
func registeredTypeRoots(files []*ast.File) (map[string]ast.Expr, error) {
	ctx := context.Background()
	entries := registryEntries(files)
	p := apmprovider.New("test")()
	roots := map[string]ast.Expr{}
	add := func(method string, names []string) error {
		if len(entries[method]) != len(names) {
			return fmt.Errorf("registry.go: %s lists %d entries, the provider registers %d types", method, len(entries[method]), len(names))
		}
		for i, name := range names {
			roots[name] = entries[method][i]
		}
		return nil
	}
	var resources, dataSources, actions []string
	for _, newResource := range p.Resources(ctx) {
		var resp resource.MetadataResponse
		newResource().Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "apm"}, &resp)
		resources = append(resources, "resource "+resp.TypeName)
	}
	listedBy := map[string]string{} // list resource name -> its data source's name
	for _, newDataSource := range p.DataSources(ctx) {
		d := newDataSource()
		var resp datasource.MetadataResponse
		d.Metadata(ctx, datasource.MetadataRequest{ProviderTypeName: "apm"}, &resp)
		dataSources = append(dataSources, "data source "+resp.TypeName)
		if l, ok := d.(interface {
			ListResource() func() list.ListResource
		}); ok && l.ListResource() != nil {
			listedBy["list resource "+listResourceName(l.ListResource()())] = "data source " + resp.TypeName
		}
	}
	if pa, ok := p.(provider.ProviderWithActions); ok {
		for _, newAction := range pa.Actions(ctx) {
			var resp action.MetadataResponse
			newAction().Metadata(ctx, action.MetadataRequest{ProviderTypeName: "apm"}, &resp)
			actions = append(actions, "action "+resp.TypeName)
		}
	}
	for method, names := range map[string][]string{"Resources": resources, "DataSources": dataSources, "Actions": actions} {
		if err := add(method, names); err != nil {
			return nil, err
		}
	}
	pl, ok := p.(provider.ProviderWithListResources)
	if !ok {
		return nil, errors.New("the provider has no list resources")
	}
	for _, newList := range pl.ListResources(ctx) {
		name := "list resource " + listResourceName(newList())
		ds, ok := listedBy[name]
		if !ok {
			return nil, fmt.Errorf("%s is made from no registered data source", name)
		}
		roots[name] = roots[ds]
	}
	return roots, nil
}

func listResourceName(l list.ListResource) string {
	var resp resource.MetadataResponse
	l.Metadata(context.Background(), resource.MetadataRequest{ProviderTypeName: "apm"}, &resp)
	return resp.TypeName
}

// registryEntries are the elements of the list each registry method of the provider's type
// returns as a literal, by method name.
func registryEntries(files []*ast.File) map[string][]ast.Expr {
	out := map[string][]ast.Expr{}
	for _, file := range files {
		for _, decl := range file.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Recv == nil || fn.Body == nil {
				continue
			}
			for _, stmt := range fn.Body.List {
				ret, ok := stmt.(*ast.ReturnStmt)
				if !ok || len(ret.Results) != 1 {
					continue
				}
				if lit, ok := ret.Results[0].(*ast.CompositeLit); ok {
					out[fn.Name.Name] = lit.Elts
				}
			}
		}
	}
	return out
}

// reachGraph follows references through the package's declarations.
type reachGraph struct {
	info *types.Info
	// decls are the syntax of each package-level function, method, variable, constant and
	// type.
	decls map[types.Object][]ast.Node
	// methods are the methods declared on each of the package's types, and by name: a type
	// referred to brings its exported methods (the framework calls them through its
	// interfaces), and a call through an interface may reach the method of that name of
	// every type of the package that implements the interface.
	methods       map[*types.TypeName][]*types.Func
	methodsByName map[string][]*types.Func
	cache         map[ast.Expr]map[string]bool
}

func newReachGraph(pkg *checkedPackage) *reachGraph {
	g := &reachGraph{info: pkg.info, decls: map[types.Object][]ast.Node{},
		methods: map[*types.TypeName][]*types.Func{}, methodsByName: map[string][]*types.Func{},
		cache: map[ast.Expr]map[string]bool{}}
	for _, file := range pkg.syntax {
		for _, decl := range file.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				fn, _ := pkg.info.Defs[d.Name].(*types.Func)
				if fn == nil {
					continue
				}
				g.decls[fn] = append(g.decls[fn], d)
				if recv := fn.Signature().Recv(); recv != nil {
					if named := namedOf(recv.Type()); named != nil {
						g.methods[named.Obj()] = append(g.methods[named.Obj()], fn)
					}
					g.methodsByName[fn.Name()] = append(g.methodsByName[fn.Name()], fn)
				}
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					switch sp := spec.(type) {
					case *ast.ValueSpec:
						for _, name := range sp.Names {
							if obj := pkg.info.Defs[name]; obj != nil {
								g.decls[obj] = append(g.decls[obj], sp)
							}
						}
					case *ast.TypeSpec:
						if obj := pkg.info.Defs[sp.Name]; obj != nil {
							g.decls[obj] = append(g.decls[obj], sp)
						}
					}
				}
			}
		}
	}
	return g
}

// namedOf is the named type of t or of what t points to.
func namedOf(t types.Type) *types.Named {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, _ := t.(*types.Named)
	return n
}

// clientCalls are the methods of *apm.Client ("(*apm.Client).GetServer") that the code
// root refers to reaches.
func (g *reachGraph) clientCalls(root ast.Expr) map[string]bool {
	if calls, ok := g.cache[root]; ok {
		return calls
	}
	calls := map[string]bool{}
	seen := map[types.Object]bool{}
	var queue []types.Object
	visit := func(n ast.Node) {
		ast.Inspect(n, func(n ast.Node) bool {
			id, ok := n.(*ast.Ident)
			if !ok {
				return true
			}
			obj := g.info.Uses[id]
			if fn, ok := obj.(*types.Func); ok {
				obj = fn.Origin()
				if name, ok := clientMethod(fn); ok {
					calls[name] = true
					return true
				}
				for _, m := range g.implementations(fn) {
					queue = append(queue, m)
				}
			}
			if tn, ok := obj.(*types.TypeName); ok {
				for _, m := range g.methods[tn] {
					if m.Exported() {
						queue = append(queue, m)
					}
				}
			}
			if obj != nil {
				queue = append(queue, obj)
			}
			return true
		})
	}
	visit(root)
	for len(queue) > 0 {
		obj := queue[0]
		queue = queue[1:]
		if seen[obj] {
			continue
		}
		seen[obj] = true
		for _, n := range g.decls[obj] {
			visit(n)
		}
	}
	g.cache[root] = calls
	return calls
}

// clientMethod names fn when it is a method of *apm.Client.
func clientMethod(fn *types.Func) (string, bool) {
	recv := fn.Signature().Recv()
	if recv == nil {
		return "", false
	}
	named := namedOf(recv.Type())
	if named == nil || named.Obj().Name() != "Client" || named.Obj().Pkg() == nil ||
		!strings.HasSuffix(named.Obj().Pkg().Path(), "/internal/apm") {
		return "", false
	}
	return "(*apm.Client)." + fn.Name(), true
}

// implementations are the package's methods that a call of the interface method fn may
// run: those of its name whose receiver type implements the interface.
func (g *reachGraph) implementations(fn *types.Func) []*types.Func {
	recv := fn.Signature().Recv()
	if recv == nil {
		return nil
	}
	iface, ok := recv.Type().Underlying().(*types.Interface)
	if !ok {
		return nil
	}
	var out []*types.Func
	for _, m := range g.methodsByName[fn.Name()] {
		named := namedOf(m.Signature().Recv().Type())
		if types.Implements(named, iface) || types.Implements(types.NewPointer(named), iface) {
			out = append(out, m)
		}
	}
	return out
}

// checkedPackage is a package's code (without its tests), parsed and type-checked.
type checkedPackage struct {
	syntax []*ast.File
	info   *types.Info
}

// typeCheckPackage parses and type-checks the package in dir without its tests, against
// the compiled export data of its dependencies. (internal/provider's attrnames_test.go has
// its own, for its own directory: test helpers are not shared across packages.)
func typeCheckPackage(dir string) (*checkedPackage, error) {
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, fmt.Errorf("listing %s: %w", dir, err)
	}
	var syntax []*ast.File
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			return nil, fmt.Errorf("parsing: %w", err)
		}
		syntax = append(syntax, file)
	}
	exports, err := exportData(dir)
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
	if _, err := conf.Check(filepath.Base(dir), fset, syntax, info); err != nil {
		return nil, fmt.Errorf("type-check: %w", err)
	}
	return &checkedPackage{syntax: syntax, info: info}, nil
}

// exportData maps the dependencies of the package in dir to their compiled export data.
func exportData(dir string) (map[string]string, error) {
	cmd := exec.Command("go", "list", "-export", "-deps", "-f", "{{.ImportPath}}={{.Export}}", ".")
	cmd.Dir = dir
	out, err := cmd.Output()
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
