package doclists

import (
	"context"
	"strings"
	"testing"
)

func TestFirstSentence(t *testing.T) {
	for in, want := range map[string]string{
		"Manages a node. It belongs to a system.": "Manages a node.",
		"A  list\nof  nodes":                      "A list of nodes",
		"Either a | b. More.":                     `Either a \| b.`,
		"Version 1.2 of it.":                      "Version 1.2 of it.",
	} {
		if got := firstSentence(in); got != want {
			t.Errorf("firstSentence(%q) = %q, want %q", in, got, want)
		}
	}
}

var sample = []Type{
	{Kind: "resource", Name: "apm_node", Summary: "Manages a node.", Page: "docs/resources/node.md"},
	{Kind: "resource", Name: "apm_system", Summary: "Manages a system.", Page: "docs/resources/system.md"},
	{Kind: "list resource", Name: "apm_node", Summary: "Lists nodes."},
	{Kind: "function", Name: "parse_node_id", Summary: "Splits a node ID.", Page: "docs/functions/parse_node_id.md"},
}

// A type with a page links to it, relative to docs/ where the index is; one without is
// named only.
func TestIndexTypes(t *testing.T) {
	want := "| Kind | Name | Purpose |\n| --- | --- | --- |\n" +
		"| resource | [`apm_node`](resources/node.md) | Manages a node. |\n" +
		"| resource | [`apm_system`](resources/system.md) | Manages a system. |\n" +
		"| list resource | `apm_node` | Lists nodes. |\n" +
		"| function | [`parse_node_id`](functions/parse_node_id.md) | Splits a node ID. |\n"
	if got := IndexTypes(sample); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// README.md carries no list of the types (it links the docs index): only the support matrix.
func TestBlocksListTheTypesInTheIndexOnly(t *testing.T) {
	for _, b := range Blocks(sample) {
		if b.File == "README.md" && b.Begin == TypesBegin {
			t.Errorf("a block writes the list of types into README.md")
		}
	}
}

func TestBlockReplaceAndCurrent(t *testing.T) {
	b := Block{File: "README.md", Begin: "<!-- b -->", End: "<!-- e -->", Body: "new\n"}
	text := "before\n<!-- b -->\nold\nlines\n<!-- e -->\nafter\n"
	got, err := b.Replace(text)
	if err != nil {
		t.Fatal(err)
	}
	if want := "before\n<!-- b -->\nnew\n<!-- e -->\nafter\n"; got != want {
		t.Errorf("Replace: %q, want %q", got, want)
	}
	if current, err := b.Current(got); err != nil || current != b.Body {
		t.Errorf("Current: %q, %v; want %q", current, err, b.Body)
	}
	for _, broken := range []string{"no markers\n", "<!-- e -->\n<!-- b -->\n", "<!-- b --><!-- e -->"} {
		if _, err := b.Replace(broken); err == nil || !strings.Contains(err.Error(), "README.md") {
			t.Errorf("Replace(%q): %v, want an error naming the file", broken, err)
		}
	}
}

// The provider's registry gives types of every kind it serves, sorted by kind then name; a
// root without docs/ gives no pages.
func TestServed(t *testing.T) {
	types, err := Served(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	for i, typ := range types {
		kinds[typ.Kind]++
		if typ.Page != "" || typ.Summary == "" {
			t.Errorf("%s %s: page %q, summary %q", typ.Kind, typ.Name, typ.Page, typ.Summary)
		}
		if i > 0 && types[i-1].Kind == typ.Kind && types[i-1].Name >= typ.Name {
			t.Errorf("%s %s after %s", typ.Kind, typ.Name, types[i-1].Name)
		}
	}
	for _, kind := range []string{"resource", "data source", "function"} {
		if kinds[kind] == 0 {
			t.Errorf("no %s served: %v", kind, kinds)
		}
	}
	if first, last := types[0].Kind, types[len(types)-1].Kind; first != "resource" || last != "function" {
		t.Errorf("kinds run from %s to %s, want resource to function", first, last)
	}
}
