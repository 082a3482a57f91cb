package provider

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2/hclparse"
)

// Every configuration under testdata/ is HCL that parses as written, and some test uses
// it (a base under _base/, some configuration includes it): a file no test names is a
// stale copy.
func TestTestdataConfigurationsParseAndAreUsed(t *testing.T) {
	sources := readAll(t, "*_test.go", nil)
	included := map[string]bool{}
	_ = filepath.WalkDir("testdata", func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			src, _ := os.ReadFile(path)
			for _, m := range includeLine.FindAllStringSubmatch(string(src), -1) {
				included[m[1]] = true
			}
		}
		return nil
	})
	n := 0
	err := filepath.WalkDir("testdata", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(path) != ".tf" {
			return err
		}
		n++
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if _, diags := hclparse.NewParser().ParseHCL(src, path); diags.HasErrors() {
			t.Errorf("%s: %s", path, diags.Error())
		}
		rel := filepath.ToSlash(strings.TrimPrefix(path, "testdata"+string(filepath.Separator)))
		if !strings.Contains(sources, `"`+rel+`"`) && !included[rel] {
			t.Errorf("%s: no test names %q", path, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatal("no configurations under testdata/")
	}
}

func TestTfFillsInVariables(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.MkdirAll(filepath.Join("testdata", "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	src := "variable \"name\" { type = string }\nvariable \"system_id\" { type = string }\nvariable \"kept\" { type = string }\n" +
		"resource \"apm_node\" \"n\" {\n  name      = var.name\n  system_id = var.system_id\n  port      = var.kept\n}\n"
	if err := os.WriteFile(filepath.Join("testdata", "x", "n.tf"), []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	got := tf(t, "x/n.tf", "name", `we"b`, "system_id", hclExpr("apm_system.s.id"))
	for _, want := range []string{`name      = "we\"b"`, "system_id = apm_system.s.id", "port      = var.kept", `variable "kept"`} {
		if !strings.Contains(got, want) {
			t.Errorf("tf() = %s\nwant it to contain %s", got, want)
		}
	}
	if strings.Contains(got, `variable "name"`) || strings.Contains(got, `variable "system_id"`) {
		t.Errorf("the declarations of given variables must go: %s", got)
	}
}

// A testdata file builds on the bases it includes, each expanded once, with their variables
// filled in like its own.
func TestTfExpandsIncludes(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	for name, src := range map[string]string{
		"_base/a.tf": "variable \"name\" { type = string }\nresource \"apm_system\" \"a\" {\n  name = var.name\n}\n",
		"_base/b.tf": "# include: _base/a.tf\nresource \"apm_node\" \"b\" {}\n",
		"x/c.tf":     "# include: _base/b.tf\n# include: _base/a.tf\nresource \"apm_node\" \"c\" {}\n",
	} {
		path := filepath.Join("testdata", filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	got := tf(t, "x/c.tf", "name", "shop")
	if strings.Count(got, `resource "apm_system" "a"`) != 1 || !strings.Contains(got, `name = "shop"`) ||
		!strings.Contains(got, `resource "apm_node" "b"`) || !strings.Contains(got, `resource "apm_node" "c"`) || strings.Contains(got, "# include") {
		t.Errorf("tf() = %s\nwant a, b and c, a once, with its variable filled in", got)
	}
}

// readAll is the text of the files that match pattern and that keep selects (all when
// keep is nil).
func readAll(t *testing.T, pattern string, keep func(string) bool) string {
	t.Helper()
	files, err := filepath.Glob(pattern)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if keep == nil || keep(string(data)) {
			b.Write(data)
		}
	}
	return b.String()
}
