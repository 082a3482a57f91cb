package main

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	tfjson "github.com/hashicorp/terraform-json"
)

// The plans in testdata are `show -json` of each CLI for the same configuration (a system,
// a node, a WAS server with state = "running", a data source and a failing check block),
// with the server stopped outside Terraform. Each CLI writes its own JSON; the findings are
// the same.
func TestFindingsOfEachCLIsPlan(t *testing.T) {
	want := []finding{
		{kindChange, "apm_was_server.app (update)", `state: "stopped" -> "running"`},
		{kindCheck, "check.enough_nodes", "The system has 1 node(s), fewer than 6."},
		{kindDrift, "apm_was_server.app", `state: "running" -> "stopped"`},
	}
	files, err := filepath.Glob("testdata/*.json")
	if err != nil || len(files) < 4 {
		t.Fatalf("want the plans of four CLIs in testdata, found %v (%v)", files, err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			raw, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var plan tfjson.Plan
			if err := plan.UnmarshalJSON(raw); err != nil {
				t.Fatal(err)
			}
			if got := findings(&plan); !reflect.DeepEqual(got, want) {
				t.Errorf("findings:\n%q\nwant\n%q", got, want)
			}
		})
	}
}
