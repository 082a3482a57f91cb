package provider

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/apmsim/apmsimtest"
	"github.com/apmplatform/terraform-provider-apm/internal/clifeatures"
	"github.com/apmplatform/terraform-provider-apm/internal/clitest"
)

// The actions on a real CLI (Terraform 1.14 and later; on_failure from 1.16): every
// registered action run by `terraform apply -invoke` and by an action_trigger, failures
// as the CLI reports them, and the on_failure modes of a trigger. plugin-testing has no
// -invoke mode, so these tests run the CLI themselves (runCLI), each command against a
// provider server of its own in this process, and each test on a manager of its own.

// cliRun is one test's working directory, where the CLI runs on one configuration.
type cliRun struct {
	t      *testing.T
	cli    string
	dir    string
	apiKey string // redacted from the output
}

// newCLIRun writes config, behind a provider block for env's manager, and runs init.
func newCLIRun(t *testing.T, cli string, env *accEnv, config string) *cliRun {
	t.Helper()
	d := &cliRun{t: t, cli: cli, dir: t.TempDir(), apiKey: env.sim.AdminKey}
	d.write(env.config(config))
	// An empty plugin directory: init must never look for the provider in a registry (it
	// is reattached; terraform_data is built in).
	if out, ok := d.run("init", "-input=false", "-no-color", "-backend=false", "-plugin-dir="+t.TempDir()); !ok {
		t.Fatalf("init failed:\n%s", out)
	}
	return d
}

func (d *cliRun) write(config string) {
	d.t.Helper()
	clitest.MustWrite(d.t, filepath.Join(d.dir, "main.tf"), config)
}

func (d *cliRun) run(args ...string) (string, bool) {
	d.t.Helper()
	out, ok := runCLI(d.t, d.cli, d.dir, args...)
	return redact(out, d.apiKey), ok
}

// apply runs `terraform apply` with extra arguments, approved.
func (d *cliRun) apply(extra ...string) (string, bool) {
	d.t.Helper()
	return d.run(append([]string{"apply", "-input=false", "-no-color", "-lock=false", "-auto-approve"}, extra...)...)
}

// mustApply applies the configuration, failing the test when the apply fails.
func (d *cliRun) mustApply(step string) string {
	d.t.Helper()
	out, ok := d.apply()
	if !ok {
		d.t.Fatalf("%s: apply failed:\n%s", step, out)
	}
	return out
}

// invoke runs `terraform apply -invoke=<address>`.
func (d *cliRun) invoke(address string) (string, bool) {
	d.t.Helper()
	return d.apply("-invoke=" + address)
}

// stateInstance is one resource instance of terraform.tfstate.
type stateInstance struct {
	Status     string          `json:"status"` // "tainted", or empty
	Attributes json.RawMessage `json:"attributes"`
}

// instances are the resource instances in the state, by address (one instance each in
// these tests' configurations).
func (d *cliRun) instances() map[string]stateInstance {
	d.t.Helper()
	data, err := os.ReadFile(filepath.Join(d.dir, "terraform.tfstate"))
	if err != nil {
		d.t.Fatalf("reading the state: %v", err)
	}
	var state struct {
		Resources []struct {
			Type      string          `json:"type"`
			Name      string          `json:"name"`
			Instances []stateInstance `json:"instances"`
		} `json:"resources"`
	}
	if err := json.Unmarshal(data, &state); err != nil {
		d.t.Fatalf("reading the state: %v", err)
	}
	out := map[string]stateInstance{}
	for _, r := range state.Resources {
		if len(r.Instances) != 1 {
			d.t.Fatalf("%s.%s has %d instances in the state, want 1", r.Type, r.Name, len(r.Instances))
		}
		out[r.Type+"."+r.Name] = r.Instances[0]
	}
	return out
}

// changedSince names the instances that differ from before: added, gone, tainted or
// with other attributes.
func changedSince(before, after map[string]stateInstance) []string {
	var changed []string
	for _, addr := range slices.Sorted(maps.Keys(mergeKeys(before, after))) {
		b, inBefore := before[addr]
		a, inAfter := after[addr]
		if inBefore != inAfter || b.Status != a.Status || !sameJSON(b.Attributes, a.Attributes) {
			changed = append(changed, addr)
		}
	}
	return changed
}

func mergeKeys(a, b map[string]stateInstance) map[string]bool {
	keys := map[string]bool{}
	for k := range a {
		keys[k] = true
	}
	for k := range b {
		keys[k] = true
	}
	return keys
}

// sameJSON compares two JSON documents regardless of their layout.
func sameJSON(a, b json.RawMessage) bool {
	var ca, cb bytes.Buffer
	return json.Compact(&ca, a) == nil && json.Compact(&cb, b) == nil && bytes.Equal(ca.Bytes(), cb.Bytes())
}

// registeredActions are the provider's actions, sorted.
func registeredActions(t *testing.T) []string {
	t.Helper()
	names := slices.Sorted(maps.Keys(providerSchemas(t).ActionSchemas))
	if len(names) == 0 {
		t.Fatal("the provider registers no actions")
	}
	return names
}

// actionBlock declares action under the name under_test: its required arguments as
// args gives them (HCL expressions by argument name), plus extra. A required argument
// that args does not know, or an extra one the action does not take, fails the test.
func actionBlock(t *testing.T, action string, args, extra map[string]string) string {
	t.Helper()
	found, ok := providerSchemas(t).ActionSchemas[action]
	if !ok {
		t.Fatalf("no action %s", action)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\naction %q \"under_test\" {\n  config {\n", action)
	for _, a := range found.Schema.Block.Attributes {
		value, given := extra[a.Name]
		if !given && a.Required {
			if value, given = args[a.Name]; !given {
				t.Fatalf("%s: no value for its required argument %s", action, a.Name)
			}
		}
		if given {
			fmt.Fprintf(&b, "    %s = %s\n", a.Name, value)
		}
	}
	b.WriteString("  }\n}\n")
	for name := range extra {
		if !hasArguments(t, action, name) {
			t.Fatalf("%s takes no argument %s", action, name)
		}
	}
	return b.String()
}

// underTest is the address of the action that actionBlock declares.
func underTest(action string) string { return "action." + action + ".under_test" }

// referencedArgs are the actions' arguments in testdata/actions/every_action.tf:
// references to its resources (k's server), as practitioners write them.
func referencedArgs(k *serverKind) map[string]string {
	return map[string]string{
		"server_id":      "apm_" + k.name + ".this.id",
		"was_server_ids": "[apm_was_server.this.id]",
		"context_path":   `"/shop"`,
		"application_id": "apm_was_application.shop.id",
		"source_path":    "apm_was_application.shop.source_path",
		"resource_type":  `"jms"`,
		"resource_name":  `"jms/orders"`,
	}
}

// literalArgs are actionArgs as HCL literals, for a configuration that declares no
// resources (the world is arranged out of band).
func (w *actionWorld) literalArgs(server string) map[string]string {
	out := map[string]string{}
	for name, v := range w.actionArgs(server) {
		out[name] = hclLiteral(w.t, name, v)
	}
	return out
}

// hclLiteral is a string or a list of strings as HCL.
func hclLiteral(t *testing.T, name string, v tftypes.Value) string {
	t.Helper()
	var s string
	if err := v.As(&s); err == nil {
		return fmt.Sprintf("%q", s)
	}
	var elems []tftypes.Value
	if err := v.As(&elems); err != nil {
		t.Fatalf("actionArgs[%s]: %v", name, err)
	}
	quoted := make([]string, len(elems))
	for i, e := range elems {
		quoted[i] = hclLiteral(t, name, e)
	}
	return "[" + strings.Join(quoted, ", ") + "]"
}

// Every registered action, declared beside the resources it acts on, does its work when
// `terraform apply -invoke` runs it, leaving every resource in the state as it was, and
// again when an update of terraform_data triggers it. What it must do comes from
// actionEffects (actions_test.go), counted in the manager.
func TestAccActionsCLI_everyActionInvokedAndTriggered(t *testing.T) {
	cli, _ := needs(t, clifeatures.Actions)
	t.Parallel()
	for _, action := range registeredActions(t) {
		t.Run(action, func(t *testing.T) {
			t.Parallel()
			w := &actionWorld{t: t, env: newAccEnvWith(t, apmsimtest.WithTransitionDelay(0))}
			k, e := serverKindOf(action), effectOf(t, action)
			config := func(round int) string {
				states := map[string]any{"was_state": stateRunning, "web_state": stateRunning, "session_state": stateRunning}
				states[strings.TrimSuffix(k.name, "_server")+"_state"] = e.before
				return tf(t, "actions/every_action.tf", "was_state", states["was_state"], "web_state", states["web_state"],
					"session_state", states["session_state"], "round", round, "action", hclExpr(underTest(action))) +
					actionBlock(t, action, referencedArgs(k), nil)
			}
			d := newCLIRun(t, cli, w.env, config(1))
			d.mustApply("round 1")
			before := d.instances()

			w.env.sim.Sim.ResetRequestCounts()
			out, ok := d.invoke(underTest(action))
			t.Logf("apply -invoke:\n%s", out)
			if !ok {
				t.Fatalf("apply -invoke failed")
			}
			w.expectDone(k.kind, e, action, "CLI", out)
			if changed := changedSince(before, d.instances()); len(changed) > 0 {
				t.Errorf("apply -invoke changed %v in the state; an action changes no resource", changed)
			}

			w.arrange(k.kind, e.before)
			w.env.sim.Sim.ResetRequestCounts()
			d.write(w.env.config(config(2)))
			w.expectDone(k.kind, e, action, "terraform_data.trigger", d.mustApply("round 2"))
		})
	}
}

// expectDone checks, after the action ran (triggered by by: "CLI" for -invoke, else the
// triggering resource), its effect in the manager and that the CLI showed the action's
// progress naming its server.
func (w *actionWorld) expectDone(kind apm.ServerKind, e actionEffect, action, by, out string) {
	w.t.Helper()
	if err := e.effect(w, kind); err != nil {
		w.t.Errorf("after the action triggered by %s: %v\n%s", by, err, out)
	}
	progress := regexp.MustCompile(`(?m)^Action ` + regexp.QuoteMeta(underTest(action)) + ` \(triggered by ` + regexp.QuoteMeta(by) +
		`\): .*"` + regexp.QuoteMeta(serverIDs[kind]) + `"`)
	if !progress.MatchString(out) {
		w.t.Errorf("the CLI showed no progress of the action triggered by %s naming the server %q (%s):\n%s", by, serverIDs[kind], progress, out)
	}
}

// refusing answers, as the manager may (api/rest-interface.md), actionResult "N" with
// why to every POST on the servers whose path contains scope.
func refusing(scope, why string) func(r *http.Request) string {
	return func(r *http.Request) string {
		if r.Method == http.MethodPost && strings.Contains(r.URL.Path, scope) {
			return fmt.Sprintf(`{"actionResult":"N","message":%q}`, why)
		}
		return ""
	}
}

// cliError checks that the CLI failed with an error that holds every fragment.
func cliError(t *testing.T, out string, ok bool, fragments ...string) {
	t.Helper()
	if ok {
		t.Fatalf("the CLI succeeded; want an error:\n%s", out)
	}
	if !strings.Contains(out, "Error: ") {
		t.Errorf("the output holds no error:\n%s", out)
	}
	for _, f := range fragments {
		if !errorMatching(f).MatchString(out) {
			t.Errorf("the error lacks %q:\n%s", f, out)
		}
	}
}

// A failing `terraform apply -invoke` is an error of the CLI that says why: for every
// action, the manager's refusal (actionResult "N") with its message; and for every
// action that waits for a server, a server that does not get there within the action's
// timeout, named with the last state seen and the timeout.
func TestAccActionsCLI_failedInvokeIsACLIError(t *testing.T) {
	cli, _ := needs(t, clifeatures.Actions)
	t.Parallel()
	const why = "the license allows no operations on this node"
	for _, action := range registeredActions(t) {
		kind, e := serverOf(action), effectOf(t, action)
		t.Run(action+"/refused", func(t *testing.T) {
			t.Parallel()
			w := newActionWorld(t)
			w.arrange(kind, e.before)
			d := newCLIRun(t, cli, w.front(refusing("/servers/", why)), actionBlock(t, action, w.literalArgs(serverIDs[kind]), nil))
			out, ok := d.invoke(underTest(action))
			t.Logf("apply -invoke:\n%s", out)
			cliError(t, out, ok, "Failed to ", why, `actionResult "N"`, "invoke the action again")
		})
		if !hasArguments(t, action, "server_id", "timeout") {
			continue // no wait for a server's transition to cut short
		}
		t.Run(action+"/timeout", func(t *testing.T) {
			t.Parallel()
			// The manager takes longer to start or stop a server than the action waits.
			w := newActionWorld(t, apmsimtest.WithTransitionDelay(2500*time.Millisecond))
			w.arrange(kind, e.before)
			d := newCLIRun(t, cli, w.env, actionBlock(t, action, w.literalArgs(serverIDs[kind]), map[string]string{"timeout": `"1s"`}))
			out, ok := d.invoke(underTest(action))
			t.Logf("apply -invoke:\n%s", out)
			cliError(t, out, ok, `"`+serverIDs[kind]+`"`, "last state: ", "timeout of 1s", "raise the action's timeout")
		})
	}
}

// onFailureOutcome is what Terraform 1.16 does when the first action of a trigger fails
// (internal/terraform/node_resource_abstract_instance.go, invokeActions): halt and taint
// fail the apply at the action, so that the later action and the resources that depend
// on the triggering one are not reached, and taint also taints the resource just
// created; continue turns the error into a warning and carries on.
type onFailureOutcome struct {
	fails, tainted bool
}

var onFailureOutcomes = map[string]onFailureOutcome{
	"halt":     {fails: true},
	"taint":    {fails: true, tainted: true},
	"continue": {},
}

// An action_trigger whose first action the manager refuses behaves as its on_failure
// mode says (testdata/actions/on_failure.tf): for the apply, the triggering resource,
// the later action and the resource downstream.
func TestAccActionsCLI_onFailureModes(t *testing.T) {
	cli, _ := needs(t, clifeatures.Actions, clifeatures.ActionFailure)
	t.Parallel()
	const why = "web-1 is locked for maintenance"
	for _, mode := range slices.Sorted(maps.Keys(onFailureOutcomes)) {
		want := onFailureOutcomes[mode]
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			w := newActionWorld(t)
			w.arrange(apm.KindWeb, stateStopped)
			w.arrange(apm.KindSession, stateStopped)
			w.env.sim.Sim.ResetRequestCounts()
			id := func(kind apm.ServerKind) string { return w.systemID + "/app-01/" + serverIDs[kind] }
			d := newCLIRun(t, cli, w.front(refusing("/servers/web-1/", why)), tf(t, "actions/on_failure.tf",
				"refused_server_id", id(apm.KindWeb), "later_server_id", id(apm.KindSession), "on_failure", hclExpr(mode)))
			out, ok := d.apply()
			t.Logf("apply:\n%s", out)

			if want.fails {
				cliError(t, out, ok, "Failed to start", why)
			} else if !ok || !errorMatching("Warning: Failed to start", why).MatchString(out) {
				t.Errorf("want a successful apply that warns of the refusal (%q), got success %v:\n%s", why, ok, out)
			}
			state := d.instances()
			trigger, created := state["terraform_data.trigger"]
			if !created || (trigger.Status == "tainted") != want.tainted {
				t.Errorf("terraform_data.trigger: in the state %v, status %q; want in the state, tainted %v", created, trigger.Status, want.tainted)
			}
			if _, downstream := state["terraform_data.downstream"]; downstream == want.fails {
				t.Errorf("terraform_data.downstream in the state: %v, want %v", downstream, !want.fails)
			}
			laterRan := w.status(apm.KindSession) == stateRunning
			if starts := w.requests("POST", "/action"); laterRan == want.fails || starts != boolCount(!want.fails) {
				t.Errorf("the later action: session-1 running %v after %d starts; want running %v after %d",
					laterRan, starts, !want.fails, boolCount(!want.fails))
			}
			if want.tainted {
				plan, _ := d.run("plan", "-input=false", "-no-color", "-lock=false")
				if !errorMatching("terraform_data.trigger is tainted, so must be replaced").MatchString(plan) {
					t.Errorf("the next plan does not replace the tainted resource:\n%s", plan)
				}
			}
		})
	}
}

func boolCount(b bool) int {
	if b {
		return 1
	}
	return 0
}
