package provider

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/apmsim"
	"github.com/apmplatform/terraform-provider-apm/internal/apmsim/apmsimtest"
)

// checkContainers compares the list data source addr with the manager's container servers
// of kind, sorted by id.
func (e *accEnv) checkContainers(addr string, kind apm.ServerKind, wantIDs ...string) statecheck.StateCheck {
	return managerCheck(func(s statecheck.CheckStateRequest) error {
		got, err := dataAttrs(s, addr)
		if err != nil {
			return err
		}
		list := e.admin.ListWASContainerServers
		if kind == apm.KindWeb {
			list = e.admin.ListWebContainerServers
		}
		servers, err := list(e.ctx())
		if err != nil {
			return err
		}
		slices.SortFunc(servers, func(a, b apm.ContainerServer) int { return strings.Compare(a.ServerID, b.ServerID) })
		ids := make([]string, 0, len(servers))
		want := make([]map[string]string, 0, len(servers))
		for _, c := range servers {
			ids = append(ids, c.ServerID)
			want = append(want, map[string]string{
				"server_id": c.ServerID, "server_name": c.ServerName, "container_ip": c.ContainerIP, "http_port": strconv.FormatInt(c.HTTPPort, 10),
			})
		}
		if !slices.Equal(ids, wantIDs) && (len(ids) > 0 || len(wantIDs) > 0) {
			return fmt.Errorf("%s: the manager's %s containers are %q, want %q", addr, kind, ids, wantIDs)
		}
		return sameItems(addr, got, "servers", want)
	})
}

// The container servers of each kind, as the demo seed has them; another kind is refused
// (first: the framework's final destroy needs a valid last configuration).
func TestAccContainerServers_demo(t *testing.T) {
	env := newAccEnvWith(t, apmsimtest.WithSeed(apmsim.SeedDemo))
	env.test([]resource.TestStep{
		{
			Config:      env.config(tf(t, "container_servers/one.tf", "kind", "session")),
			ExpectError: errorMatching("kind", "value must be one of", `"web"`, `got: "session"`),
		},
		{
			Config: env.config(tf(t, "container_servers/was_and_web.tf")),
			ConfigStateChecks: []statecheck.StateCheck{
				env.checkContainers("data.apm_container_servers.was", apm.KindWAS, "cwas-01", "cwas-02", "cwas-03"),
				env.checkContainers("data.apm_container_servers.web", apm.KindWeb, "cweb-01", "cweb-02"),
				statecheck.ExpectKnownValue("data.apm_container_servers.web", tfjsonpath.New("servers").AtSliceIndex(1), knownvalue.ObjectExact(map[string]knownvalue.Check{
					"server_id": knownvalue.StringExact("cweb-02"), "server_name": knownvalue.StringExact("shop-web-1"),
					"container_ip": knownvalue.StringExact("172.20.1.12"), "http_port": knownvalue.Int64Exact(80),
				})),
			},
		},
	})
}

// Without container groups the lists are empty, not an error.
func TestAccContainerServers_none(t *testing.T) {
	env := newAccEnv(t)
	env.needsSim("assumes a manager without container groups")
	env.test([]resource.TestStep{{
		Config: env.config(tf(t, "container_servers/one.tf", "kind", "was")),
		ConfigStateChecks: []statecheck.StateCheck{
			env.checkContainers("data.apm_container_servers.x", apm.KindWAS),
			statecheck.ExpectKnownValue("data.apm_container_servers.x", tfjsonpath.New("servers"), knownvalue.ListSizeExact(0)),
		},
	}})
}
