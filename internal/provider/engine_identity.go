package provider

import (
	"context"
	"fmt"
	"slices"
	"strings"
)

// identity names what identifies a managed object, part by part in import-ID order. The
// import ID format, its parser, its error text and the import ID offered when a create
// finds the object already there all come from it.
type ImportID[C any] struct {
	parts   []IDPart[C]
	example string // a valid import ID, shown in errors and docs
}

// idPart is one part of an import ID: one "/"-separated piece, or several.
type IDPart[C any] struct {
	attr string // the state attribute it fills
	form string // how it is written, such as "<system>"
	// pieces is how many "/"-separated pieces the part spans (a reference to a parent
	// such as "<system>/<node>"); 0 means one. A last part with rest takes whatever
	// follows, slashes included (a context path such as /shop).
	pieces int
	rest   bool
	// accepts says what may stand there, such as "the system's name or id" (optional).
	accepts string
	// fromPlan is the attribute whose planned value stands for this part when a create
	// conflicts; empty means attr. (A system's id is not known before it exists, but its
	// name is, and import accepts either.)
	fromPlan string
	// resolve turns what the user wrote into the value stored in attr (a system name into
	// its id, say); nil stores it as written.
	resolve func(ctx context.Context, m C, raw string) (string, error)
}

// format is the import ID's form, such as "<system>/<name>".
func (id ImportID[C]) format() string {
	forms := make([]string, len(id.parts))
	for i, p := range id.parts {
		forms[i] = p.form
	}
	return strings.Join(forms, "/")
}

// describe is the format with what each part accepts and the example.
func (id ImportID[C]) describe() string {
	var b strings.Builder
	b.WriteString(id.format())
	for _, p := range id.parts {
		if p.accepts != "" {
			fmt.Fprintf(&b, ", where %s is %s", p.form, p.accepts)
		}
	}
	fmt.Fprintf(&b, ", for example %s", id.example)
	return b.String()
}

// parse splits an import ID into its parts, each piece non-empty.
func (id ImportID[C]) parse(raw string) ([]string, error) {
	total, rest := 0, false
	for _, p := range id.parts {
		total += max(p.pieces, 1)
		rest = p.rest
	}
	n := -1
	if rest {
		n = total
	}
	pieces := strings.SplitN(raw, "/", n)
	if len(pieces) != total || slices.Contains(pieces, "") {
		return nil, fmt.Errorf("expected %s; got %q", id.describe(), raw)
	}
	out := make([]string, len(id.parts))
	for i, p := range id.parts {
		width := max(p.pieces, 1)
		out[i], pieces = strings.Join(pieces[:width], "/"), pieces[width:]
	}
	return out, nil
}

// importID is the import ID of the object a plan describes, or "" when a part of it is
// not known.
func (id ImportID[C]) importID(plan attrs) string {
	pieces := make([]string, len(id.parts))
	for i, p := range id.parts {
		name := p.fromPlan
		if name == "" {
			name = p.attr
		}
		if !plan.known(name) {
			return ""
		}
		pieces[i] = plan.str(name)
	}
	return strings.Join(pieces, "/")
}
