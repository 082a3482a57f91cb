package clifeatures

import (
	"strings"
	"testing"
)

// The table's comparison and cells, on the CLIs of the matrix.
func TestCells(t *testing.T) {
	for _, c := range []struct {
		feature Feature
		version string
		want    string
	}{
		{Actions, "Terraform v1.16.4", "yes"},
		{Actions, "Terraform v1.14.0", "yes"},
		{Actions, "Terraform v1.11.4", "no (from 1.14)"},
		{Actions, "OpenTofu v1.12.6", "no (none yet)"},
		{Functions, "OpenTofu v1.12.6", "yes"},
		{Functions, "Terraform v1.5.7", "no (from 1.8)"},
		{EphemeralVars, "Terraform v1.10.0", "yes"},
		{EphemeralVars, "OpenTofu v1.10.0", "no (from 1.11)"},
		{Identity, "Terraform v2.0.0", "yes"},
	} {
		if got := c.feature.Cell(c.version); got != c.want {
			t.Errorf("%s on %s: %q, want %q", c.feature.Name, c.version, got, c.want)
		}
	}
}

// Missing gives the reason a test skips with, naming the feature and, when a later
// release has it, that release.
func TestMissing(t *testing.T) {
	for version, want := range map[string]string{
		"Terraform v1.16.4": "",
		"Terraform v1.11.4": "Terraform v1.11.4 is below minimum version 1.14 for actions",
		"OpenTofu v1.12.6":  "OpenTofu has no actions",
	} {
		if got := Actions.Missing(version); !strings.HasPrefix(got, want) || (want == "") != (got == "") {
			t.Errorf("%s: %q, want %q...", version, got, want)
		}
	}
}

// A docs mark names a feature by the first words of its name, never by a part of a word.
func TestNamed(t *testing.T) {
	if f, ok := Named("actions"); !ok || f != Actions {
		t.Errorf("actions: %v %v", f, ok)
	}
	if f, ok := Named("list resources"); !ok || f != ListResources {
		t.Errorf("list resources: %v %v", f, ok)
	}
	if _, ok := Named("act"); ok {
		t.Error("act names a feature")
	}
}

// The matrix has a row per feature and a column per CLI.
func TestSupportMatrix(t *testing.T) {
	lines := strings.Split(strings.TrimSuffix(SupportMatrix(), "\n"), "\n")
	if len(lines) != 2+len(All) {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), 2+len(All), SupportMatrix())
	}
	if lines[0] != "| Feature | OpenTofu 1.12 | Terraform 1.5 | Terraform 1.11 | Terraform 1.16 |" {
		t.Errorf("header %q", lines[0])
	}
	if want := "| " + Actions.Name + " | no (none yet) | no (from 1.14) | no (from 1.14) | yes |"; !strings.Contains(SupportMatrix(), want+"\n") {
		t.Errorf("no row %q in\n%s", want, SupportMatrix())
	}
}
