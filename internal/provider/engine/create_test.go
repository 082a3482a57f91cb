package engine

import (
	"strings"
	"testing"

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
