package engine

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// Provider functions parse and build the composite IDs that the provider hands out (a
// node's <system>/<name>, a server's <system>/<node>/<server_id>, ...): one pair for each
// distinct form that the resource types' ImportID declarations make, named after what the
// form identifies (ImportID.Noun, else the type's name), with one field per piece named
// after the piece's form. Nothing is written per type.

// IDForm is the shape of one import ID, as its functions need it.
type IDForm struct {
	Noun    string   // what the ID identifies, such as "server"
	Pieces  []string // the names of its "/"-separated pieces, such as system, node, server_id
	Format  string   // such as <system>/<node>/<server_id>
	Example string
	rest    bool // the last piece takes whatever follows, slashes included
	parse   func(raw string) ([]string, error)
}

// IDForm is the shape of the type's import ID.
func (r *Resource[T, C]) IDForm() IDForm {
	id := r.Type.ImportID
	form := IDForm{Noun: id.Noun, Format: id.format(), Example: id.Example}
	if form.Noun == "" {
		form.Noun = r.Type.Name
	}
	for _, p := range id.Parts {
		for _, piece := range strings.Split(p.Form, "/") {
			form.Pieces = append(form.Pieces, strings.Trim(piece, "<>"))
		}
		form.rest = p.Rest
	}
	form.parse = func(raw string) ([]string, error) {
		parts, err := id.Parse(raw)
		if err != nil {
			return nil, err
		}
		var pieces []string
		for i, p := range id.Parts {
			if p.Rest {
				pieces = append(pieces, parts[i])
				continue
			}
			pieces = append(pieces, strings.Split(parts[i], "/")...)
		}
		return pieces, nil
	}
	return form
}

// idFormer is what a resource offers its functions.
type idFormer interface {
	IDForm() IDForm
	TypeName() string
}

// IDFunctions makes the parse_<noun>_id and build_<noun>_id functions of every composite
// import ID (two pieces or more) among the resources. Two forms of one noun that differ
// are a declaration error: it panics, and the provider's tests catch it.
func IDFunctions(resources []func() resource.Resource) []func() function.Function {
	byNoun := map[string]IDForm{}
	var nouns []string
	for _, newResource := range resources {
		r, ok := newResource().(idFormer)
		if !ok {
			continue
		}
		form := r.IDForm()
		if len(form.Pieces) < 2 {
			continue
		}
		if seen, ok := byNoun[form.Noun]; ok {
			if seen.Format != form.Format {
				panic(fmt.Sprintf("%s: import ID noun %q is %s here and %s elsewhere", r.TypeName(), form.Noun, form.Format, seen.Format))
			}
			continue
		}
		byNoun[form.Noun] = form
		nouns = append(nouns, form.Noun)
	}
	slices.Sort(nouns)
	out := make([]func() function.Function, 0, 2*len(nouns))
	for _, noun := range nouns {
		form := byNoun[noun]
		out = append(out,
			func() function.Function { return parseIDFunction{form} },
			func() function.Function { return buildIDFunction{form} })
	}
	return out
}

// objectType is the object a parse function returns: one string per piece.
func (f IDForm) objectType() map[string]attr.Type {
	out := make(map[string]attr.Type, len(f.Pieces))
	for _, p := range f.Pieces {
		out[p] = types.StringType
	}
	return out
}

// noun is the noun in words, such as "WAS application".
func (f IDForm) noun() string {
	words := strings.ReplaceAll(f.Noun, "_", " ")
	if rest, ok := strings.CutPrefix(words, "was "); ok {
		return "WAS " + rest
	}
	return words
}

// expected says what the ID looks like.
func (f IDForm) expected() string {
	return fmt.Sprintf("expected %s, for example %q", f.Format, f.Example)
}

type parseIDFunction struct{ form IDForm }

func (p parseIDFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "parse_" + p.form.Noun + "_id"
}

func (p parseIDFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	example := fmt.Sprintf("provider::apm::parse_%s_id(%q).%s", p.form.Noun, p.form.Example, p.form.Pieces[len(p.form.Pieces)-2])
	resp.Definition = function.Definition{
		Summary: fmt.Sprintf("Splits a %s ID into its parts", p.form.noun()),
		MarkdownDescription: fmt.Sprintf("Splits the ID `%s` into an object with the attributes %s, such as `%s`. "+
			"It accepts what the `id` attribute holds and what `terraform import` takes. An ID of another form is an error that gives the form and an example.",
			p.form.Format, backquoted(p.form.Pieces), example),
		Parameters: []function.Parameter{function.StringParameter{Name: "id", MarkdownDescription: fmt.Sprintf("The ID, such as `%s`.", p.form.Example)}},
		Return:     function.ObjectReturn{AttributeTypes: p.form.objectType()},
	}
}

func (p parseIDFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var raw string
	resp.Error = function.ConcatFuncErrors(req.Arguments.Get(ctx, &raw))
	if resp.Error != nil {
		return
	}
	pieces, err := p.form.parse(raw)
	if err != nil {
		resp.Error = function.NewArgumentFuncError(0, fmt.Sprintf("%q is not a %s ID: %s", raw, p.form.noun(), p.form.expected()))
		return
	}
	values := make(map[string]attr.Value, len(pieces))
	for i, name := range p.form.Pieces {
		values[name] = types.StringValue(pieces[i])
	}
	result, diags := types.ObjectValue(p.form.objectType(), values)
	resp.Error = function.ConcatFuncErrors(resp.Error, function.FuncErrorFromDiags(ctx, diags))
	if resp.Error == nil {
		resp.Error = resp.Result.Set(ctx, result)
	}
}

type buildIDFunction struct{ form IDForm }

func (b buildIDFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "build_" + b.form.Noun + "_id"
}

func (b buildIDFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	params := make([]function.Parameter, len(b.form.Pieces))
	for i, name := range b.form.Pieces {
		params[i] = function.StringParameter{Name: name, MarkdownDescription: fmt.Sprintf("The `%s` piece of `%s`.", name, b.form.Format)}
	}
	resp.Definition = function.Definition{
		Summary: fmt.Sprintf("Joins the parts of a %s ID", b.form.noun()),
		MarkdownDescription: fmt.Sprintf("Joins %s into the ID `%s`, as an import block's `id` takes it. A piece that is empty, or that holds a `/` "+
			"where the form allows none, is an error naming the piece.", backquoted(b.form.Pieces), b.form.Format),
		Parameters: params,
		Return:     function.StringReturn{},
	}
}

func (b buildIDFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	pieces := make([]string, len(b.form.Pieces))
	for i := range pieces {
		resp.Error = function.ConcatFuncErrors(resp.Error, req.Arguments.GetArgument(ctx, i, &pieces[i]))
	}
	if resp.Error != nil {
		return
	}
	for i, piece := range pieces {
		slashAllowed := i == len(pieces)-1 && b.form.rest // a context path, say
		if piece == "" || strings.Contains(piece, "/") && !slashAllowed {
			resp.Error = function.NewArgumentFuncError(int64(i), fmt.Sprintf("%s %q must be non-empty and hold no \"/\": %s",
				b.form.Pieces[i], piece, b.form.expected()))
			return
		}
	}
	resp.Error = resp.Result.Set(ctx, strings.Join(pieces, "/"))
}

func backquoted(names []string) string {
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = "`" + n + "`"
	}
	return strings.Join(quoted, ", ")
}
