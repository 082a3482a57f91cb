// Package clitest holds what the tests that run the provider binary under a real CLI
// share (internal/chaos, internal/bench): where the module is, a CLI configuration that
// finds the freshly built provider without init, and a clean environment for the CLI.
package clitest

import (
	"archive/zip"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// RepoRoot is the directory of the module's go.mod, wherever the test runs from.
func RepoRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == os.DevNull {
		return "", errors.New("go env GOMOD: not inside the module")
	}
	return filepath.Dir(gomod), nil
}

// DevOverrides is a CLI configuration that takes the provider from dir under both
// registries' addresses, so that Terraform and OpenTofu alike need no init and no network.
func DevOverrides(dir string) string {
	return fmt.Sprintf(`provider_installation {
  dev_overrides {
    "registry.terraform.io/hashicorp/apm"  = %q
    "registry.opentofu.org/hashicorp/apm" = %q
  }
  direct {}
}
`, dir, dir)
}

// ChildEnv is base without the settings that would change what the CLI or the provider
// does (TF_LOG would make the provider log more than a user's, a developer's
// TF_CLI_CONFIG_FILE or APM_* would point elsewhere), followed by set.
func ChildEnv(base []string, set ...string) []string {
	env := slices.DeleteFunc(slices.Clone(base), func(kv string) bool {
		name, _, _ := strings.Cut(kv, "=")
		return strings.HasPrefix(name, "TF_") || strings.HasPrefix(name, "APM_") || name == "CHECKPOINT_DISABLE"
	})
	return append(env, set...)
}

// MustWrite writes a test's file, or fails the test.
func MustWrite(t testing.TB, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

// Version is the first line of `<cli> version`, such as "OpenTofu v1.12.6". It runs
// outside any configuration and with ChildEnv, so that nothing around the test changes
// the answer.
func Version(cli string) (string, error) {
	cmd := exec.Command(cli, "version")
	cmd.Dir = os.TempDir()
	cmd.Env = ChildEnv(os.Environ(), "CHECKPOINT_DISABLE=1")
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("%s version: %w", cli, err)
	}
	line, _, _ := strings.Cut(string(out), "\n")
	return strings.TrimSpace(line), nil
}

// SavedPlan is the uncompressed content of every file in the saved plan at path (a zip
// archive), for tests that look for what a plan file must not hold, such as the API key.
func SavedPlan(t testing.TB, path string) []byte {
	t.Helper()
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatalf("reading the saved plan: %v", err)
	}
	defer zr.Close()
	if len(zr.File) == 0 {
		t.Fatalf("the saved plan %s holds no file", path)
	}
	var all []byte
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(rc)
		_ = rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, data...)
	}
	return all
}
