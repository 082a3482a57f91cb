package provider

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/apmsim"
	"github.com/apmplatform/terraform-provider-apm/internal/apmsim/apmsimtest"
	"github.com/apmplatform/terraform-provider-apm/internal/clifeatures"
)

// The actions through the provider's protocol server, as Terraform 1.14 calls them for
// `terraform apply -invoke` and action triggers: ValidateActionConfig, PlanAction, then
// InvokeAction, whose stream carries progress events and one completion. Every test
// iterates the registered actions; each action's arguments come from actionArgs by
// name, and what it must do from actionEffects by the end of its name, so that an
// action registered later fails here until both know it.

// actionWorld is a manager with one server of each kind on node app-01 of system shop,
// an application at /shop on the WAS server, and the provider configured on it.
type actionWorld struct {
	t        *testing.T
	env      *accEnv
	rig      *listRig
	systemID string
}

func newActionWorld(t *testing.T, opts ...func(*apmsim.Options)) *actionWorld {
	t.Helper()
	env := newAccEnvWith(t, append([]func(*apmsim.Options){apmsimtest.WithTransitionDelay(0)}, opts...)...)
	ctx := t.Context()
	admin := env.admin
	env.must(admin.CreateSystem(ctx, "shop"))
	env.must(admin.CreateNode(ctx, apm.CreateNodeRequest{NodeName: "app-01", SystemName: "shop", HostIP: "10.0.0.21", AgentPort: 7730}))
	env.must(admin.InstallServer(ctx, apm.KindWAS, apm.ServerSpec{ServerID: "was-1", NodeName: "app-01", SystemName: "shop", HTTPPort: 8080, AJPPort: 8009}))
	env.must(admin.InstallServer(ctx, apm.KindWeb, apm.ServerSpec{ServerID: "web-1", NodeName: "app-01", SystemName: "shop", HTTPPort: 80}))
	env.must(admin.InstallServer(ctx, apm.KindSession, apm.ServerSpec{ServerID: "session-1", NodeName: "app-01", SystemName: "shop", ServerPort: 5555}))
	w := &actionWorld{t: t, env: env}
	env.must(admin.DeployApplication(ctx, w.ref(apm.KindWAS), apm.Deployment{ContextPath: "/shop", SourcePath: "/opt/apps/shop.war"}))
	system, err := admin.GetSystem(ctx, "shop")
	env.must(err)
	w.systemID = system.SystemID
	w.rig = newListRig(t, env)
	return w
}

// serverIDs are the servers of the actions' tests, one of each kind.
var serverIDs = map[apm.ServerKind]string{apm.KindWAS: "was-1", apm.KindWeb: "web-1", apm.KindSession: "session-1"}

func (w *actionWorld) ref(kind apm.ServerKind) apm.ServerRef {
	return apm.ServerRef{Kind: kind, ServerID: serverIDs[kind], NodeName: "app-01", SystemName: "shop"}
}

// serverOf is the kind of server an action acts on (serverKindOf).
func serverOf(action string) apm.ServerKind { return serverKindOf(action).kind }

// serverKindOf is the server an action acts on: the kind its name starts with, else the
// WAS server (applications and imported resources live on WAS servers).
func serverKindOf(action string) *serverKind {
	for _, k := range serverKinds {
		if strings.HasPrefix(action, "apm_"+k.name+"_") {
			return k
		}
	}
	return wasServerKind
}

// actionArgs are the arguments of the actions by name; server is the server_id of the
// action's server (another one to aim at a server that does not exist).
func (w *actionWorld) actionArgs(server string) map[string]tftypes.Value {
	id := w.systemID + "/app-01/" + server
	return map[string]tftypes.Value{
		"server_id":      tftypes.NewValue(tftypes.String, id),
		"was_server_ids": tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, []tftypes.Value{tftypes.NewValue(tftypes.String, id)}),
		"context_path":   tftypes.NewValue(tftypes.String, "/shop"),
		"application_id": tftypes.NewValue(tftypes.String, id+"/shop"),
		"source_path":    tftypes.NewValue(tftypes.String, "/opt/apps/shop.war"),
		"resource_type":  tftypes.NewValue(tftypes.String, "jms"),
		"resource_name":  tftypes.NewValue(tftypes.String, "jms/orders"),
	}
}

// config is the action's configuration: its required arguments from actionArgs, plus
// extra, the rest null. A required argument that actionArgs does not know fails the test.
func (w *actionWorld) config(action, server string, extra map[string]tftypes.Value) *tfprotov6.DynamicValue {
	w.t.Helper()
	found, ok := w.rig.schemas.ActionSchemas[action]
	if !ok {
		w.t.Fatalf("no action %s", action)
	}
	schema := found.Schema
	args := w.actionArgs(server)
	attrs := map[string]tftypes.Value{}
	for _, a := range schema.Block.Attributes {
		v, known := args[a.Name]
		switch {
		case extra[a.Name].Type() != nil:
			attrs[a.Name] = extra[a.Name]
		case a.Required && !known:
			w.t.Fatalf("%s: actionArgs has no value for its required argument %s", action, a.Name)
		case a.Required:
			attrs[a.Name] = v
		}
	}
	return w.rig.object(schema, attrs)
}

// invoked is what one action call gave: the progress messages and the errors of the
// validate, plan or invoke that failed ("" when none did).
type invoked struct {
	progress []string
	errors   string
}

func (i invoked) said(fragment string) bool {
	return slices.ContainsFunc(i.progress, func(m string) bool { return strings.Contains(m, fragment) })
}

// invoke validates, plans and invokes the action as Terraform does, stopping at the first
// step with errors.
func (w *actionWorld) invoke(action string, config *tfprotov6.DynamicValue) invoked {
	w.t.Helper()
	ctx := context.Background()
	actions, ok := w.rig.server.(tfprotov6.ActionServer)
	if !ok {
		w.t.Fatalf("the provider's server %T serves no actions", w.rig.server)
	}
	validated, err := actions.ValidateActionConfig(ctx, &tfprotov6.ValidateActionConfigRequest{ActionType: action, Config: config})
	if err != nil {
		w.t.Fatal(err)
	}
	if e := diagErrors(validated.Diagnostics); e != "" {
		return invoked{errors: e}
	}
	planned, err := actions.PlanAction(ctx, &tfprotov6.PlanActionRequest{ActionType: action, Config: config})
	if err != nil {
		w.t.Fatal(err)
	}
	if e := diagErrors(planned.Diagnostics); e != "" {
		return invoked{errors: e}
	}
	stream, err := actions.InvokeAction(ctx, &tfprotov6.InvokeActionRequest{ActionType: action, Config: config})
	if err != nil {
		w.t.Fatal(err)
	}
	var out invoked
	completed := 0
	for event := range stream.Events {
		switch e := event.Type.(type) {
		case tfprotov6.ProgressInvokeActionEventType:
			if completed > 0 {
				w.t.Errorf("%s: progress %q after the completion", action, e.Message)
			}
			out.progress = append(out.progress, e.Message)
		case tfprotov6.CompletedInvokeActionEventType:
			completed++
			out.errors = diagErrors(e.Diagnostics)
		}
	}
	if completed != 1 {
		w.t.Errorf("%s: %d completion events, want 1", action, completed)
	}
	return out
}

// arrange brings the server of kind to state out of band, as another operator would.
func (w *actionWorld) arrange(kind apm.ServerKind, state string) {
	w.t.Helper()
	w.env.must(w.env.accConn().converge(w.t.Context(), w.ref(kind), state, false, nil))
}

func (w *actionWorld) status(kind apm.ServerKind) string {
	w.t.Helper()
	srv, err := w.env.admin.GetServer(w.t.Context(), w.ref(kind))
	w.env.must(err)
	return srv.Status
}

// behind puts a front before the manager (front), through which the provider (not the
// test's own client) reaches it.
func (w *actionWorld) behind(answer func(r *http.Request) string) {
	w.t.Helper()
	w.rig = newListRig(w.t, w.front(answer))
}

// front is a front before the manager, as the provider's endpoint: a request for which
// answer returns a body gets that body with 200, the others go to the manager. It says
// what the manager may answer (api/rest-interface.md) and apmsim never does, such as
// actionResult "N".
func (w *actionWorld) front(answer func(r *http.Request) string) *accEnv {
	w.t.Helper()
	return w.env.front(func(rw http.ResponseWriter, r *http.Request, manager http.Handler) {
		if body := answer(r); body != "" {
			rw.Header().Set("Content-Type", "application/json")
			_, _ = fmt.Fprint(rw, body)
			return
		}
		manager.ServeHTTP(rw, r)
	})
}

// requests counts the requests of method to the routes that end in suffix since the
// last reset.
func (w *actionWorld) requests(method, suffix string) int {
	return routeCount(w.env.sim.Sim, method, suffix)
}

// actionEffect is what an action must do: the state its server starts in, and the
// effect to find in the manager after a successful invoke.
type actionEffect struct {
	before string
	effect func(w *actionWorld, kind apm.ServerKind) error
	// idle is the progress of an invoke on a server already where the action leads,
	// which must send no start or stop; empty for actions that always act.
	idle string
}

// actionEffects are the effects of the actions by the end of their names.
var actionEffects = map[string]actionEffect{
	"_start": {before: stateStopped, idle: "is already running", effect: func(w *actionWorld, kind apm.ServerKind) error {
		return w.expectStatus(kind, stateRunning, 1)
	}},
	"_stop": {before: stateRunning, idle: "is already stopped", effect: func(w *actionWorld, kind apm.ServerKind) error {
		return w.expectStatus(kind, stateStopped, 1)
	}},
	"_restart": {before: stateRunning, effect: func(w *actionWorld, kind apm.ServerKind) error {
		return w.expectStatus(kind, stateRunning, 2)
	}},
	"_redeploy": {before: stateRunning, effect: func(w *actionWorld, _ apm.ServerKind) error {
		apps, err := w.env.admin.ApplicationStatuses(w.t.Context(), w.ref(apm.KindWAS))
		if err != nil {
			return err
		}
		undeploys, deploys := w.requests("DELETE", "/application"), w.requests("POST", "/application")
		if len(apps) != 1 || apps[0].ContextPath != "/shop" || apps[0].Status != stateRunning || undeploys != 1 || deploys != 1 {
			return fmt.Errorf("applications %+v after %d undeploys and %d deploys, want /shop running after one of each", apps, undeploys, deploys)
		}
		return nil
	}},
	"_import_resource": {before: stateRunning, effect: func(w *actionWorld, _ apm.ServerKind) error {
		if n := w.requests("POST", "/resource"); n != 1 {
			return fmt.Errorf("%d imports sent, want 1", n)
		}
		return nil
	}},
}

// expectStatus checks the server's status and how many starts and stops were sent.
func (w *actionWorld) expectStatus(kind apm.ServerKind, want string, actions int) error {
	if got, sent := w.status(kind), w.requests("POST", "/action"); got != want || sent != actions {
		return fmt.Errorf("%s is %s after %d starts or stops, want %s after %d", w.ref(kind).ServerID, got, sent, want, actions)
	}
	return nil
}

func effectOf(t *testing.T, action string) actionEffect {
	t.Helper()
	for suffix, e := range actionEffects {
		if strings.HasSuffix(action, suffix) {
			return e
		}
	}
	t.Fatalf("%s: actionEffects says nothing of what it does", action)
	return actionEffect{}
}

func (w *actionWorld) actions() []string {
	names := slices.Sorted(func(yield func(string) bool) {
		for name := range w.rig.schemas.ActionSchemas {
			if !yield(name) {
				return
			}
		}
	})
	if len(names) == 0 {
		w.t.Fatal("the provider registers no actions")
	}
	return names
}

// Every action does what it says, telling Terraform while it works, and does it again
// when invoked again (an action is idempotent: a second invoke after a failure carries on).
func TestActions_invokeReportsProgressAndDoesItsWork(t *testing.T) {
	w := newActionWorld(t)
	for _, action := range w.actions() {
		t.Run(action, func(t *testing.T) {
			kind, e := serverOf(action), effectOf(t, action)
			w.arrange(kind, e.before)
			w.env.sim.Sim.ResetRequestCounts()
			got := w.invoke(action, w.config(action, w.ref(kind).ServerID, nil))
			if got.errors != "" || len(got.progress) == 0 {
				t.Fatalf("errors %q, progress %q; want no error and progress", got.errors, got.progress)
			}
			t.Logf("progress: %q", got.progress)
			if !got.said(`"` + w.ref(kind).ServerID + `"`) {
				t.Errorf("no progress names the server %s: %q", w.ref(kind).ServerID, got.progress)
			}
			if err := e.effect(w, kind); err != nil {
				t.Errorf("after the invoke: %v (progress %q)", err, got.progress)
			}
			if again := w.invoke(action, w.config(action, w.ref(kind).ServerID, nil)); again.errors != "" {
				t.Errorf("invoked again: %s", again.errors)
			}
		})
	}
}

// An action on a server already where it leads succeeds at once, saying so, and sends
// no start or stop.
func TestActions_serverAlreadyThereIsLeftAlone(t *testing.T) {
	w := newActionWorld(t)
	for _, action := range w.actions() {
		e := effectOf(t, action)
		if e.idle == "" {
			continue // acts every time (a restart, a redeploy, an import)
		}
		t.Run(action, func(t *testing.T) {
			kind := serverOf(action)
			w.arrange(kind, e.before)
			if got := w.invoke(action, w.config(action, w.ref(kind).ServerID, nil)); got.errors != "" {
				t.Fatal(got.errors)
			}
			w.env.sim.Sim.ResetRequestCounts()
			got := w.invoke(action, w.config(action, w.ref(kind).ServerID, nil))
			if got.errors != "" || !got.said(e.idle) {
				t.Errorf("errors %q, progress %q; want success saying %q", got.errors, got.progress, e.idle)
			}
			if n := w.requests("POST", "/action"); n != 0 {
				t.Errorf("%d starts or stops sent to a server already there", n)
			}
		})
	}
}

// An action on a server that does not exist fails naming it.
func TestActions_missingServerIsNamed(t *testing.T) {
	w := newActionWorld(t)
	for _, action := range w.actions() {
		t.Run(action, func(t *testing.T) {
			got := w.invoke(action, w.config(action, "gone-9", nil))
			t.Logf("errors: %s", got.errors)
			if !strings.Contains(got.errors, `"gone-9"`) || !strings.Contains(got.errors, "not found") {
				t.Errorf("want an error naming server \"gone-9\" as not found, got %q", got.errors)
			}
		})
	}
}

// A manager that answers actionResult N fails the action with its message.
func TestActions_refusalCarriesTheManagersMessage(t *testing.T) {
	w := newActionWorld(t)
	const why = "the license allows no operations on this node"
	w.behind(func(r *http.Request) string {
		if r.Method == http.MethodPost && strings.Contains(r.URL.Path, "/servers/") {
			return fmt.Sprintf(`{"actionResult":"N","message":%q}`, why)
		}
		return ""
	})
	for _, action := range w.actions() {
		t.Run(action, func(t *testing.T) {
			kind := serverOf(action)
			w.arrange(kind, effectOf(t, action).before)
			got := w.invoke(action, w.config(action, w.ref(kind).ServerID, nil))
			if !strings.Contains(got.errors, why) || !strings.Contains(got.errors, `actionResult "N"`) {
				t.Errorf("want the manager's refusal %q, got %q", why, got.errors)
			}
			// A plain apply runs no action again: the advice must say what does.
			if !strings.Contains(got.errors, "invoke the action again") || strings.Contains(got.errors, "apply again") {
				t.Errorf("the advice must be to invoke the action again, not to apply again: %q", got.errors)
			}
		})
	}
}

// An action that waits longer than its timeout fails naming the server, the state it
// last saw and the timeout. Each action gets a manager of its own, whose servers take
// longer to start or stop than the timeout allows.
func TestActions_timeoutNamesServerStateAndLimit(t *testing.T) {
	checked := 0
	for _, action := range newActionWorld(t).actions() {
		if !hasArguments(t, action, "server_id", "timeout") {
			continue // no wait for a server's transition to cut short
		}
		checked++
		t.Run(action, func(t *testing.T) {
			t.Parallel()
			w := newActionWorld(t, apmsimtest.WithTransitionDelay(2500*time.Millisecond))
			kind := serverOf(action)
			w.arrange(kind, effectOf(t, action).before)
			got := w.invoke(action, w.config(action, w.ref(kind).ServerID, map[string]tftypes.Value{"timeout": tftypes.NewValue(tftypes.String, "1s")}))
			t.Logf("errors: %s", got.errors)
			for _, want := range []string{`"` + w.ref(kind).ServerID + `"`, "last state: ", "timeout of 1s", "raise the action's timeout"} {
				if !strings.Contains(got.errors, want) {
					t.Errorf("the error lacks %q: %q", want, got.errors)
				}
			}
		})
	}
	if checked == 0 {
		t.Fatal("no action waits for a server: nothing was checked")
	}
}

// hasArguments reports whether the action takes every one of the arguments.
func hasArguments(t *testing.T, action string, names ...string) bool {
	t.Helper()
	found, ok := providerSchemas(t).ActionSchemas[action]
	if !ok {
		t.Fatalf("no action %s", action)
	}
	for _, name := range names {
		if !slices.ContainsFunc(found.Schema.Block.Attributes, func(a *tfprotov6.SchemaAttribute) bool { return a.Name == name }) {
			return false
		}
	}
	return true
}

// Arguments that the configuration alone shows to be wrong fail at validate, naming the
// argument, the value and what is allowed.
func TestActions_badArgumentsFailAtValidate(t *testing.T) {
	w := newActionWorld(t)
	bad := map[string]struct{ value, allowed string }{
		"server_id":      {"was-1", "<system_id>/<node>/<server_id>"},
		"application_id": {"/shop", "<system_id>/<node>/<server_id><context_path>"},
		"source_path":    {"shop.war", "absolute"},
		"resource_type":  {"queue", `"datasource" "application" "jms" "jta"`},
		"timeout":        {"soon", "duration from 1s to 24h"},
	}
	for _, action := range w.actions() {
		for _, a := range w.rig.schemas.ActionSchemas[action].Schema.Block.Attributes {
			b, ok := bad[a.Name]
			if !ok {
				continue
			}
			t.Run(action+"/"+a.Name, func(t *testing.T) {
				got := w.invoke(action, w.config(action, "was-1", map[string]tftypes.Value{a.Name: tftypes.NewValue(tftypes.String, b.value)}))
				for _, want := range []string{a.Name, b.value, b.allowed} {
					if !strings.Contains(got.errors, want) {
						t.Errorf("the error lacks %q: %q", want, got.errors)
					}
				}
				if len(got.progress) > 0 {
					t.Errorf("invoked although the configuration is invalid: %q", got.progress)
				}
			})
		}
	}
}

// The actions as practitioners use them on Terraform 1.14 and later: triggered after a
// terraform_data resource is created or updated (testdata/actions/day_two.tf), each
// round runs every action once. The second round's requests are counted in the manager:
// four starts or stops per server (stop, start, and the restart's two), one undeploy and
// one deploy, one import; the servers and the application end running. Terraform below
// 1.14 and OpenTofu know no actions: the test skips there, saying so.
func TestAccActions_dayTwoTriggers(t *testing.T) {
	needs(t, clifeatures.Actions)
	env := newAccEnv(t)
	sim := env.needsSim("counts the requests that the actions send")
	config := func(round int) string {
		return env.config(tf(t, "actions/day_two.tf", "system_name", env.name("shop"), "round", round))
	}
	ran := func(s *terraform.State) error {
		starts, undeploys, deploys, imports := routeCount(sim, "POST", "/action"), routeCount(sim, "DELETE", "/application"),
			routeCount(sim, "POST", "/application"), routeCount(sim, "POST", "/resource")
		if starts != 12 || undeploys != 1 || deploys != 1 || imports != 1 {
			return fmt.Errorf("%d starts or stops, %d undeploys, %d deploys and %d imports; want 12, 1, 1 and 1", starts, undeploys, deploys, imports)
		}
		for _, kind := range serverKinds {
			id := serverIDs[kind.kind]
			srv, err := env.admin.GetServer(env.ctx(), apm.ServerRef{Kind: kind.kind, ServerID: id, NodeName: "app-01", SystemName: env.name("shop")})
			if err != nil {
				return err
			}
			if srv.Status != stateRunning {
				return fmt.Errorf("%s %s is %s after the round, want running", kind.label, id, srv.Status)
			}
		}
		return nil
	}
	accTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             env.checkAllGone,
		Steps: []resource.TestStep{
			{Config: config(1), ConfigPlanChecks: cleanAfterApply},
			{PreConfig: sim.ResetRequestCounts, Config: config(2), ConfigPlanChecks: cleanAfterApply, Check: ran},
		},
	})
}

// force is the manager's forced stop, which only WAS servers have: the WAS stop and
// restart take it, and a forced stop says so; no other action takes it.
func TestActions_forceOnlyWhereTheManagerHasIt(t *testing.T) {
	w := newActionWorld(t)
	for _, action := range w.actions() {
		forceable := strings.HasPrefix(action, "apm_was_server_") && (strings.HasSuffix(action, "_stop") || strings.HasSuffix(action, "_restart"))
		if got := hasArguments(t, action, "force"); got != forceable {
			t.Errorf("%s: takes force %v, want %v", action, got, forceable)
		}
	}
	w.arrange(apm.KindWAS, stateRunning)
	got := w.invoke("apm_was_server_stop", w.config("apm_was_server_stop", "was-1", map[string]tftypes.Value{"force": tftypes.NewValue(tftypes.Bool, true)}))
	if got.errors != "" || !got.said("at once (force)") || w.status(apm.KindWAS) != stateStopped {
		t.Errorf("forced stop: errors %q, progress %q, status %s", got.errors, got.progress, w.status(apm.KindWAS))
	}
}

// A redeploy refuses a stopped server before it undeploys anything (the application
// could not run there); and on a manager that keeps the application deploying, it fails
// at its timeout naming the application, the state it last saw and the timeout.
func TestActions_redeployNeedsARunningServerAndTimesOut(t *testing.T) {
	const action = "apm_was_application_redeploy"
	w := newActionWorld(t)
	w.arrange(apm.KindWAS, stateStopped)
	w.env.sim.Sim.ResetRequestCounts()
	got := w.invoke(action, w.config(action, "was-1", nil))
	if !strings.Contains(got.errors, "is stopped") || !strings.Contains(got.errors, "start it first") || w.requests("DELETE", "/application") != 0 {
		t.Errorf("stopped server: errors %q after %d undeploys; want a refusal before any", got.errors, w.requests("DELETE", "/application"))
	}

	w.arrange(apm.KindWAS, stateRunning)
	w.behind(func(r *http.Request) string {
		if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/applications/status") {
			return `{"applications":[{"contextPath":"/shop","status":"deploying","sessions":0}]}`
		}
		return ""
	})
	got = w.invoke(action, w.config(action, "was-1", map[string]tftypes.Value{"timeout": tftypes.NewValue(tftypes.String, "1s")}))
	for _, want := range []string{`application "/shop"`, `"was-1"`, "last state: deploying", "timeout of 1s"} {
		if !strings.Contains(got.errors, want) {
			t.Errorf("the error lacks %q: %q", want, got.errors)
		}
	}
}

// Every action's example says how to run it: a comment with the `terraform apply
// -invoke` of an action block that the example declares.
func TestActions_examplesSayHowToInvoke(t *testing.T) {
	for _, action := range registeredActions(t) {
		t.Run(action, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("..", "..", "examples", "actions", action, "action.tf"))
			if err != nil {
				t.Fatal(err)
			}
			m := regexp.MustCompile(`(?m)^# .*terraform apply -invoke=action\.` + action + `\.(\w+)\s*$`).FindSubmatch(data)
			if m == nil {
				t.Fatalf("no comment says `terraform apply -invoke=action.%s.<name>`", action)
			}
			if !regexp.MustCompile(`(?m)^action "` + action + `" "` + string(m[1]) + `"`).Match(data) {
				t.Errorf("the -invoke line names action.%s.%s, which the example does not declare", action, m[1])
			}
		})
	}
}
