package engine

import (
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// Discovery: the items of a list data source that are managed objects carry the ID to
// import each one with, so that a running platform can be adopted without guessing IDs
// (a for_each over a list into import blocks). The ID is made here, once for every type,
// by the resource type's own ImportID, so that it is always one that import accepts.

// ImportIDAttr is the attribute of a list item that holds its import ID.
const ImportIDAttr = "import_id"

// ImportTarget is a resource type as far as the items of a list data source refer to it:
// its name and its import ID. ResourceType.Target gives it.
type ImportTarget[T, C any] struct {
	name string
	id   ImportID[C]
	typ  *ResourceType[T, C] // for the list resource (list_resource.go)
}

// Target is the type named as what the items of a list data source are
// (ListDataSourceType.Imports).
func (t ResourceType[T, C]) Target() ImportTarget[T, C] {
	return ImportTarget[T, C]{name: t.Name, id: t.ImportID, typ: &t}
}

// description is the documentation of the import_id attribute.
func (t ImportTarget[T, C]) description() string {
	return fmt.Sprintf("The ID to import this object as `apm_%[1]s`, as in `terraform import apm_%[1]s.name <import_id>` or an import block's `id`. "+
		"Null when the manager did not report a part of it.", t.name)
}

// importIDMaker returns what makes the import ID of an item of the list data source
// list: each part of the target's ImportID is the value of the field of the same name,
// in the ID's form ("/"-joined), which is what the part's parser takes back (a part that
// resolves a name takes the id it stores as well). It panics when a part names no
// string field of the table: a declaration error, which every test that builds the
// registry meets.
func importIDMaker[T, C any](target ImportTarget[T, C], fields []Field[T], list string) func(*T) tftypes.Value {
	values := make([]func(*T) tftypes.Value, len(target.id.Parts))
	for i, p := range target.id.Parts {
		for _, f := range fields {
			if f.name == p.Attr && f.kind == kindString {
				values[i] = f.value
			}
		}
		if values[i] == nil {
			panic(fmt.Sprintf("engine: the items of apm_%s are apm_%s objects, but their field table has no string field %q for the import ID part %s",
				list, target.name, p.Attr, p.Form))
		}
		if p.Attr == ImportIDAttr {
			panic(fmt.Sprintf("engine: apm_%s: the field %s is the engine's own attribute of list items", list, ImportIDAttr))
		}
	}
	return func(obj *T) tftypes.Value {
		pieces := make([]string, len(values))
		for i, value := range values {
			s, ok := StringOf(value(obj))
			if !ok || s == "" {
				return tftypes.NewValue(tftypes.String, nil)
			}
			pieces[i] = s
		}
		return tftypes.NewValue(tftypes.String, strings.Join(pieces, "/"))
	}
}

// listItem flattens obj into an item of a list data source: its list-view fields, and
// its import ID when importID is set.
func listItem[T any](typ tftypes.Object, fields []Field[T], obj *T, importID func(*T) tftypes.Value) tftypes.Value {
	if importID == nil {
		return objectValue(typ, fields, obj)
	}
	vals := make(map[string]tftypes.Value, len(typ.AttributeTypes))
	for _, f := range fields {
		if _, ok := typ.AttributeTypes[f.name]; ok {
			vals[f.name] = f.value(obj)
		}
	}
	vals[ImportIDAttr] = importID(obj)
	return tftypes.NewValue(typ, vals)
}

// Listing is what tests may ask of a data source: the list attribute of a list data
// source ("" for one that reads one object) and the resource type its items are, such as
// "was_server" ("" when they are no managed objects).
func (d *engineDataSource[C]) Listing() (list, imports string) {
	return d.list, d.imports
}
