// Package doclists renders the blocks of README.md and templates/index.md.tmpl that are
// written from the code, between "generated" markers: the docs index's list of the types the
// provider serves and README.md's support matrix of CLI features. cmd/doclists writes them (run by
// scripts/docs.sh) and internal/repocheck fails when the files differ from what it would
// write; both go through this package so that they cannot disagree.
package doclists

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/apmplatform/terraform-provider-apm/internal/clifeatures"
	"github.com/apmplatform/terraform-provider-apm/internal/provider"
)

// The markers of the generated blocks. The text between a begin marker's line and its end
// marker is the block's body.
const (
	TypesBegin  = "<!-- BEGIN generated types: scripts/docs.sh writes this list from the provider's registry; do not edit -->"
	TypesEnd    = "<!-- END generated types -->"
	MatrixBegin = "<!-- BEGIN generated support matrix: scripts/docs.sh writes it from internal/clifeatures; do not edit -->"
	MatrixEnd   = "<!-- END generated support matrix -->"
)

// Type is one type the provider serves, as the docs list it.
type Type struct {
	Kind, Name, Summary string
	Page                string // docs/ page, relative to the repository; "" when there is none
}

// Kind is a kind of type, with its heading and the directory of its pages under docs/
// (the directories tfplugindocs writes).
type Kind struct{ Kind, Plural, Dir string }

// Kinds are the kinds of type in the order the docs list them.
var Kinds = []Kind{
	{"resource", "Resources", "resources"},
	{"data source", "Data sources", "data-sources"},
	{"list resource", "List resources", "list-resources"},
	{"ephemeral resource", "Ephemeral resources", "ephemeral-resources"},
	{"action", "Actions", "actions"},
	{"function", "Functions", "functions"},
}

// Schemas is the provider's schema response as the protocol serves it to a CLI, failing on
// its diagnostics.
func Schemas(ctx context.Context) (*tfprotov6.GetProviderSchemaResponse, error) {
	server, err := providerserver.NewProtocol6WithError(provider.New("doclists")())()
	if err != nil {
		return nil, fmt.Errorf("serving the provider: %w", err)
	}
	resp, err := server.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		return nil, fmt.Errorf("getting the provider's schema: %w", err)
	}
	var errs []error
	for _, d := range resp.Diagnostics {
		errs = append(errs, fmt.Errorf("schema diagnostic: %s: %s", d.Summary, d.Detail))
	}
	return resp, errors.Join(errs...)
}

// Served is every type of every kind the provider serves over the protocol, which is what a
// CLI sees: actions or ephemeral resources registered later are listed without a change
// here. A type's page is set when root (the repository) has it under docs/.
func Served(ctx context.Context, root string) ([]Type, error) {
	resp, err := Schemas(ctx)
	if err != nil {
		return nil, err
	}
	var out []Type
	add := func(kind string, names map[string]string) {
		dir := Kinds[slices.IndexFunc(Kinds, func(k Kind) bool { return k.Kind == kind })].Dir
		for name, description := range names {
			page := filepath.Join("docs", dir, strings.TrimPrefix(name, "apm_")+".md")
			if _, err := os.Stat(filepath.Join(root, page)); err != nil {
				page = "" // no page of its own (list resources are on their resource's page)
			}
			out = append(out, Type{Kind: kind, Name: name, Summary: firstSentence(description), Page: filepath.ToSlash(page)})
		}
	}
	descriptions := func(schemas map[string]*tfprotov6.Schema) map[string]string {
		m := map[string]string{}
		for name, s := range schemas {
			m[name] = s.Block.Description
		}
		return m
	}
	add("resource", descriptions(resp.ResourceSchemas))
	add("data source", descriptions(resp.DataSourceSchemas))
	add("list resource", descriptions(resp.ListResourceSchemas))
	add("ephemeral resource", descriptions(resp.EphemeralResourceSchemas))
	actions := map[string]string{}
	for name, s := range resp.ActionSchemas {
		actions[name] = s.Schema.Block.Description
	}
	add("action", actions)
	functions := map[string]string{}
	for name, f := range resp.Functions {
		functions[name] = f.Summary
	}
	add("function", functions)
	rank := func(kind string) int {
		return slices.IndexFunc(Kinds, func(k Kind) bool { return k.Kind == kind })
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Kind != out[j].Kind {
			return rank(out[i].Kind) < rank(out[j].Kind)
		}
		return out[i].Name < out[j].Name
	})
	return out, nil
}

// firstSentence is a description's first sentence, on one line and safe in a table cell.
func firstSentence(description string) string {
	s := strings.Join(strings.Fields(description), " ")
	if i := strings.Index(s, ". "); i >= 0 {
		s = s[:i+1]
	}
	return strings.ReplaceAll(s, "|", `\|`)
}

// IndexTypes is the docs index's table of every type (templates/index.md.tmpl, rendered
// into docs/index.md), with a link to its page relative to docs/: README.md links the index
// instead of carrying the list.
func IndexTypes(types []Type) string {
	var b strings.Builder
	b.WriteString("| Kind | Name | Purpose |\n| --- | --- | --- |\n")
	for _, typ := range types {
		name := "`" + typ.Name + "`"
		if typ.Page != "" {
			name = "[" + name + "](" + strings.TrimPrefix(typ.Page, "docs/") + ")"
		}
		fmt.Fprintf(&b, "| %s | %s | %s |\n", typ.Kind, name, typ.Summary)
	}
	return b.String()
}

// Block is one generated block: the file it is in (relative to the repository), its
// markers, what it is, and the body it must have.
type Block struct {
	File, Begin, End, What, Body string
}

// Blocks are the generated blocks: the list of the types in templates/index.md.tmpl and the
// support matrix in README.md.
func Blocks(types []Type) []Block {
	return []Block{
		{File: "templates/index.md.tmpl", Begin: TypesBegin, End: TypesEnd, What: "the list of types", Body: IndexTypes(types)},
		{File: "README.md", Begin: MatrixBegin, End: MatrixEnd, What: "the support matrix", Body: clifeatures.SupportMatrix()},
	}
}

// Current is the body that text holds between the block's markers.
func (b Block) Current(text string) (string, error) {
	from, to, err := b.bounds(text)
	if err != nil {
		return "", err
	}
	return text[from:to], nil
}

// Replace is text with the block's body between its markers.
func (b Block) Replace(text string) (string, error) {
	from, to, err := b.bounds(text)
	if err != nil {
		return "", err
	}
	return text[:from] + b.Body + text[to:], nil
}

// bounds are the offsets of the body in text: from the line after the begin marker to
// the end marker.
func (b Block) bounds(text string) (from, to int, err error) {
	from, to = strings.Index(text, b.Begin), strings.Index(text, b.End)
	if from < 0 || to < from+len(b.Begin)+1 {
		return 0, 0, fmt.Errorf("%s: no %q ... %q section", b.File, b.Begin, b.End)
	}
	return from + len(b.Begin) + 1, to, nil
}
