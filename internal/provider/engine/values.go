package engine

import (
	"fmt"
	"math/big"
	"slices"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// Attrs is one object's top-level attribute values as Terraform sent them (plan, state
// or config). The engine reads and writes attributes by name: no reflection into model
// structs on the hot path of a refresh.
type Attrs map[string]tftypes.Value

// AttrsOf splits an object value into its attributes; a null object has none.
func AttrsOf(v tftypes.Value) (Attrs, error) {
	out := Attrs{}
	if v.IsNull() || !v.IsKnown() {
		return out, nil
	}
	if err := v.As((*map[string]tftypes.Value)(&out)); err != nil {
		return nil, fmt.Errorf("reading attributes: %w", err)
	}
	return out, nil
}

// Known reports whether the attribute has a known, non-null value.
func (a Attrs) Known(name string) bool {
	v, ok := a[name]
	return ok && v.IsKnown() && !v.IsNull()
}

// Str is a string attribute, "" when null or unknown.
func (a Attrs) Str(name string) string {
	s, _ := StringOf(a[name])
	return s
}

// Bool is a bool attribute, false when null or unknown.
func (a Attrs) Bool(name string) bool {
	var b bool
	if a.Known(name) {
		_ = a[name].As(&b)
	}
	return b
}

// Int64 is a number attribute, 0 when null or unknown.
func (a Attrs) Int64(name string) int64 {
	v := a[name]
	if !v.IsKnown() || v.IsNull() {
		return 0
	}
	var f big.Float
	if err := v.As(&f); err != nil {
		return 0
	}
	n, _ := f.Int64()
	return n
}

// Strs is a list of strings attribute, nil when null or unknown; unknown or null
// elements read as "".
func (a Attrs) Strs(name string) []string {
	var elems []tftypes.Value
	if !a.Known(name) || a[name].As(&elems) != nil {
		return nil
	}
	out := make([]string, len(elems))
	for i, e := range elems {
		out[i], _ = StringOf(e)
	}
	return out
}

// StrMap is a map of strings attribute, nil when null or unknown.
func (a Attrs) StrMap(name string) map[string]string {
	var elems map[string]tftypes.Value
	if !a.Known(name) || a[name].As(&elems) != nil {
		return nil
	}
	out := make(map[string]string, len(elems))
	for k, e := range elems {
		out[k], _ = StringOf(e)
	}
	return out
}

// With returns a copy with name set to v.
func (a Attrs) With(name string, v tftypes.Value) Attrs {
	out := make(Attrs, len(a)+1)
	for k, old := range a {
		out[k] = old
	}
	out[name] = v
	return out
}

func StringOf(v tftypes.Value) (string, bool) {
	if v.Type() == nil || !v.IsKnown() || v.IsNull() || !v.Type().Is(tftypes.String) {
		return "", false
	}
	var s string
	if err := v.As(&s); err != nil {
		return "", false
	}
	return s, true
}

// Flatten builds an object of type typ from obj. Each attribute that is a field takes
// the manager's value, unless the field says that value means the prior one; attributes
// named in fromPrior (data source lookup keys) and attributes that are not fields
// (timeouts) keep their prior value. See fieldValue for inputs.
func Flatten[T any](typ tftypes.Object, fields []Field[T], obj *T, prior Attrs, fromPrior ...string) tftypes.Value {
	return flattenAs(typ, fields, obj, prior, false, fromPrior...)
}

// flattenAs is flatten; importing records the manager's value of optional inputs that
// prior leaves out, as an import has nothing else to go by.
func flattenAs[T any](typ tftypes.Object, fields []Field[T], obj *T, prior Attrs, importing bool, fromPrior ...string) tftypes.Value {
	byName := make(map[string]*Field[T], len(fields))
	for i := range fields {
		byName[fields[i].name] = &fields[i]
	}
	vals := make(map[string]tftypes.Value, len(typ.AttributeTypes))
	for name, t := range typ.AttributeTypes {
		f, isField := byName[name]
		old, hasOld := prior[name]
		switch {
		case isField && !slices.Contains(fromPrior, name):
			vals[name] = f.fieldValue(t, obj, old, hasOld && old.IsKnown(), importing)
		case hasOld && old.IsKnown():
			vals[name] = old
		default:
			vals[name] = tftypes.NewValue(t, nil)
		}
	}
	return tftypes.NewValue(typ, vals)
}

// fieldValue is the value to record for the field, given the manager's object and the
// prior value (from state, plan or config; hasOld when it is known):
//   - a write-only input is never recorded;
//   - an input the manager does not report keeps the prior value, else its default;
//   - an optional input the user left out stays null (it is not managed);
//   - a field the manager did not report this time keeps the prior value;
//   - otherwise the manager's value, or the prior spelling when the two mean the same.
func (f *Field[T]) fieldValue(t tftypes.Type, obj *T, old tftypes.Value, hasOld, importing bool) tftypes.Value {
	switch {
	case f.writeOnly:
		return tftypes.NewValue(t, nil)
	case f.unread && hasOld && !old.IsNull():
		return old
	case f.unread && f.boolDefault != nil:
		return tftypes.NewValue(tftypes.Bool, *f.boolDefault)
	case f.unread:
		return tftypes.NewValue(t, nil)
	case f.optional && !importing && (!hasOld || old.IsNull()):
		return tftypes.NewValue(t, nil)
	case f.reported != nil && !f.reported(obj) && hasOld && old.IsFullyKnown():
		return old
	}
	fresh := f.value(obj)
	if !hasOld {
		return fresh
	}
	if f.same != nil && f.same(old, fresh) {
		return old
	}
	return fresh
}

// recorded is what the engine stores when it cannot read an object it wrote: the plan,
// with the values that only the manager knows left null rather than unknown, except
// those a field derives from the plan (a node's id from its system's id and its name),
// so that resources referring to it can still be created in the same run.
func recorded[T any](typ tftypes.Object, fields []Field[T], plan Attrs) tftypes.Value {
	derive := map[string]func(Attrs) (string, bool){}
	for _, f := range fields {
		if f.derive != nil {
			derive[f.name] = f.derive
		}
	}
	vals := make(map[string]tftypes.Value, len(typ.AttributeTypes))
	for name, t := range typ.AttributeTypes {
		v, ok := plan[name]
		if !ok || !v.IsFullyKnown() {
			v = tftypes.NewValue(t, nil)
			if d, has := derive[name]; has {
				if s, known := d(plan); known {
					v = tftypes.NewValue(tftypes.String, s)
				}
			}
		}
		vals[name] = v
	}
	return tftypes.NewValue(typ, vals)
}
