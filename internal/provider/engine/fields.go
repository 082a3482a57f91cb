package engine

import (
	"context"
	"math/big"
	"slices"
	"strings"

	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/numberplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// A field is one attribute of an API object: its name, description, input rules and how
// to read it from the object. One table of fields per object serves its resource, its
// singular data source and the items of its plural data source, so an attribute is
// described, validated and flattened in exactly one place.
type Field[T any] struct {
	name        string
	description string
	kind        fieldKind
	typ         tftypes.Type
	value       func(*T) tftypes.Value
	views       View
	role        role
	stringRules []validator.String
	int64Rules  []validator.Int64
	listRules   []validator.List
	// same reports whether a value from the manager means the value already in state or
	// plan (another spelling of one IP address, say), which is then kept: no false diff.
	same func(prior, fresh tftypes.Value) bool
	// nested describes the items of a list attribute (data sources only).
	nested map[string]dschema.Attribute

	// optional lets the user leave the input out. Left out, it is not managed: its state
	// stays null whatever the manager says (except right after an import, which records
	// what the manager has).
	optional bool
	// defaulted lets the user leave the input out, and then the manager's value (its
	// default) is recorded: Optional and Computed.
	defaulted bool
	// unread marks an input the manager does not report: state keeps what was applied.
	unread bool
	// absent is what leaving an optional string input out means (a server's mode left
	// out means register): a change between null and it is none, and replaces nothing.
	absent *string
	// reported says whether the manager reported the field in this read; where it did
	// not, state keeps what was applied (api/decisions.md rule 2). nil means always.
	reported func(*T) bool
	// bySettle marks an input that the type's settle applies after the create (a running
	// state): a created object that differs in it still matches the plan.
	bySettle    bool
	writeOnly   bool
	sensitive   bool
	boolDefault *bool
	// derive computes a string the manager sets from the plan's inputs (an id made of
	// them), for when the object cannot be read back; ok is false while an input is
	// unknown.
	derive func(plan Attrs) (v string, ok bool)
	// custom is the resource attribute of a field whose schema the kinds above cannot
	// express (a list of objects, a set); its value must be of the same type.
	custom rschema.Attribute
	// dataCustom is the data source attribute of such a field.
	dataCustom dschema.Attribute
}

type fieldKind int

const (
	kindString fieldKind = iota
	kindInt64
	kindBool
	kindComposite
	kindFloat   // data sources only: a float64 observation (a metric)
	kindStrings // an input list of strings (the servers of a roll, in order)
)

// View says where a field appears.
type View uint8

const (
	InResource View = 1 << iota // the managed resource: what the user manages and stable ids
	InDetail                    // the singular data source (the object's detail read)
	InList                      // items of the plural data source (the list read)

	Everywhere = InResource | InDetail | InList
	Observed   = InDetail | InList // values the manager or other resources change
)

// role is a field's part in the managed resource.
type role int

const (
	// roleComputed is set by the manager at create and never changes afterwards.
	roleComputed role = iota
	// roleInPlace is an input (required, or optional where the field says so) that an
	// update changes in place.
	roleInPlace
	// roleReplacing is an input whose change replaces the object.
	roleReplacing
)

// scalarField is a field of one value, read from the object by value.
func scalarField[T any](name, description string, kind fieldKind, typ tftypes.Type, views View, value func(*T) tftypes.Value) Field[T] {
	return Field[T]{name: name, description: description, kind: kind, typ: typ, views: views, value: value}
}

// StringField is a string attribute that get reads from the object.
func StringField[T any](name, description string, get func(*T) string) Field[T] {
	return scalarField(name, description, kindString, tftypes.String, Everywhere, func(o *T) tftypes.Value { return tftypes.NewValue(tftypes.String, get(o)) })
}

// Int64Field is a whole number attribute that get reads from the object.
func Int64Field[T any](name, description string, get func(*T) int64) Field[T] {
	return scalarField(name, description, kindInt64, tftypes.Number, Everywhere, func(o *T) tftypes.Value { return Int64Value(get(o)) })
}

// BoolField is a bool attribute that get reads from the object.
func BoolField[T any](name, description string, get func(*T) bool) Field[T] {
	return scalarField(name, description, kindBool, tftypes.Bool, Everywhere, func(o *T) tftypes.Value { return tftypes.NewValue(tftypes.Bool, get(o)) })
}

// Float64Field is a number observation (a metric): data sources only.
func Float64Field[T any](name, description string, get func(*T) float64) Field[T] {
	return scalarField(name, description, kindFloat, tftypes.Number, Observed, func(o *T) tftypes.Value { return tftypes.NewValue(tftypes.Number, big.NewFloat(get(o))) })
}

// ListField is a list of nested objects described by their own field table. Lists are
// observations: they appear in data sources only.
func ListField[T, E any](name, description string, items []Field[E], get func(*T) []E) Field[T] {
	itemType := ObjectType(items)
	return Field[T]{
		name: name, description: description, kind: kindComposite, views: Observed,
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

// InputField is a user input that the manager does not report back (a mode, a password):
// state keeps what was applied. Its type is typ (tftypes.String, Number, Bool or a List
// of String).
func InputField[T any](name, description string, typ tftypes.Type) Field[T] {
	kind := kindString
	switch {
	case typ.Is(tftypes.Number):
		kind = kindInt64
	case typ.Is(tftypes.Bool):
		kind = kindBool
	case typ.Is(tftypes.List{ElementType: tftypes.String}):
		kind = kindStrings
	}
	return Field[T]{name: name, description: description, kind: kind, typ: typ, views: InResource, role: roleInPlace, unread: true}
}

// CustomField is a resource attribute with its own schema (a list of objects, a set);
// value must return values of the attribute's type.
func CustomField[T any](name string, attribute rschema.Attribute, typ tftypes.Type, value func(*T) tftypes.Value) Field[T] {
	return Field[T]{name: name, description: attribute.GetMarkdownDescription(), kind: kindComposite, typ: typ, views: InResource, role: roleInPlace, custom: attribute, value: value}
}

func Int64Value(n int64) tftypes.Value {
	return tftypes.NewValue(tftypes.Number, new(big.Float).SetInt64(n))
}

// WithDataAttribute gives a custom field its data source attribute (computed) and shows
// it in data sources too.
func (f Field[T]) WithDataAttribute(a dschema.Attribute) Field[T] {
	f.dataCustom, f.views = a, Everywhere
	return f
}

// NullWhen makes the value null for objects where absent holds (a date the manager gave
// in no known format, a list that was not asked for).
func (f Field[T]) NullWhen(absent func(*T) bool) Field[T] {
	present := f.value
	f.value = func(o *T) tftypes.Value {
		if absent(o) {
			return tftypes.NewValue(f.typ, nil)
		}
		return present(o)
	}
	return f
}

// ZeroIsNull makes the manager's zero value ("" or 0) null: the manager reports a port
// or a path it does not have as 0 or "", and absent means null, so that a value never
// breaks the attribute's own validators (a port of 0) or plans a change from "" to null.
func (f Field[T]) ZeroIsNull() Field[T] {
	present := f.value
	f.value = func(o *T) tftypes.Value {
		v := present(o)
		if isZero(v) {
			return tftypes.NewValue(f.typ, nil)
		}
		return v
	}
	return f
}

// isZero reports whether v is "" or 0.
func isZero(v tftypes.Value) bool {
	var s string
	if v.Type().Is(tftypes.String) && v.IsKnown() && !v.IsNull() && v.As(&s) == nil {
		return s == ""
	}
	var n big.Float
	if v.Type().Is(tftypes.Number) && v.IsKnown() && !v.IsNull() && v.As(&n) == nil {
		return n.Sign() == 0
	}
	return false
}

// In restricts where the field appears.
func (f Field[T]) In(v View) Field[T] { f.views = v; return f }

// Input makes the field a user input of the resource, changed in place.
func (f Field[T]) Input() Field[T] { f.role = roleInPlace; return f }

// Replacing makes the field a user input of the resource whose change replaces the object.
func (f Field[T]) Replacing() Field[T] { f.role = roleReplacing; return f }

// OptionalInput makes the field an input the user may leave out; then it is not managed.
func (f Field[T]) OptionalInput() Field[T] {
	if f.role == roleComputed {
		f.role = roleInPlace
	}
	f.optional = true
	return f
}

// DefaultedInput makes the field an input the user may leave out; then the manager's
// value is recorded.
func (f Field[T]) DefaultedInput() Field[T] {
	if f.role == roleComputed {
		f.role = roleInPlace
	}
	f.defaulted = true
	return f
}

// AbsentMeans says what leaving the optional string input out means: setting it to v, or
// leaving out a v that was set, replaces nothing.
func (f Field[T]) AbsentMeans(v string) Field[T] { f.absent = &v; return f }

// ReportedWhen keeps the applied value where the manager did not report the field.
func (f Field[T]) ReportedWhen(reported func(*T) bool) Field[T] { f.reported = reported; return f }

// writeOnlyInput is an optional input that Terraform never stores (Terraform 1.11 and
// later, OpenTofu): the engine takes it from the configuration.
func (f Field[T]) writeOnlyInput() Field[T] {
	f.writeOnly, f.optional, f.unread = true, true, true
	return f
}

// DerivedFrom lets a string the manager sets be computed from the plan (see field.derive).
func (f Field[T]) DerivedFrom(derive func(plan Attrs) (string, bool)) Field[T] {
	f.derive = derive
	return f
}

// Joined derives a value from inputs joined by "/", such as <system_id>/<name>.
func Joined(inputs ...string) func(Attrs) (string, bool) {
	return func(plan Attrs) (string, bool) {
		parts := make([]string, len(inputs))
		for i, in := range inputs {
			if !plan.Known(in) {
				return "", false
			}
			parts[i] = plan.Str(in)
		}
		return strings.Join(parts, "/"), true
	}
}

// AppliedBySettle marks an input that the type's settle applies (see field.bySettle).
func (f Field[T]) AppliedBySettle() Field[T] { f.bySettle = true; return f }

// secret marks the attribute sensitive.
func (f Field[T]) secret() Field[T] { f.sensitive = true; return f }

// WithDefault gives an optional bool input its default.
func (f Field[T]) WithDefault(v bool) Field[T] { f.boolDefault, f.defaulted = &v, true; return f }

func (f Field[T]) Validate(rules ...validator.String) Field[T] { f.stringRules = rules; return f }

func (f Field[T]) ValidateInt64(rules ...validator.Int64) Field[T] { f.int64Rules = rules; return f }

// ValidateList sets the validators of a list input.
func (f Field[T]) ValidateList(rules ...validator.List) Field[T] { f.listRules = rules; return f }

// SameString keeps the prior string when the manager's spelling means the same.
func (f Field[T]) SameString(same func(prior, fresh string) bool) Field[T] {
	f.same = func(prior, fresh tftypes.Value) bool {
		p, okP := StringOf(prior)
		q, okQ := StringOf(fresh)
		return okP && okQ && same(p, q)
	}
	return f
}

// resourceAttribute is the field as an attribute of the managed resource of the given
// noun ("node"); its description says how a change is applied.
func (f Field[T]) resourceAttribute(noun string) rschema.Attribute {
	if f.custom != nil {
		return f.custom
	}
	computed := f.role == roleComputed || f.defaulted
	optional := f.role != roleComputed && (f.optional || f.defaulted)
	req := f.role != roleComputed && !optional
	description := f.description
	switch f.role {
	case roleInPlace:
		description += " Updated in place."
	case roleReplacing:
		description += " Changing it replaces the " + noun + "."
	}
	shape := fieldShape{role: f.role, keepState: f.role == roleComputed || (f.defaulted && f.boolDefault == nil), unread: f.unread}
	switch f.kind {
	case kindInt64:
		// A Number, checked to be whole by the provider: the framework's Int64 refuses
		// 7730.5 with a conversion error that blames the provider. The type in state is
		// the same (number).
		return rschema.NumberAttribute{
			MarkdownDescription: description, Required: req, Optional: optional, Computed: computed, WriteOnly: f.writeOnly,
			Validators:    []validator.Number{wholeNumber{f.int64Rules}},
			PlanModifiers: roleModifiers(shape, numberplanmodifier.UseStateForUnknown, numberplanmodifier.RequiresReplace, numberReplaceUnlessImported),
		}
	case kindStrings:
		return rschema.ListAttribute{
			MarkdownDescription: description, ElementType: types.StringType, Required: req, Optional: optional, Validators: f.listRules,
		}
	case kindBool:
		a := rschema.BoolAttribute{
			MarkdownDescription: description, Required: req, Optional: optional, Computed: computed, WriteOnly: f.writeOnly,
			PlanModifiers: roleModifiers(shape, boolplanmodifier.UseStateForUnknown, boolplanmodifier.RequiresReplace, boolReplaceUnlessImported),
		}
		if f.boolDefault != nil {
			a.Default = booldefault.StaticBool(*f.boolDefault)
		}
		return a
	default:
		return rschema.StringAttribute{
			MarkdownDescription: description, Required: req, Optional: optional, Computed: computed, Validators: f.stringRules,
			Sensitive: f.sensitive, WriteOnly: f.writeOnly,
			PlanModifiers: roleModifiers(shape, stringplanmodifier.UseStateForUnknown, stringplanmodifier.RequiresReplace,
				func() planmodifier.String { return stringReplaceUnlessImported(f.absent) }),
		}
	}
}

// roleModifiers are the plan modifiers of a field, for any attribute type: a value the
// manager set keeps its state instead of showing "(known after apply)", and a replacing
// input forces replacement, except for an input the manager does not report (unread),
// which is null right after an import: setting it then is recorded without replacing.
func roleModifiers[M any](f fieldShape, useState, replace, replaceUnlessImported func() M) []M {
	var out []M
	if f.keepState {
		out = append(out, useState())
	}
	switch {
	case f.role != roleReplacing:
	case f.unread:
		out = append(out, replaceUnlessImported())
	default:
		out = append(out, replace())
	}
	return out
}

// fieldShape is what roleModifiers needs of a field, whatever its object type.
type fieldShape struct {
	role      role
	keepState bool
	unread    bool
}

// privateState reads a resource's private state (the framework's type is internal).
type privateState interface {
	GetKey(ctx context.Context, key string) ([]byte, diag.Diagnostics)
}

// importedKey marks, in the private state, a resource imported and not applied since:
// its unread inputs are null because the manager does not report them.
const importedKey = "imported"

func imported(ctx context.Context, p privateState) bool {
	if p == nil {
		return false
	}
	v, _ := p.GetKey(ctx, importedKey)
	return len(v) > 0
}

// replaces tells whether a change of an unread input replaces the object: always, but
// when its state is null right after an import.
func replaces(ctx context.Context, stateNull bool, p privateState) bool {
	return !stateNull || !imported(ctx, p)
}

// replaceDescription describes the conditional replacement of an unread input.
const replaceDescription = "Changing it replaces the object, except right after an import, when the value is only recorded."

// stringReplaceUnlessImported is the replacement of an unread string input; a value that
// means what leaving it out means (absent, when not nil) is no change.
func stringReplaceUnlessImported(absent *string) planmodifier.String {
	meaning := func(v types.String) string {
		if v.IsNull() && absent != nil {
			return *absent
		}
		return v.ValueString()
	}
	return stringplanmodifier.RequiresReplaceIf(func(ctx context.Context, req planmodifier.StringRequest, resp *stringplanmodifier.RequiresReplaceIfFuncResponse) {
		resp.RequiresReplace = meaning(req.StateValue) != meaning(req.PlanValue) && replaces(ctx, req.StateValue.IsNull(), req.Private)
	}, replaceDescription, replaceDescription)
}

func numberReplaceUnlessImported() planmodifier.Number {
	return numberplanmodifier.RequiresReplaceIf(func(ctx context.Context, req planmodifier.NumberRequest, resp *numberplanmodifier.RequiresReplaceIfFuncResponse) {
		resp.RequiresReplace = replaces(ctx, req.StateValue.IsNull(), req.Private)
	}, replaceDescription, replaceDescription)
}

func boolReplaceUnlessImported() planmodifier.Bool {
	return boolplanmodifier.RequiresReplaceIf(func(ctx context.Context, req planmodifier.BoolRequest, resp *boolplanmodifier.RequiresReplaceIfFuncResponse) {
		resp.RequiresReplace = replaces(ctx, req.StateValue.IsNull(), req.Private)
	}, replaceDescription, replaceDescription)
}

// dataAttribute is the field as a data source attribute: computed, or a required lookup
// key (with the resource's validators) when key is true.
func (f Field[T]) dataAttribute(key bool) dschema.Attribute {
	if f.dataCustom != nil {
		return f.dataCustom
	}
	computed := !key
	switch f.kind {
	case kindInt64:
		if key {
			return dschema.NumberAttribute{MarkdownDescription: f.description, Required: true, Validators: []validator.Number{wholeNumber{f.int64Rules}}}
		}
		return dschema.Int64Attribute{MarkdownDescription: f.description, Computed: true}
	case kindBool:
		return dschema.BoolAttribute{MarkdownDescription: f.description, Computed: true}
	case kindFloat:
		return dschema.Float64Attribute{MarkdownDescription: f.description, Computed: true}
	case kindComposite:
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
func resourceAttributes[T any](fields []Field[T], noun string) map[string]rschema.Attribute {
	out := map[string]rschema.Attribute{}
	for _, f := range fields {
		if f.views&InResource != 0 {
			out[f.name] = f.resourceAttribute(noun)
		}
	}
	return out
}

// dataAttributes are the fields of a data source (all of them when only is 0), with the
// named keys as required inputs.
func dataAttributes[T any](fields []Field[T], keys []string, only ...View) map[string]dschema.Attribute {
	out := map[string]dschema.Attribute{}
	for _, f := range fields {
		if len(only) > 0 && f.views&only[0] == 0 {
			continue
		}
		out[f.name] = f.dataAttribute(slices.Contains(keys, f.name))
	}
	return out
}

// ObjectType is the Terraform type of an object made of all the fields.
func ObjectType[T any](fields []Field[T]) tftypes.Object {
	types := make(map[string]tftypes.Type, len(fields))
	for _, f := range fields {
		types[f.name] = f.typ
	}
	return tftypes.Object{AttributeTypes: types}
}

// objectValue flattens obj into a value of typ, one field per attribute.
func objectValue[T any](typ tftypes.Object, fields []Field[T], obj *T) tftypes.Value {
	vals := make(map[string]tftypes.Value, len(typ.AttributeTypes))
	for _, f := range fields {
		if _, ok := typ.AttributeTypes[f.name]; ok {
			vals[f.name] = f.value(obj)
		}
	}
	return tftypes.NewValue(typ, vals)
}
