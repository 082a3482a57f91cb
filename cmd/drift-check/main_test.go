package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeCLI is a stand-in for terraform: `plan` succeeds (or exits with $FAKE_PLAN_STATUS) and
// `show -json` prints $FAKE_PLAN_JSON, so that the reading of a plan is tested on plans no
// CLI run here produces.
const fakeCLI = `#!/bin/sh
case "$1" in
  plan) echo "planned" ; exit "${FAKE_PLAN_STATUS:-0}" ;;
  show) cat "$FAKE_PLAN_JSON" ;;
  version) echo "Terraform v0.0.0-fake" ;;
esac
`

// drift-check decides from the plan's JSON alone: data source reads, no-op changes, output
// changes and drift entries whose attributes all match are no drift; drift and changes name
// each attribute and hide sensitive values; a failing or erroring check is exit status 3
// unless there is drift.
func TestDriftCheckReadsThePlanJSON(t *testing.T) {
	dir := t.TempDir()
	cli := filepath.Join(dir, "terraform")
	if err := os.WriteFile(cli, []byte(fakeCLI), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "fake.tfplan"), []byte("a saved plan"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	t.Setenv("DRIFT_CHECK_CLI", cli)
	const (
		quiet = `"resource_changes":[` +
			`{"address":"apm_system.shop","mode":"managed","change":{"actions":["no-op"],"before":{"name":"shop","n":7730},"after":{"name":"shop","n":7730}}},` +
			`{"address":"data.apm_nodes.all","mode":"data","change":{"actions":["read"],"before":null,"after":{"nodes":[]}}}],` +
			`"output_changes":{"ids":{"actions":["update"],"before":{},"after":{"a":"b"}}}`
		// A drift entry whose attributes all match, as a CLI may list after comparing numbers.
		sameDrift = `"resource_drift":[{"address":"apm_node.app","mode":"managed","change":{"actions":["update"],"before":{"agent_port":7730},"after":{"agent_port":7730}}}]`
		passes    = `"checks":[{"address":{"kind":"check","name":"ok","to_display":"check.ok"},"status":"pass"},` +
			`{"address":{"kind":"check","name":"later","to_display":"check.later"},"status":"unknown"}]`
		fails = `"checks":[{"address":{"kind":"check","name":"licenses","to_display":"check.licenses"},"status":"fail",` +
			`"instances":[{"address":{"to_display":"check.licenses"},"status":"fail","problems":[{"message":"Expires \u003c 30 days: \"app-01\" (caf\u00e9)."}]}]},` +
			`{"address":{"kind":"check","name":"broken","to_display":"check.broken"},"status":"error","instances":[]}]`
		drift = `"resource_drift":[` +
			`{"address":"apm_user.this[\"ops\"]","mode":"managed","change":{"actions":["update"],` +
			`"before":{"name":"Ops","password":"old-secret","roles":["a","b"]},"after":{"name":"Ops Team","password":"new-secret","roles":["a"]},` +
			`"before_sensitive":{"password":true},"after_sensitive":{"password":true}}},` +
			`{"address":"apm_node.gone","mode":"managed","change":{"actions":["delete"],"before":{"name":"gone"},"after":null}}],` +
			`"resource_changes":[` +
			`{"address":"apm_user.this[\"ops\"]","mode":"managed","change":{"actions":["update"],` +
			`"before":{"name":"Ops Team","password":"new-secret","roles":["a"]},"after":{"name":"Ops","password":"old-secret","roles":["a","b"]},` +
			`"after_unknown":{},"before_sensitive":{"password":true},"after_sensitive":{"password":true}}},` +
			`{"address":"apm_node.gone","mode":"managed","change":{"actions":["create"],"before":null,"after":{"name":"gone"},"after_unknown":{"id":true}}},` +
			`{"address":"apm_was_server.x","mode":"managed","change":{"actions":["delete","create"],"before":{"id":"a","server_type":"Standard"},` +
			`"after":{"id":null,"server_type":"Enterprise"},"after_unknown":{"id":true}}}]`
	)
	plan := func(sections ...string) string {
		return `{"format_version":"1.2","terraform_version":"1.11.4",` + strings.Join(sections, ",") + `}`
	}
	for _, tc := range []struct {
		name       string
		args       []string
		json       string
		planStatus string
		status     int
		want       []string
		never      []string
	}{
		{"clean", nil, plan(quiet, sameDrift, passes), "0", statusNone, []string{"drift-check: no drift, every check passes (Terraform v0.0.0-fake)"},
			[]string{"apm_", "check."}},
		{"a check fails", nil, plan(quiet, fails), "0", statusHealth, []string{
			"Failing checks:", "  check.broken\n      (error, no message)", "  check.licenses\n      Expires < 30 days: \"app-01\" (café).",
			"drift-check: no drift, but a health check fails"}, []string{"apm_"}},
		{"drift", nil, plan(drift, fails), "0", statusDrift, []string{
			"Changed outside Terraform (the refresh found these differences from the state):\n" +
				"  apm_node.gone\n      deleted outside Terraform\n" +
				"  apm_user.this[\"ops\"]\n      name: \"Ops\" -> \"Ops Team\"\n      password: (sensitive value changed)\n      roles.1: \"b\" -> (none)\n",
			"Apply would change (the manager differs from the configuration):\n" +
				"  apm_node.gone\n      to be created\n" +
				"  apm_user.this[\"ops\"] (update)\n      name: \"Ops Team\" -> \"Ops\"\n      password: (sensitive value changed)\n      roles.1: (none) -> \"b\"\n" +
				"  apm_was_server.x (replace)\n      id: \"a\" -> (known after apply)\n      server_type: \"Standard\" -> \"Enterprise\"\n",
			"Failing checks:", "drift-check: DRIFT"}, []string{"secret"}},
		{"no plan", nil, `{"not":"a plan"}`, "0", statusError, []string{"drift-check: the output of show -json is no plan in JSON"}, nil},
		{"plan fails", nil, plan(quiet), "1", statusError, []string{"planned", "plan failed"}, nil},
		{"an exit code asked for", []string{"-detailed-exitcode"}, plan(quiet), "0", statusError, []string{"-detailed-exitcode is drift-check's own business"}, []string{"planned"}},
		// A saved plan is only read: the failing plan command is not run.
		{"saved plan", []string{"--plan", "fake.tfplan"}, plan(quiet, passes), "1", statusNone,
			[]string{"drift-check: the plan changes nothing, every check passes"}, []string{"planned"}},
		{"saved plan missing", []string{"--plan", "missing.tfplan"}, plan(quiet), "0", statusError, []string{"no saved plan at missing.tfplan"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			planJSON := filepath.Join(t.TempDir(), "plan.json")
			if err := os.WriteFile(planJSON, []byte(tc.json), 0o600); err != nil {
				t.Fatal(err)
			}
			t.Setenv("FAKE_PLAN_JSON", planJSON)
			t.Setenv("FAKE_PLAN_STATUS", tc.planStatus)
			var out bytes.Buffer
			if got := run(tc.args, &out, &out); got != tc.status {
				t.Errorf("exit status %d, want %d:\n%s", got, tc.status, out.String())
			}
			for _, w := range tc.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("the output lacks %q:\n%s", w, out.String())
				}
			}
			for _, n := range tc.never {
				if strings.Contains(out.String(), n) {
					t.Errorf("the output has %q:\n%s", n, out.String())
				}
			}
		})
	}
}
