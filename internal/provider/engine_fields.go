package provider

import (
	"math/big"
	"slices"

	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// A field is one attribute of an API object: its name, description, input rules and how
// to read it from the object. One table of fields per object serves its resource, its
// singular data source and the items of its plural data source, so an attribute is
// described, validated and flattened in exactly one place.
type field[T any] struct {
	name        string
	description string
	kind        fieldKind
	typ         tftypes.Type
	value       func(*T) tftypes.Value
	views       view
	role        role
	stringRules []validator.String
	int64Rules  []validator.Int64
	// same reports whether a value from the manager means the value already in state or
	// plan (another spelling of one IP address, say), which is then kept: no false diff.
	same func(prior, fresh tftypes.Value) bool
	// nested describes the items of a list attribute (data sources only).
	nested map[string]dschema.Attribute
}

type fieldKind int

const (
	kindString fieldKind = iota
	kindInt64
	kindBool
	kindList
)

// view says where a field appears.
type view uint8

const (
	inResource view = 1 << iota // the managed resource: what the user manages and stable ids
	inDetail                    // the singular data source (the object's detail read)
	inList                      // items of the plural data source (the list read)

	everywhere = inResource | inDetail | inList
	observed   = inDetail | inList // values the manager or other resources change
)

// role is a field's part in the managed resource.
type role int

const (
	// computedStable is set by the manager at create and never changes afterwards.
	computedStable role = iota
	// required is set by the user and changed in place.
	required
	// requiredReplace is set by the user; changing it replaces the object.
	requiredReplace
)

func stringField[T any](name, description string, get func(*T) string) field[T] {
	return field[T]{
		name: name, description: description, kind: kindString, typ: tftypes.String, views: everywhere,
		value: func(o *T) tftypes.Value { return tftypes.NewValue(tftypes.String, get(o)) },
	}
}

func int64Field[T any](name, description string, get func(*T) int64) field[T] {
	return field[T]{
		name: name, description: description, kind: kindInt64, typ: tftypes.Number, views: everywhere,
		value: func(o *T) tftypes.Value { return int64Value(get(o)) },
	}
}

func boolField[T any](name, description string, get func(*T) bool) field[T] {
	return field[T]{
		name: name, description: description, kind: kindBool, typ: tftypes.Bool, views: everywhere,
		value: func(o *T) tftypes.Value { return tftypes.NewValue(tftypes.Bool, get(o)) },
	}
}

// listField is a list of nested objects described by their own field table. Lists are
// observations: they appear in data sources only.
func listField[T, E any](name, description string, items []field[E], get func(*T) []E) field[T] {
	itemType := objectType(items)
	return field[T]{
		name: name, description: description, kind: kindList, views: observed,
		typ:    tftypes.List{ElementType: itemType},
		nested: dataAttributes(items, nil),
		value: func(o *T) tftypes.Value {
			elems := get(o)
			out := make([]tftypes.Value, 0, len(elems))
			for i := range elems {
				out = append(out, objectValue(itemType, items, &elems[i]))
			}
			return tftypes.NewValue(tftypes.List{ElementType: itemType}, out)
		},
	}
}

func int64Value(n int64) tftypes.Value {
	return tftypes.NewValue(tftypes.Number, new(big.Float).SetInt64(n))
}

// in restricts where the field appears.
func (f field[T]) in(v view) field[T] { f.views = v; return f }

// input makes the field a user input of the resource, changed in place.
func (f field[T]) input() field[T] { f.role = required; return f }

// replacing makes the field a user input of the resource whose change replaces the object.
func (f field[T]) replacing() field[T] { f.role = requiredReplace; return f }

func (f field[T]) validate(rules ...validator.String) field[T] { f.stringRules = rules; return f }

func (f field[T]) validateInt64(rules ...validator.Int64) field[T] { f.int64Rules = rules; return f }

// sameString keeps the prior string when the manager's spelling means the same.
func (f field[T]) sameString(same func(prior, fresh string) bool) field[T] {
	f.same = func(prior, fresh tftypes.Value) bool {
		p, okP := stringOf(prior)
		q, okQ := stringOf(fresh)
		return okP && okQ && same(p, q)
	}
	return f
}

// resourceAttribute is the field as an attribute of the managed resource of the given
// noun ("node"); its description says how a change is applied.
func (f field[T]) resourceAttribute(noun string) rschema.Attribute {
	computed := f.role == computedStable
	userInput := !computed
	description := f.description
	switch f.role {
	case required:
		description += " Updated in place."
	case requiredReplace:
		description += " Changing it replaces the " + noun + "."
	}
	switch f.kind {
	case kindInt64:
		return rschema.Int64Attribute{
			MarkdownDescription: description, Required: userInput, Computed: computed, Validators: f.int64Rules,
			PlanModifiers: roleModifiers(f.role, int64planmodifier.UseStateForUnknown, int64planmodifier.RequiresReplace),
		}
	case kindBool:
		return rschema.BoolAttribute{MarkdownDescription: description, Required: userInput, Computed: computed}
	default:
		return rschema.StringAttribute{
			MarkdownDescription: description, Required: userInput, Computed: computed, Validators: f.stringRules,
			PlanModifiers: roleModifiers(f.role, stringplanmodifier.UseStateForUnknown, stringplanmodifier.RequiresReplace),
		}
	}
}

// roleModifiers are the plan modifiers of a role, for any attribute type: a value the
// manager set once keeps its state instead of showing "(known after apply)", and a
// replacing input forces replacement.
func roleModifiers[M any](r role, keepState, replace func() M) []M {
	switch r {
	case computedStable:
		return []M{keepState()}
	case requiredReplace:
		return []M{replace()}
	}
	return nil
}

// dataAttribute is the field as a data source attribute: computed, or a required lookup
// key (with the resource's validators) when key is true.
func (f field[T]) dataAttribute(key bool) dschema.Attribute {
	computed := !key
	switch f.kind {
	case kindInt64:
		a := dschema.Int64Attribute{MarkdownDescription: f.description, Required: key, Computed: computed}
		if key {
			a.Validators = f.int64Rules
		}
		return a
	case kindBool:
		return dschema.BoolAttribute{MarkdownDescription: f.description, Computed: true}
	case kindList:
		return dschema.ListNestedAttribute{
			MarkdownDescription: f.description, Computed: true,
			NestedObject: dschema.NestedAttributeObject{Attributes: f.nested},
		}
	default:
		a := dschema.StringAttribute{MarkdownDescription: f.description, Required: key, Computed: computed}
		if key {
			a.Validators = f.stringRules
		}
		return a
	}
}

// resourceAttributes are the fields of the managed resource of the given noun.
func resourceAttributes[T any](fields []field[T], noun string) map[string]rschema.Attribute {
	out := map[string]rschema.Attribute{}
	for _, f := range fields {
		if f.views&inResource != 0 {
			out[f.name] = f.resourceAttribute(noun)
		}
	}
	return out
}

// dataAttributes are the fields of a data source (all of them when only is 0), with the
// named keys as required inputs.
func dataAttributes[T any](fields []field[T], keys []string, only ...view) map[string]dschema.Attribute {
	out := map[string]dschema.Attribute{}
	for _, f := range fields {
		if len(only) > 0 && f.views&only[0] == 0 {
			continue
		}
		out[f.name] = f.dataAttribute(slices.Contains(keys, f.name))
	}
	return out
}

// objectType is the Terraform type of an object made of all the fields.
func objectType[T any](fields []field[T]) tftypes.Object {
	types := make(map[string]tftypes.Type, len(fields))
	for _, f := range fields {
		types[f.name] = f.typ
	}
	return tftypes.Object{AttributeTypes: types}
}

// objectValue flattens obj into a value of typ, one field per attribute.
func objectValue[T any](typ tftypes.Object, fields []field[T], obj *T) tftypes.Value {
	vals := make(map[string]tftypes.Value, len(typ.AttributeTypes))
	for _, f := range fields {
		if _, ok := typ.AttributeTypes[f.name]; ok {
			vals[f.name] = f.value(obj)
		}
	}
	return tftypes.NewValue(typ, vals)
}
