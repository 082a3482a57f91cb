package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
)

// Shared by the tests of the web server's parts (workers, URI patterns, SSL) and others.

// The web server web-1 on shop/app-01 (10.0.0.21).
var webRef = apm.ServerRef{Kind: apm.KindWeb, ServerID: "web-1", NodeName: "app-01", SystemName: "shop"}

// shopWeb1 is webRef in this test's system "shop" (env.name).
func (e *accEnv) shopWeb1() apm.ServerRef {
	ref := webRef
	ref.SystemName = e.name("shop")
	return ref
}

// ---- secrets in plan and state ----

// secretMarks are the lines of a PEM's body: any of them in a text means the PEM leaked,
// however the text escapes line breaks.
func secretMarks(pemText string) []string {
	var out []string
	for _, line := range strings.Split(pemText, "\n") {
		if len(line) >= 16 && !strings.HasPrefix(line, "-----") {
			out = append(out, line)
		}
	}
	return out
}

func containsSecret(text, pemText string) bool {
	for _, mark := range secretMarks(pemText) {
		if strings.Contains(text, mark) {
			return true
		}
	}
	return false
}

// secretInJSON checks whether the JSON form of a plan or state holds the PEM.
func secretInJSON(what string, v any, pemText string, present bool) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if len(secretMarks(pemText)) == 0 {
		return fmt.Errorf("the secret has no lines to look for")
	}
	if found := containsSecret(string(data), pemText); found != present {
		return fmt.Errorf("the %s (%d bytes of JSON) holds the private key: %v, want %v", what, len(data), found, present)
	}
	return nil
}

// planHoldsKey is a plan check: the plan's JSON holds the PEM (present) or not.
type planHoldsKey struct {
	pem     string
	present bool
}

func (c planHoldsKey) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	resp.Error = secretInJSON("plan", req.Plan, c.pem, c.present)
}

// stateHoldsKey is a state check: the state's JSON holds the PEM (present) or not.
type stateHoldsKey struct {
	pem     string
	present bool
}

func (c stateHoldsKey) CheckState(_ context.Context, req statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	resp.Error = secretInJSON("state", req.State, c.pem, c.present)
}

// writeOnlyStored are the state checks of a secret given write-only: none of the values
// is in the state, neither attribute holds a value, and the version is recorded.
func writeOnlyStored(addr, name string, version int64, values ...string) []statecheck.StateCheck {
	checks := make([]statecheck.StateCheck, 0, len(values)+3)
	for _, v := range values {
		checks = append(checks, stateHoldsKey{v, false})
	}
	return append(checks,
		statecheck.ExpectKnownValue(addr, tfjsonpath.New(name+"_wo"), knownvalue.Null()),
		statecheck.ExpectKnownValue(addr, tfjsonpath.New(name), knownvalue.Null()),
		statecheck.ExpectKnownValue(addr, tfjsonpath.New(name+"_wo_version"), knownvalue.Int64Exact(version)))
}
