package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apmplatform/terraform-provider-apm/internal/clifeatures"
	"github.com/apmplatform/terraform-provider-apm/internal/doclists"
)

// writeFile writes text to name under root, making its directory.
func writeFile(t *testing.T, root, name, text string) {
	t.Helper()
	path := filepath.Join(root, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, root, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// run writes stale blocks, keeps the text around them, and a second run writes nothing.
func TestRunWritesStaleBlocksOnce(t *testing.T) {
	root := t.TempDir()
	section := func(begin, end string) string { return begin + "\nstale\n" + end + "\n" }
	readme := "# Title\nmiddle\n" + section(doclists.MatrixBegin, doclists.MatrixEnd) + "end\n"
	writeFile(t, root, "README.md", readme)
	writeFile(t, root, "templates/index.md.tmpl", "front\n"+section(doclists.TypesBegin, doclists.TypesEnd))
	var out bytes.Buffer
	if err := run(context.Background(), root, &out); err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(out.String(), "wrote"); got != 2 {
		t.Errorf("wrote %d blocks, want 2:\n%s", got, out.String())
	}
	got := readFile(t, root, "README.md")
	if strings.Contains(got, "stale") || !strings.HasPrefix(got, "# Title\n") || !strings.Contains(got, "\nmiddle\n") || !strings.HasSuffix(got, "end\n") {
		t.Errorf("README.md:\n%s", got)
	}
	if !strings.Contains(got, doclists.MatrixBegin+"\n"+clifeatures.SupportMatrix()+doclists.MatrixEnd) {
		t.Errorf("README.md has not the support matrix:\n%s", got)
	}
	if front := readFile(t, root, "templates/index.md.tmpl"); !strings.Contains(front, "| Kind | Name | Purpose |") {
		t.Errorf("templates/index.md.tmpl:\n%s", front)
	}
	out.Reset()
	if err := run(context.Background(), root, &out); err != nil || out.Len() != 0 {
		t.Errorf("second run: %v, wrote:\n%s", err, out.String())
	}
}

// A file without its markers is an error that names it, and nothing is written.
func TestRunWithoutMarkersFails(t *testing.T) {
	root := t.TempDir()
	readme := doclists.MatrixBegin + "\nstale\n" + doclists.MatrixEnd + "\n"
	writeFile(t, root, "README.md", readme)
	writeFile(t, root, "templates/index.md.tmpl", "# no markers\n")
	err := run(context.Background(), root, &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "templates/index.md.tmpl") {
		t.Errorf("err = %v, want one naming templates/index.md.tmpl", err)
	}
	if got := readFile(t, root, "README.md"); got != readme {
		t.Errorf("README.md changed: %q", got)
	}
}
