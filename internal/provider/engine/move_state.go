package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// A `moved` block (Terraform 1.8 and later, OpenTofu 1.10 and later) may name a resource
// of a generic REST provider, restapi_object or restful_resource, as the source of one of
// ours: the state that provider kept (a path and a JSON body) becomes this type's state,
// and the object is not touched. A moved object is taken over as an import is: MoveState
// reads the object's import ID from the source's path and body and records it, with the
// body's values of the inputs the manager does not report; the refresh that follows
// resolves the import ID (a system's name to its id) and reads the object (takeOverMoved,
// move_read.go), so that the plan compares the configuration with what the manager has.
// MoveState cannot ask the manager itself: the CLI calls it before the provider is
// configured.

// RESTObject declares where the manager keeps an object of a type, in the terms of its
// REST interface (api/rest-interface.md), for taking over the state of generic REST
// providers.
type RESTObject struct {
	// Path is the object's path, its variable segments named by the key of the manager's
	// JSON that holds the same value: "/rest/nodes/{nodeName}/systems/{systemName}". What
	// precedes the first variable segment is the collection, where objects are created
	// and listed ("/rest/nodes").
	Path string
	// ImportID is the type's import ID written with the same keys: "{systemName}/{nodeName}".
	ImportID string
	// Keys names the JSON key of each input the manager does not report whose key is not
	// the attribute's name in lowerCamelCase (install_root_path is installRootPath): a
	// server's mode is the type of its create's body.
	Keys map[string]string
	// Lists are other paths that list the objects, where they differ from the collection
	// ("/rest/admin/users" beside "/rest/admin/user"). Optional.
	Lists []string
}

// movedKey holds, in the private state, the import ID pieces of a moved object until its
// first read resolves them (a JSON list of strings).
const movedKey = "moved"

var _ resource.ResourceWithMoveState = (*Resource[struct{}, struct{}])(nil)

// MoveState takes over the state of restapi_object and restful_resource.
func (r *Resource[T, C]) MoveState(context.Context) []resource.StateMover {
	return []resource.StateMover{{StateMover: r.moveState}}
}

func (r *Resource[T, C]) moveState(ctx context.Context, req resource.MoveStateRequest, resp *resource.MoveStateResponse) {
	target := "apm_" + r.Type.Name
	summary := fmt.Sprintf("Cannot move %s to %s", req.SourceTypeName, target)
	if r.Type.REST == nil {
		resp.Diagnostics.AddError(summary, fmt.Sprintf("%s cannot take over the state of another resource type: only the types that manage "+
			"an object at a path of the manager's REST interface can (systems, nodes, WAS, web and session servers, databases, datasources, "+
			"users and roles). Remove the moved block, and import the object instead.", target))
		return
	}
	src, err := sourceOf(req)
	if err != nil {
		resp.Diagnostics.AddError(summary, err.Error())
		return
	}
	pieces, a, err := take(*r.Type.REST, r.noun(), r.Type.ImportID, r.Type.Fields, src)
	if err != nil {
		resp.Diagnostics.AddError(summary, fmt.Sprintf("The %s: %v", src.describe(), err))
		return
	}
	typ := objectTypeOf(ctx, resp.TargetState.Schema)
	values := make(map[string]tftypes.Value, len(typ.AttributeTypes))
	for name, t := range typ.AttributeTypes {
		values[name] = tftypes.NewValue(t, nil)
		if v, ok := a[name]; ok {
			values[name] = v
		}
	}
	resp.TargetState.Raw = tftypes.NewValue(typ, values)
	moved, _ := json.Marshal(pieces) // a list of strings always marshals
	// Marked imported too: the inputs that the manager does not report and the source's
	// body did not hold (a password) are null, and setting them is only recorded.
	resp.Diagnostics.Append(resp.TargetPrivate.SetKey(ctx, movedKey, moved)...)
	resp.Diagnostics.Append(resp.TargetPrivate.SetKey(ctx, importedKey, []byte("true"))...)
}

// noun is what descriptions call the type: "WAS server" (as Schema words it).
func (r *Resource[T, C]) noun() string {
	if r.Type.Noun != "" {
		return r.Type.Noun
	}
	return strings.ReplaceAll(r.Type.Name, "_", " ")
}

// take reads the import ID pieces and the attributes of the object that src holds: the
// import ID from the path's variable segments and the body, which must agree, and from
// the body the inputs that the manager does not report (a server's mode), which the
// refresh cannot fill.
func take[T, C any](o RESTObject, noun string, id ImportID[C], fields []Field[T], src restSource) ([]string, Attrs, error) {
	keys, ok := o.matchPath(src.path)
	if !ok {
		return nil, nil, fmt.Errorf("its path is not a %s's: a %s is at %s, and created at %s", noun, noun, o.Path, o.collection())
	}
	raw := o.ImportID
	for _, m := range pathVariable.FindAllStringSubmatch(o.ImportID, -1) {
		v, err := keyValue(m[1], keys, src)
		if err != nil {
			return nil, nil, err
		}
		raw = strings.Replace(raw, m[0], v, 1)
	}
	pieces, err := id.Parse(raw)
	if err != nil {
		return nil, nil, fmt.Errorf("its keys do not make a %s's import ID: %w", noun, err)
	}
	a := Attrs{}
	for _, f := range fields {
		if !f.movable() {
			continue
		}
		key := o.keyOf(f.name)
		v, ok := src.lookup(key)
		if !ok {
			continue
		}
		if a[f.name], err = f.fromJSON(v); err != nil {
			return nil, nil, fmt.Errorf("its body's %s (for %s): %w", key, f.name, err)
		}
	}
	for i, p := range id.Parts {
		a[p.Attr] = tftypes.NewValue(tftypes.String, pieces[i])
	}
	return pieces, a, nil
}

// keyValue is the value of one key of the import ID: from the path, the body, or both
// when they agree.
func keyValue(key string, fromPath map[string]string, src restSource) (string, error) {
	p, inPath := fromPath[key]
	v, inBody := src.lookup(key)
	b, isString := scalarString(v)
	switch {
	case inBody && !isString:
		return "", fmt.Errorf("its body's %s is %v, not a string", key, v)
	case inPath && inBody && p != b:
		return "", fmt.Errorf("its path has %s %q but its body has %q", key, p, b)
	case inPath:
		return p, nil
	case inBody:
		return b, nil
	}
	return "", fmt.Errorf("neither its path nor its body has %s, which identifies the object", key)
}

// scalarString is a JSON string, or a number written as one (an id the body holds as
// a number).
func scalarString(v any) (string, bool) {
	switch v := v.(type) {
	case string:
		return v, v != ""
	case json.Number:
		return v.String(), true
	}
	return "", false
}

// movable says whether a field takes a value from a moved object's body: an input of
// the resource that the manager does not report, held as one JSON value, and no secret.
// The refresh reads every other field from the manager, spelled as the provider spells
// it (a body's "S" would stay beside a configuration's "Standard", and replace the
// server). A secret is left out: whether the configuration gives it as a sensitive or a
// write-only value, the first apply then only records it, where a password copied into
// the state would make a configuration with password_wo replace a database.
func (f Field[T]) movable() bool {
	return f.views&InResource != 0 && f.unread && !f.sensitive && !f.writeOnly &&
		(f.kind == kindString || f.kind == kindInt64 || f.kind == kindBool)
}

// fromJSON is the field's value of a JSON value; a body that restapi flattened to
// strings (api_data) holds numbers and booleans as strings.
func (f Field[T]) fromJSON(v any) (tftypes.Value, error) {
	s, isString := v.(string)
	switch f.kind {
	case kindInt64:
		n, ok := v.(json.Number)
		if isString {
			n, ok = json.Number(s), true
		}
		i, err := n.Int64()
		if !ok || err != nil {
			return tftypes.Value{}, fmt.Errorf("%v is not a whole number", v)
		}
		return Int64Value(i), nil
	case kindBool:
		b, ok := v.(bool)
		if isString && (s == "true" || s == "false") {
			b, ok = s == "true", true
		}
		if !ok {
			return tftypes.Value{}, fmt.Errorf("%v is not true or false", v)
		}
		return tftypes.NewValue(tftypes.Bool, b), nil
	}
	str, ok := scalarString(v)
	if !ok && !isString {
		return tftypes.Value{}, fmt.Errorf("%v is not a string", v)
	}
	return tftypes.NewValue(tftypes.String, str), nil
}

// pathVariable is a variable segment of a declared path or import ID.
var pathVariable = regexp.MustCompile(`\{([A-Za-z0-9_]+)\}`)

// matchPath reads the variable segments of path, which must be the object's path, or its
// collection's or a list's (the body then names the object); ok is false for the path
// of anything else.
func (o RESTObject) matchPath(path string) (map[string]string, bool) {
	path, _, _ = strings.Cut(path, "?")
	path = "/" + strings.Trim(path, "/")
	if path == o.collection() || slices.Contains(o.Lists, path) {
		return map[string]string{}, true
	}
	want, got := strings.Split(o.Path, "/"), strings.Split(path, "/")
	if len(want) != len(got) {
		return nil, false
	}
	keys := map[string]string{}
	for i, w := range want {
		m := pathVariable.FindStringSubmatch(w)
		if m == nil || m[0] != w {
			if w != got[i] {
				return nil, false
			}
			continue
		}
		v, err := url.PathUnescape(got[i])
		if err != nil || v == "" {
			return nil, false
		}
		keys[m[1]] = v
	}
	return keys, true
}

// collection is the path before the first variable segment.
func (o RESTObject) collection() string {
	before, _, _ := strings.Cut(o.Path, "{")
	return strings.TrimSuffix(before, "/")
}

// keyOf is the JSON key of an attribute.
func (o RESTObject) keyOf(attr string) string {
	if k, ok := o.Keys[attr]; ok {
		return k
	}
	words := strings.Split(attr, "_")
	for i := 1; i < len(words); i++ {
		if words[i] != "" {
			words[i] = strings.ToUpper(words[i][:1]) + words[i][1:]
		}
	}
	return strings.Join(words, "")
}
