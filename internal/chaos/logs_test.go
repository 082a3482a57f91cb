//go:build chaos

package chaos

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The provider's logs through the real binary and CLI: quiet when the user asked for no
// logs (main switches the SDK's loggers off), complete with the key masked when asked.
// The provider runs through a wrapper that keeps its stderr, where go-plugin providers
// write their log lines for the CLI.

const logsConfig = `terraform {
  required_providers {
    apm = {
      source = "hashicorp/apm"
    }
  }
}

provider "apm" {}

resource "apm_system" "s" {
  name = "logs"
}
`

// stderrKeeper is a provider directory whose terraform-provider-apm runs the real one
// with its stderr appended to the returned file.
func stderrKeeper(t *testing.T, binary string) (dir, stderr string) {
	t.Helper()
	dir = t.TempDir()
	stderr = filepath.Join(dir, "provider-stderr.log")
	script := fmt.Sprintf("#!/bin/sh\nexec %q \"$@\" 2>>%q\n", binary, stderr)
	if err := os.WriteFile(filepath.Join(dir, "terraform-provider-apm"), []byte(script), 0o700); err != nil { //nolint:gosec // the script must be executable
		t.Fatal(err)
	}
	return dir, stderr
}

func TestProviderLogs(t *testing.T) {
	tl := setupTools(t)
	sim := startSim(t)
	for _, c := range []struct {
		name    string
		env     []string
		wantLog bool
	}{
		{name: "no TF_LOG: quiet", wantLog: false},
		{name: "TF_LOG_PROVIDER_APM=DEBUG: provider lines", env: []string{"TF_LOG_PROVIDER_APM=DEBUG"}, wantLog: true},
		{name: "TF_LOG=DEBUG: provider lines", env: []string{"TF_LOG=DEBUG"}, wantLog: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir, stderr := stderrKeeper(t, filepath.Join(tl.providerDir, "terraform-provider-apm"))
			w := newWorkspace(t, tools{cli: tl.cli, providerDir: dir}, sim, logsConfig)
			if r := w.run(c.env, "plan", "-input=false", "-no-color"); r.exit != 0 {
				t.Fatalf("plan failed (exit %d):\n%s", r.exit, tail(r.output, 20))
			}
			data, err := os.ReadFile(stderr)
			if err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
			text := string(data)
			if strings.Contains(text, sim.srv.AdminKey) {
				t.Fatal("the provider's log contains the API key")
			}
			// The SDK's and the provider's lines carry a @module; go-plugin's own two lines
			// per start (its address and mTLS) do not, and are no cost per object.
			requests, sdkLines := strings.Count(text, "APM API request"), strings.Count(text, `"@module"`)
			switch {
			case c.wantLog && requests == 0:
				t.Errorf("no provider request line in %d bytes of the provider's stderr", len(data))
			case !c.wantLog && sdkLines > 0:
				t.Errorf("without TF_LOG the provider wrote %d SDK and provider log lines (%d bytes); want none:\n%s", sdkLines, len(data), firstLines(text, 5))
			}
			t.Logf("%s: provider stderr %d bytes, %d SDK and provider lines, %d request lines", c.name, len(data), sdkLines, requests)
		})
	}
}
