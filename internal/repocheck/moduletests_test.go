package repocheck

import (
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// A module under examples/ with `terraform test` files (examples/testing) is a kit users copy
// into their CI: each of its test files is run by an acceptance test of internal/provider,
// which names it as `terraform test -filter` takes it ("tests/apmsim.tftest.hcl"), so that a
// test file added to a kit cannot go untested.
func TestExampleModuleTestsAreRun(t *testing.T) {
	tests := readAll(t, filepath.Join(providerDir, "*_test.go"), nil)
	found := 0
	err := filepath.WalkDir(filepath.Join(root, "examples"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".tftest.hcl") {
			return err
		}
		found++
		module := filepath.Dir(path)
		if filepath.Base(module) == "tests" {
			module = filepath.Dir(module)
		}
		rel, err := filepath.Rel(module, path)
		if err != nil {
			return err
		}
		if !strings.Contains(tests, `"`+filepath.ToSlash(rel)+`"`) {
			t.Errorf("%s: no acceptance test in internal/provider runs it (none names %q)", path, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if found == 0 {
		t.Fatal("no *.tftest.hcl under examples/: the module test kit (examples/testing) is gone")
	}
}
