package main

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	tfjson "github.com/hashicorp/terraform-json"
)

// A finding is one line of the report: its kind (drift, change or check), the address
// it is about and what was found there.
type finding struct {
	kind, address, detail string
}

const (
	kindDrift  = "drift"
	kindChange = "change"
	kindCheck  = "check"
)

// findings reads a plan: the managed resources changed outside Terraform (resource_drift),
// those apply would change (resource_changes), and the checks that fail. They come sorted
// by kind, address and detail, without repeats. Data sources, no-op changes and outputs
// are no drift: data sources are read again in every plan.
func findings(plan *tfjson.Plan) []finding {
	var out []finding
	for _, rc := range plan.ResourceDrift {
		if rc.Mode != tfjson.ManagedResourceMode || rc.Change == nil {
			continue
		}
		if rc.Change.Actions.Delete() {
			out = append(out, finding{kindDrift, rc.Address, "deleted outside Terraform"})
			continue
		}
		// A drift entry whose attributes all match is no drift (a CLI may list one after
		// comparing numbers of different precision).
		for _, d := range changedAttributes(rc.Change) {
			out = append(out, finding{kindDrift, rc.Address, d})
		}
	}
	for _, rc := range plan.ResourceChanges {
		if rc.Mode != tfjson.ManagedResourceMode || rc.Change == nil || rc.Change.Actions.NoOp() || rc.Change.Actions.Read() {
			continue
		}
		out = append(out, changeFindings(rc)...)
	}
	for _, c := range plan.Checks {
		if c.Status != tfjson.CheckStatusFail && c.Status != tfjson.CheckStatusError {
			continue
		}
		out = append(out, finding{kindCheck, c.Address.ToDisplay, checkMessage(c)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].line() < out[j].line() })
	return compact(out)
}

// changeFindings are what apply would do to one resource.
func changeFindings(rc *tfjson.ResourceChange) []finding {
	actions := rc.Change.Actions
	switch {
	case actions.Create():
		return []finding{{kindChange, rc.Address, "to be created"}}
	case actions.Delete():
		return []finding{{kindChange, rc.Address, "to be destroyed"}}
	}
	changed := changedAttributes(rc.Change)
	if len(changed) == 0 {
		names := make([]string, len(actions))
		for i, a := range actions {
			names[i] = string(a)
		}
		return []finding{{kindChange, rc.Address, strings.Join(names, ",")}}
	}
	note := " (replace)"
	if actions.Update() {
		note = " (update)"
	}
	out := make([]finding, len(changed))
	for i, d := range changed {
		out[i] = finding{kindChange, rc.Address + note, d}
	}
	return out
}

// checkMessage is the problems of a failing check, one after the other.
func checkMessage(c tfjson.CheckResultStatic) string {
	var msgs []string
	for _, inst := range c.Instances {
		for _, p := range inst.Problems {
			msgs = append(msgs, p.Message)
		}
	}
	if len(msgs) == 0 {
		return fmt.Sprintf("(%s, no message)", c.Status)
	}
	return strings.ReplaceAll(strings.Join(msgs, "\n"), "\n", " / ")
}

// changedAttributes names each attribute (a path such as roles.1) whose value differs
// between before and after, or is unknown until apply, with both values; sensitive values
// are not shown.
func changedAttributes(c *tfjson.Change) []string {
	before, after := leaves(c.Before), leaves(c.After)
	unknown := trueLeaves(c.AfterUnknown)
	sensitive := trueLeaves(c.BeforeSensitive)
	for p := range trueLeaves(c.AfterSensitive) {
		sensitive[p] = true
	}
	paths := map[string]bool{}
	for _, m := range []map[string]string{before, after} {
		for p := range m {
			paths[p] = true
		}
	}
	for p := range unknown {
		paths[p] = true
	}
	var out []string
	for p := range paths {
		b, a := valueAt(before, p), valueAt(after, p)
		if b == a && !unknown[p] {
			continue
		}
		switch {
		case underSensitive(sensitive, p):
			out = append(out, p+": (sensitive value changed)")
		case unknown[p]:
			out = append(out, p+": "+shown(b)+" -> (known after apply)")
		default:
			out = append(out, p+": "+shown(b)+" -> "+shown(a))
		}
	}
	return out
}

// absent is how a side of a change that lacks the attribute is shown.
const absent = "(none)"

func valueAt(values map[string]string, p string) string {
	if v, ok := values[p]; ok {
		return v
	}
	return absent
}

// underSensitive reports whether p or one of the paths above it is marked sensitive ("" is
// the whole object).
func underSensitive(sensitive map[string]bool, p string) bool {
	if sensitive[""] {
		return true
	}
	prefix := ""
	for _, part := range strings.Split(p, ".") {
		if prefix == "" {
			prefix = part
		} else {
			prefix += "." + part
		}
		if sensitive[prefix] {
			return true
		}
	}
	return false
}

// leaves flattens a value of the plan's JSON into its scalars (and empty objects and
// lists) by path, keys and indices joined by ".", each as JSON. A whole value that is
// null or empty has no leaves.
func leaves(v any) map[string]string {
	out := map[string]string{}
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		join := func(k string) string {
			if prefix == "" {
				return k
			}
			return prefix + "." + k
		}
		switch t := v.(type) {
		case map[string]any:
			if len(t) == 0 && prefix != "" {
				out[prefix] = "{}"
			}
			for k, e := range t {
				walk(join(k), e)
			}
		case []any:
			if len(t) == 0 && prefix != "" {
				out[prefix] = "[]"
			}
			for i, e := range t {
				walk(join(strconv.Itoa(i)), e)
			}
		default:
			if prefix != "" {
				out[prefix] = scalarJSON(t)
			}
		}
	}
	walk("", v)
	return out
}

// trueLeaves are the paths of a sensitivity or unknown-ness mask that are true; a mask
// that is true as a whole is the path "".
func trueLeaves(mask any) map[string]bool {
	out := map[string]bool{}
	if b, ok := mask.(bool); ok {
		out[""] = b
		return out
	}
	for p, v := range leaves(mask) {
		if v == "true" {
			out[p] = true
		}
	}
	return out
}

func scalarJSON(v any) string {
	if f, ok := v.(float64); ok {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// maxShown bounds a value in the report: a long one (a certificate) is cut.
const maxShown = 120

// shown is a value as the report shows it: strings in quotes with newlines escaped, long
// ones cut.
func shown(v string) string {
	if strings.HasPrefix(v, `"`) {
		var s string
		if err := json.Unmarshal([]byte(v), &s); err == nil {
			v = `"` + s + `"`
		}
	}
	v = strings.ReplaceAll(v, "\n", `\n`)
	if len(v) > maxShown {
		return v[:maxShown-3] + "..."
	}
	return v
}

// line is the finding as one line, its fields separated by tabs (a tab in the detail is a
// space), the order of the report.
func (f finding) line() string {
	return f.kind + "\t" + f.address + "\t" + strings.ReplaceAll(f.detail, "\t", " ")
}

// compact drops repeats from a sorted list.
func compact(sorted []finding) []finding {
	out := sorted[:0]
	for i, f := range sorted {
		if i == 0 || f != sorted[i-1] {
			out = append(out, f)
		}
	}
	return out
}
