package clitest

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestChildEnvDropsWhatWouldSteerTheRun(t *testing.T) {
	got := ChildEnv([]string{"PATH=/bin", "TF_LOG=TRACE", "TF_CLI_CONFIG_FILE=/x", "APM_API_KEY=k", "CHECKPOINT_DISABLE=0", "HOME=/h", "TFX=kept"}, "CHECKPOINT_DISABLE=1")
	if want := []string{"PATH=/bin", "HOME=/h", "TFX=kept", "CHECKPOINT_DISABLE=1"}; !slices.Equal(got, want) {
		t.Fatalf("ChildEnv = %v, want %v", got, want)
	}
}

func TestDevOverridesNamesBothRegistries(t *testing.T) {
	cfg := DevOverrides("/tmp/p")
	for _, want := range []string{`"registry.terraform.io/hashicorp/apm"  = "/tmp/p"`, `"registry.opentofu.org/hashicorp/apm" = "/tmp/p"`} {
		if !strings.Contains(cfg, want) {
			t.Errorf("dev_overrides lack %s:\n%s", want, cfg)
		}
	}
}

func TestRepoRootHoldsGoMod(t *testing.T) {
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("RepoRoot = %s: %v", root, err)
	}
}

func TestVersionIsTheFirstLine(t *testing.T) {
	cli := filepath.Join(t.TempDir(), "fake-cli")
	MustWrite(t, cli, "#!/bin/sh\nprintf 'OpenTofu v9.9.9\\non linux_amd64\\n'\n")
	if err := os.Chmod(cli, 0o700); err != nil {
		t.Fatal(err)
	}
	if got, err := Version(cli); err != nil || got != "OpenTofu v9.9.9" {
		t.Fatalf("Version = %q, %v", got, err)
	}
	if _, err := Version(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Fatal("a missing CLI must be an error")
	}
}
