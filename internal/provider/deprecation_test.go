package provider

import (
	"bufio"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	tfjson "github.com/hashicorp/terraform-json"

	"github.com/apmplatform/terraform-provider-apm/internal/clifeatures"
)

// The deprecation of apm_was_rollout's timeout, replaced by timeouts, on a real CLI.
// Where timeout is set, validate and plan warn at it with the provider's message, and a
// reference to it warns too (with the message from Terraform 1.15 and OpenTofu 1.12).
// With timeouts instead nothing warns, and the switch records the new bound without a
// roll. Both set fail at validate. The bound holds: a roll that outlasts
// timeouts.update fails naming it, and the next apply carries on.
func TestAccWASRollout_timeoutDeprecated(t *testing.T) {
	cli, version := accCLI(t)
	env := newRollingEnv(t)
	w := &moduleWorkdir{t: t, cli: cli, dir: t.TempDir(), secret: env.sim.AdminKey}
	t.Cleanup(func() { w.must("destroy", "-auto-approve", "-input=false", "-no-color") })
	bounded := func(release string, timeout, timeouts hclExpr) string {
		return env.config(tf(t, "rolling/bounded.tf", "release", release, "timeout", timeout, "timeouts", timeouts))
	}
	const reference = "\noutput \"bound\" {\n  value = apm_was_rollout.bounded.timeout\n}\n"

	w.write(bounded("1", `"30m"`, hclNull) + reference)
	w.must("init", "-input=false", "-no-color", "-plugin-dir="+t.TempDir())
	diags := validateDiagnostics(w)
	checkDeprecatedWhereSet(t, "validate", diags)
	checkDeprecatedWhereReferred(t, version, diags)
	checkDeprecatedWhereSet(t, "plan", jsonDiagnostics(w.must("plan", "-input=false", "-json")))
	w.must("apply", "-auto-approve", "-input=false", "-no-color")

	// timeouts instead: no warning, and an update that runs nothing.
	w.write(bounded("1", hclNull, `{ create = "30m", update = "30m" }`))
	if deprecated := deprecations(validateDiagnostics(w)); len(deprecated) > 0 {
		t.Errorf("validate warns with timeouts instead of timeout: %+v", deprecated)
	}
	if deprecated := deprecations(jsonDiagnostics(w.must("plan", "-input=false", "-json", "-out=tfplan"))); len(deprecated) > 0 {
		t.Errorf("plan warns with timeouts instead of timeout: %+v", deprecated)
	}
	checkRecordedWithoutARoll(t, w)
	w.must("apply", "-input=false", "-no-color", "tfplan")
	w.must("plan", "-input=false", "-no-color", "-detailed-exitcode")

	w.write(bounded("1", `"30m"`, `{ update = "30m" }`))
	if out, ok := runCLI(t, cli, w.dir, "validate", "-no-color"); ok || !errorMatching(`Conflicting timeouts`,
		`timeout = "30m" is set together with timeouts. timeout is deprecated and replaced by timeouts: remove timeout`).MatchString(out) {
		t.Errorf("validate with both timeout and timeouts: want the conflict named, got (succeeded: %t):\n%s", ok, out)
	}

	// A roll of four servers, two at a time, takes over a second.
	w.write(bounded("2", hclNull, `{ update = "1s" }`))
	if out, ok := runCLI(t, cli, w.dir, "apply", "-auto-approve", "-input=false", "-no-color"); ok || !errorMatching(
		`was not healthy yet when the run's time ran out`, `Apply again: the roll carries on where it stopped`,
		`The run did not finish within 1s (timeouts.update). If it needs longer, raise timeouts.update before you apply again.`).MatchString(out) {
		t.Errorf("a roll that outlasts timeouts.update: want it named, got (succeeded: %t):\n%s", ok, redact(out, w.secret))
	}
	w.write(bounded("2", hclNull, `{ update = "5m" }`))
	w.must("apply", "-auto-approve", "-input=false", "-no-color")
	w.must("plan", "-input=false", "-no-color", "-detailed-exitcode")
	w.noDriftOnRefresh()
}

// deprecationDetail is the provider's message for the deprecated timeout.
const deprecationDetail = `Use timeouts instead, as on every other resource of the provider: timeouts = { create = "30m", update = "30m" } ` +
	`bounds the run at create and the runs on a change of triggers. The timeout argument is removed in 0.2.0.`

// checkDeprecatedWhereSet requires the framework's warning, with the provider's message,
// at the line that sets timeout, once or more (a plan validates the configuration too).
func checkDeprecatedWhereSet(t *testing.T, command string, diags []tfjson.Diagnostic) {
	t.Helper()
	set := slices.DeleteFunc(deprecations(diags), func(d tfjson.Diagnostic) bool {
		return d.Summary != "Attribute Deprecated" || d.Snippet == nil || !strings.HasPrefix(strings.TrimSpace(d.Snippet.Code), "timeout ")
	})
	if len(set) == 0 {
		t.Fatalf("%s: no warning at the timeout that is set; diagnostics: %+v", command, diags)
	}
	for _, d := range set {
		if d.Detail != deprecationDetail || snippetBlock(d) != `resource "apm_was_rollout" "bounded"` {
			t.Errorf("%s: the warning at timeout: want the provider's message for apm_was_rollout.bounded, got %+v", command, d)
		}
	}
}

// checkDeprecatedWhereReferred requires a warning at the output that refers to timeout:
// with the provider's message on a CLI that has it, else saying that timeout is
// deprecated.
func checkDeprecatedWhereReferred(t *testing.T, version string, diags []tfjson.Diagnostic) {
	t.Helper()
	want := deprecationDetail
	if clifeatures.DeprecationReferences.Missing(version) != "" {
		want = `The attribute "timeout" is deprecated.`
	}
	for _, d := range deprecations(diags) {
		if snippetBlock(d) == `output "bound"` && strings.Contains(d.Detail, want) {
			return
		}
	}
	t.Errorf("%s: no warning at the output that refers to timeout saying %q; diagnostics: %+v", version, want, diags)
}

// checkRecordedWithoutARoll requires the saved plan to update the rollout in place with
// its last_outcome known: a change of the bound alone runs nothing.
func checkRecordedWithoutARoll(t *testing.T, w *moduleWorkdir) {
	t.Helper()
	var plan tfjson.Plan
	if err := json.Unmarshal([]byte(w.must("show", "-json", "tfplan")), &plan); err != nil {
		t.Fatalf("show -json tfplan: %v", err)
	}
	for _, rc := range plan.ResourceChanges {
		if rc.Address != "apm_was_rollout.bounded" {
			if !rc.Change.Actions.NoOp() && !rc.Change.Actions.Read() {
				t.Errorf("switching to timeouts changes %s too: %v", rc.Address, rc.Change.Actions)
			}
			continue
		}
		after, _ := rc.Change.After.(map[string]any)
		before, _ := rc.Change.Before.(map[string]any)
		unknown, _ := rc.Change.AfterUnknown.(map[string]any)
		if !rc.Change.Actions.Update() || unknown["last_outcome"] == true || after["last_outcome"] != before["last_outcome"] {
			t.Errorf("switching to timeouts: want an update in place that keeps last_outcome (no roll), got %v, last_outcome %v -> %v (unknown: %v)",
				rc.Change.Actions, before["last_outcome"], after["last_outcome"], unknown["last_outcome"])
		}
		return
	}
	t.Error("the plan has no change of apm_was_rollout.bounded")
}

// snippetBlock is the block a diagnostic's snippet is in, such as `output "bound"`.
func snippetBlock(d tfjson.Diagnostic) string {
	if d.Snippet == nil || d.Snippet.Context == nil {
		return ""
	}
	return *d.Snippet.Context
}

// validateDiagnostics runs `validate -json` and returns its diagnostics.
func validateDiagnostics(w *moduleWorkdir) []tfjson.Diagnostic {
	w.t.Helper()
	var out tfjson.ValidateOutput
	if err := json.Unmarshal([]byte(w.must("validate", "-json", "-no-color")), &out); err != nil {
		w.t.Fatalf("validate -json: %v", err)
	}
	return out.Diagnostics
}

// deprecations are the warnings of diags that say something is deprecated.
func deprecations(diags []tfjson.Diagnostic) []tfjson.Diagnostic {
	return slices.DeleteFunc(slices.Clone(diags), func(d tfjson.Diagnostic) bool {
		return d.Severity != tfjson.DiagnosticSeverityWarning || !strings.Contains(strings.ToLower(d.Summary+d.Detail), "deprecat")
	})
}

// jsonDiagnostics are the diagnostics in the machine-readable output of a CLI command
// run with -json (one JSON object a line).
func jsonDiagnostics(out string) []tfjson.Diagnostic {
	var diags []tfjson.Diagnostic
	lines := bufio.NewScanner(strings.NewReader(out))
	lines.Buffer(nil, 1<<20)
	for lines.Scan() {
		var line struct {
			Type       string             `json:"type"`
			Diagnostic *tfjson.Diagnostic `json:"diagnostic"`
		}
		if json.Unmarshal(lines.Bytes(), &line) == nil && line.Type == "diagnostic" && line.Diagnostic != nil {
			diags = append(diags, *line.Diagnostic)
		}
	}
	return diags
}
