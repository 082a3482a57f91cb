package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// testApp is an application-like part: a server reference of three pieces and a path
// that takes the rest of the import ID, slashes included.
type testApp struct{ Server, Path, Status string }

var testAppType = ResourceType[testApp, struct{}]{
	Name: "app",
	Fields: []Field[testApp]{
		StringField("server_id", "", func(a *testApp) string { return a.Server }),
		StringField("path", "", func(a *testApp) string { return a.Path }),
		StringField("status", "", func(a *testApp) string { return a.Status }).In(InList),
	},
	ImportID: ImportID[struct{}]{Parts: []IDPart[struct{}]{
		{Attr: "server_id", Form: "<system>/<node>/<server>", Pieces: 3},
		{Attr: "path", Form: "<path>", Rest: true, Resolve: func(_ context.Context, _ struct{}, raw string) (string, error) {
			return "/" + strings.TrimPrefix(raw, "/"), nil
		}},
	}},
}

// The import ID of an item is made by the type's ImportID, part by part, so that its
// parser takes it back to the item's values (a path that starts with a slash, the root
// path included); an item without a part has none.
func TestItemImportIDsParseBackToTheItem(t *testing.T) {
	importID := importIDMaker(testAppType.Target(), testAppType.Fields, "apps")
	for _, app := range []testApp{{"S-1/app-01/was-1", "/shop", "running"}, {"S-1/app-01/was-1", "/", ""}, {"S-1/app-01/was-1", "/api/v1", ""}} {
		id, ok := StringOf(importID(&app))
		if !ok {
			t.Errorf("%+v: no import ID", app)
			continue
		}
		pieces, err := testAppType.ImportID.Parse(id)
		if err != nil {
			t.Errorf("%+v: import ID %q does not parse: %v", app, id, err)
			continue
		}
		path, _ := testAppType.ImportID.Parts[1].Resolve(context.Background(), struct{}{}, pieces[1])
		if pieces[0] != app.Server || path != app.Path {
			t.Errorf("%+v: import ID %q imports %q %q", app, id, pieces[0], path)
		}
	}
	if v := importID(&testApp{Path: "/shop"}); !v.IsNull() {
		t.Errorf("an item without its server has import ID %v, want null", v)
	}
}

// A list of managed objects has import_id in its items, described with the resource
// type; its read fills it in. A list of other things has none.
func TestListItemsCarryTheirImportID(t *testing.T) {
	list := ListDataSourceType[testApp, struct{}]{
		Name: "apps", ListName: "apps", Fields: testAppType.Fields, Imports: testAppType.Target(),
		List: func(context.Context, struct{}, Attrs) ([]testApp, error) {
			return []testApp{{"S-1/app-01/was-1", "/shop", "running"}}, nil
		},
	}
	ds := NewListDataSource(list)().(*engineDataSource[struct{}]) //nolint:forcetypeassert // the engine's own
	var resp datasource.SchemaResponse
	ds.Schema(context.Background(), datasource.SchemaRequest{}, &resp)
	item := resp.Schema.Attributes["apps"].(dschema.ListNestedAttribute).NestedObject.Attributes //nolint:forcetypeassert // built as a list
	if a, ok := item[ImportIDAttr]; !ok || !strings.Contains(a.GetMarkdownDescription(), "`terraform import apm_app.name <import_id>`") {
		t.Errorf("items: import_id %v, want one that documents the import of apm_app", a)
	}
	if l, imports := ds.Listing(); l != "apps" || imports != "app" {
		t.Errorf("Listing() = %q, %q", l, imports)
	}
	v, err := ds.read(context.Background(), struct{}{}, objectTypeOf(context.Background(), resp.Schema), Attrs{})
	if err != nil {
		t.Fatal(err)
	}
	var items []tftypes.Value
	a, _ := AttrsOf(v)
	if err := a["apps"].As(&items); err != nil || len(items) != 1 {
		t.Fatalf("apps: %v, %v", a["apps"], err)
	}
	first, _ := AttrsOf(items[0])
	if first.Str(ImportIDAttr) != "S-1/app-01/was-1//shop" || first.Str("status") != "running" {
		t.Errorf("item %v, want import_id S-1/app-01/was-1//shop and its status", first)
	}

	list.Imports = ImportTarget[testApp, struct{}]{}
	ds = NewListDataSource(list)().(*engineDataSource[struct{}]) //nolint:forcetypeassert // the engine's own
	ds.Schema(context.Background(), datasource.SchemaRequest{}, &resp)
	if _, ok := resp.Schema.Attributes["apps"].(dschema.ListNestedAttribute).NestedObject.Attributes[ImportIDAttr]; ok { //nolint:forcetypeassert // built as a list
		t.Error("a list of objects that are not managed has import_id")
	}
}

// A list whose items lack a field that the import ID needs is a declaration error, found
// when the registry is built rather than as IDs that import nothing.
func TestListImportingWithoutTheIDsFieldsIsRefused(t *testing.T) {
	defer func() {
		if p := recover(); p == nil || !strings.Contains(p.(string), `no string field "path" for the import ID part <path>`) { //nolint:forcetypeassert // importIDMaker panics with strings
			t.Errorf("panic %v, want one naming the missing field", p)
		}
	}()
	NewListDataSource(ListDataSourceType[testApp, struct{}]{Name: "apps", ListName: "apps", Fields: testAppType.Fields[:1], Imports: testAppType.Target()})
}
