package provider

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
)

// A server's node and a part's server are referred to by their ids, never by names.
func TestServerReferences(t *testing.T) {
	for ref, ok := range map[string]bool{"SYS-1/app-01": true, "app-01": false, "SYS-1/": false, "/app-01": false, "SYS-1/app-01/x": false} {
		if _, _, got := splitNodeRef(ref); got != ok {
			t.Errorf("splitNodeRef(%q) ok = %v, want %v", ref, got, ok)
		}
	}
	node, id, ok := splitServerRef("SYS-1/app-01/was-1")
	if !ok || node != "SYS-1/app-01" || id != "was-1" {
		t.Errorf("splitServerRef = %q %q %v", node, id, ok)
	}
	for _, bad := range []string{"was-1", "app-01/was-1", "SYS-1/app-01/"} {
		if _, _, ok := splitServerRef(bad); ok {
			t.Errorf("splitServerRef(%q) accepted", bad)
		}
	}
	m := newConn(nil)
	err := m.onServerRef(context.Background(), apm.KindWAS, "was-1", func(apm.ServerRef) error { return errors.New("called") })
	if err == nil || !strings.Contains(err.Error(), "apm_was_server.example.id") {
		t.Errorf("a server id without its node: %v", err)
	}
}
