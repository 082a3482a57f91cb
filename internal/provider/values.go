package provider

import (
	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// listElements splits a list or set value into its elements; nil when it is null or
// unknown.
func listElements(v tftypes.Value) []tftypes.Value {
	if v.Type() == nil || !v.IsKnown() || v.IsNull() {
		return nil
	}
	var elems []tftypes.Value
	if err := v.As(&elems); err != nil {
		return nil
	}
	return elems
}

// mapElements splits a map value into its elements by key; nil when it is null or
// unknown.
func mapElements(v tftypes.Value) map[string]tftypes.Value {
	if v.Type() == nil || !v.IsKnown() || v.IsNull() {
		return nil
	}
	var elems map[string]tftypes.Value
	if err := v.As(&elems); err != nil {
		return nil
	}
	return elems
}

// objectAttrs splits an object value into its attributes.
func objectAttrs(v tftypes.Value) engine.Attrs {
	a, err := engine.AttrsOf(v)
	if err != nil {
		return engine.Attrs{}
	}
	return a
}

var stringSetType = tftypes.Set{ElementType: tftypes.String}

func stringSetValue(items []string) tftypes.Value {
	out := make([]tftypes.Value, 0, len(items))
	for _, s := range items {
		out = append(out, tftypes.NewValue(tftypes.String, s))
	}
	return tftypes.NewValue(stringSetType, out)
}

// stringsOf is the known strings of a set or list value.
func stringsOf(v tftypes.Value) []string {
	var out []string
	for _, e := range listElements(v) {
		if s, ok := engine.StringOf(e); ok {
			out = append(out, s)
		}
	}
	return out
}
