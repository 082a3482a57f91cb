package apmsim

import (
	"net/http"
	"time"
)

// containersArea serves the two container group lists (spec 4.2 and 4.3). The groups are
// seeded and read-only: the spec has no endpoint that changes them. A container's host
// name, as the container metrics paths take it, is its serverName.
type containersArea struct{ s *Sim }

// Container kinds, as keys of the container state and in metric series names.
const (
	containerKindWAS = "was"
	containerKindWeb = "web"
)

type containerServerJSON struct {
	ServerID    string `json:"serverId"`
	ServerName  string `json:"serverName"`
	ContainerIP string `json:"containerIp"`
	HTTPPort    int    `json:"httpPort"`
}

// containerData holds the container groups by kind, each sorted by serverId.
type containerData struct {
	Groups map[string][]containerServerJSON `json:"groups"`
}

var containerState = newExtKey[containerData]("containers")

func (a containersArea) register(r *router) {
	r.handle("GET /rest/was/container/servers", a.list(containerKindWAS))
	r.handle("GET /rest/web/container/servers", a.list(containerKindWeb))
}

func (a containersArea) list(kind string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		answerRead(a.s, w, func(wd *world, _ time.Time) (any, error) {
			out := append([]containerServerJSON{}, containerState.of(wd).Groups[kind]...)
			return map[string]any{"containerList": out}, nil
		})
	}
}

// demoContainers are the demo seed's groups: three WAS and two web containers of the shop.
var demoContainers = map[string][]containerServerJSON{
	containerKindWAS: {
		{ServerID: "cwas-01", ServerName: "shop-was-0", ContainerIP: "172.20.0.11", HTTPPort: 8080},
		{ServerID: "cwas-02", ServerName: "shop-was-1", ContainerIP: "172.20.0.12", HTTPPort: 8080},
		{ServerID: "cwas-03", ServerName: "shop-was-2", ContainerIP: "172.20.0.13", HTTPPort: 8080},
	},
	containerKindWeb: {
		{ServerID: "cweb-01", ServerName: "shop-web-0", ContainerIP: "172.20.1.11", HTTPPort: 80},
		{ServerID: "cweb-02", ServerName: "shop-web-1", ContainerIP: "172.20.1.12", HTTPPort: 80},
	},
}

func (a containersArea) seed(wd *world, seed string) {
	if seed != SeedDemo {
		return
	}
	groups := map[string][]containerServerJSON{}
	for kind, list := range demoContainers {
		groups[kind] = append([]containerServerJSON(nil), list...)
	}
	containerState.of(wd).Groups = groups
}

// containerExists reports whether the group of kind has a container named host.
func containerExists(wd *world, kind, host string) bool {
	for _, c := range containerState.of(wd).Groups[kind] {
		if c.ServerName == host {
			return true
		}
	}
	return false
}
