package docsnippets

import (
	"os"
	"path/filepath"
	"testing"
)

// Find reads the marks above a fence, tells a block that is an example's text, and lists a
// text once, naming each block by its file and line.
func TestFind(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"README.md": "# T\n\n<!-- hcl: fragment -->\n```hcl\nx = 1\n```\n\n" +
			"<!-- hcl: no-apply reads a file -->\n<!-- snippet: s -->\n```terraform\ny = 2\n```\n\n" +
			"```tf\nresource \"a\" \"b\" {}\n```\n\n```go\nnot hcl\n```\n",
		"templates/guides/g.md.tmpl": "```terraform\nx = 1\n```\n\n```hcl\nz = 3\n```\n",
		"examples/e/main.tf":         "resource \"a\" \"b\" {}\n",
		"docs/guides/.keep":          "",
	}
	for name, text := range files {
		path := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	got, err := Find(root)
	if err != nil {
		t.Fatal(err)
	}
	want := []Snippet{
		{Where: "README.md:4", Mode: "fragment", Text: "x = 1\n"},
		{Where: "README.md:10", Mode: "no-apply", Reason: "reads a file", Text: "y = 2\n"},
		{Where: "README.md:14", Mode: "example", Text: "resource \"a\" \"b\" {}\n"},
		{Where: "templates/guides/g.md.tmpl:5", Text: "z = 3\n"},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d snippets, want %d: %+v", len(got), len(want), got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("snippet %d: %+v, want %+v", i, got[i], want[i])
		}
	}
}

// MarkedIn reads a fenced block and a tffile directive after their marks, and refuses a
// mark twice or one that nothing follows.
func TestMarkedIn(t *testing.T) {
	root := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("included.tf", "x = 1\n")
	write("guide.md.tmpl", "<!-- snippet: a -->\n```hcl\ny = 2\n```\n\n<!-- snippet: b -->\n{{ tffile \"included.tf\" }}\n")
	got, err := MarkedIn(root, "guide.md.tmpl")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got["a"] != (Marked{Lang: "hcl", Text: "y = 2\n"}) || got["b"] != (Marked{Lang: "terraform", Text: "x = 1\n"}) {
		t.Errorf("got %+v", got)
	}
	for name, text := range map[string]string{
		"twice":      "<!-- snippet: a -->\n```hcl\n```\n<!-- snippet: a -->\n```hcl\n```\n",
		"unfollowed": "<!-- snippet: a -->\ntext\n",
	} {
		write(name, text)
		if _, err := MarkedIn(root, name); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
