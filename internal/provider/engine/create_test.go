package engine

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

func TestDifferencesNameWhatTheManagerHasOtherwise(t *testing.T) {
	r := &Resource[testNode, struct{}]{Type: testNodeType}
	plan := Attrs{
		"system_id":  tftypes.NewValue(tftypes.String, "s-1"),
		"name":       tftypes.NewValue(tftypes.String, "web-01"),
		"host_ip":    tftypes.NewValue(tftypes.String, "::1"),
		"agent_port": Int64Value(7730),
		"node_id":    tftypes.NewValue(tftypes.String, tftypes.UnknownValue),
	}
	same := &testNode{Name: "web-01", HostIP: "0:0::1", AgentPort: 7730, NodeID: "n-9", SystemID: "s-1"}
	if diffs := r.differences(plan, same); len(diffs) != 0 {
		t.Errorf("another spelling of the address and the manager's own id are no difference: %v", diffs)
	}
	other := &testNode{Name: "web-01", HostIP: "10.0.0.9", AgentPort: 7731, SystemID: "s-1"}
	got := strings.Join(r.differences(plan, other), "; ")
	for _, want := range []string{`host_ip is "10.0.0.9" in the manager and "::1" in the configuration`, "agent_port is 7731 in the manager and 7730 in the configuration"} {
		if !strings.Contains(got, want) {
			t.Errorf("differences = %q, want it to contain %q", got, want)
		}
	}
}

// A delete the manager keeps refusing gives up at its timeout and says which setting to
// raise, and that a new value takes effect only once an apply has recorded it.
func TestBlockedDeleteSaysHowToRaiseItsTimeout(t *testing.T) {
	r := &Resource[testNode, struct{}]{Type: &ResourceType[testNode, struct{}]{
		Name: "node", DeleteTimeout: time.Minute,
		Describe: func(Attrs) string { return "node" },
		Delete:   func(context.Context, struct{}, Attrs) error { return apm.NewConflict("node still has servers") },
	}}
	_, err := r.deleteWaiting(context.Background(), struct{}{}, Attrs{}, 50*time.Millisecond, false)
	for _, want := range []string{"gave up after 50ms", "node still has servers", "raise timeouts.delete", "apply once with the new value"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v, want it to say %q", err, want)
		}
	}
}
