package apmsim

import "net/http"

// Version strings reported by GET /rest/public/managerInfo.
const (
	ManagerVersion      = "1.0.0"
	ManagerPatchVersion = "1.0.0.0"
)

// publicArea serves /rest/public, the paths that need no key.
type publicArea struct{ s *Sim }

func (a publicArea) register(r *router) {
	r.handle("GET /rest/public/nodes", a.nodes)
	r.handle("GET /rest/public/managerInfo", a.managerInfo)
}

type publicNodeJSON struct {
	NodeID           string `json:"nodeId"`
	NodeName         string `json:"nodeName"`
	SystemName       string `json:"systemName"`
	ConnectionStatus string `json:"connectionStatus"`
	IPAddress        string `json:"ipAddress"`
}

// publicNodes is fixed: the spec calls this endpoint "dummy data for
// testing", unrelated to the registered nodes. The addresses are from
// the documentation range 192.0.2.0/24.
var publicNodes = []publicNodeJSON{
	{NodeID: "ND-9001", NodeName: "dummy-node-01", SystemName: "dummy-system", ConnectionStatus: "connected", IPAddress: "192.0.2.11"},
	{NodeID: "ND-9002", NodeName: "dummy-node-02", SystemName: "dummy-system", ConnectionStatus: "disconnected", IPAddress: "192.0.2.12"},
}

func (a publicArea) nodes(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"nodeList": publicNodes})
}

type managerInfoJSON struct {
	Version      string `json:"version"`
	PatchVersion string `json:"patchVersion"`
	Status       string `json:"status"`
	HAMode       bool   `json:"haMode"`
}

func (a publicArea) managerInfo(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, managerInfoJSON{
		Version: ManagerVersion, PatchVersion: ManagerPatchVersion, Status: "running", HAMode: false,
	})
}
