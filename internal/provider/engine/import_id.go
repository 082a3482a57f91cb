package engine

import (
	"context"
	"fmt"
	"slices"
	"strings"
)

// ImportID names what identifies a managed object, part by part in import-ID order. The
// import ID format, its parser, its error text and the import ID offered when a create
// finds the object already there all come from it.
type ImportID[C any] struct {
	Parts   []IDPart[C]
	Example string // a valid import ID, shown in errors and docs
	// Noun is what the ID identifies, naming its provider functions (parse_<noun>_id);
	// types whose IDs have one form share one noun. Empty means the type's name.
	Noun string
}

// IDPart is one part of an import ID: one "/"-separated piece, or several.
type IDPart[C any] struct {
	Attr string // the state attribute it fills
	Form string // how it is written, such as "<system>"
	// Pieces is how many "/"-separated pieces the part spans (a reference to a parent
	// such as "<system>/<node>"); 0 means one. A last part with rest takes whatever
	// follows, slashes included (a context path such as /shop), and may be empty: an
	// object's id ending in a slash (the root context, <was_server_id>/) is its import ID.
	Pieces int
	Rest   bool
	// Accepts says what may stand there, such as "the system's name or id" (optional).
	Accepts string
	// FromPlan is the attribute whose planned value stands for this part when a create
	// conflicts; empty means attr. (A system's id is not known before it exists, but its
	// name is, and import accepts either.)
	FromPlan string
	// Resolve turns what the user wrote into the value stored in attr (a system name into
	// its id, say); nil stores it as written.
	Resolve func(ctx context.Context, m C, raw string) (string, error)
}

// format is the import ID's form, such as "<system>/<name>".
func (id ImportID[C]) format() string {
	forms := make([]string, len(id.Parts))
	for i, p := range id.Parts {
		forms[i] = p.Form
	}
	return strings.Join(forms, "/")
}

// describe is the format with what each part accepts and the example.
func (id ImportID[C]) describe() string {
	var b strings.Builder
	b.WriteString(id.format())
	for _, p := range id.Parts {
		if p.Accepts != "" {
			fmt.Fprintf(&b, ", where %s is %s", p.Form, p.Accepts)
		}
	}
	fmt.Fprintf(&b, ", for example %s", id.Example)
	return b.String()
}

// Parse splits an import ID into its parts, each piece non-empty.
func (id ImportID[C]) Parse(raw string) ([]string, error) {
	total, rest := 0, false
	for _, p := range id.Parts {
		total += max(p.Pieces, 1)
		rest = p.Rest
	}
	n := -1
	if rest {
		n = total
	}
	pieces := strings.SplitN(raw, "/", n)
	fixed := pieces
	if rest && len(pieces) == total {
		fixed = pieces[:total-1]
	}
	if len(pieces) != total || slices.Contains(fixed, "") {
		return nil, fmt.Errorf("expected %s; got %q", id.describe(), raw)
	}
	out := make([]string, len(id.Parts))
	for i, p := range id.Parts {
		width := max(p.Pieces, 1)
		out[i], pieces = strings.Join(pieces[:width], "/"), pieces[width:]
	}
	return out, nil
}

// importID is the import ID of the object a plan describes, or "" when a part of it is
// not known.
func (id ImportID[C]) importID(plan Attrs) string {
	pieces := make([]string, len(id.Parts))
	for i, p := range id.Parts {
		name := p.FromPlan
		if name == "" {
			name = p.Attr
		}
		if !plan.Known(name) {
			return ""
		}
		pieces[i] = plan.Str(name)
	}
	return strings.Join(pieces, "/")
}
